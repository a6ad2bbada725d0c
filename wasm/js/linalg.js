// tp.linalg: decompositions (svd, svdvals, qr, eigh, eigvalsh, det, inv, solve), norms, matrixRank,
// svdLowrank (cpp/include/tensorpad/linalg.hpp, bound in wasm/bind_linalg.cpp) and the rotations
// hadamard, fwht, randomOrthogonal, blockDiag (cpp/include/tensorpad/nn.hpp, wasm/bind_nn.cpp). No math here.
// Every op takes a matrix or a batch of matrices (*, m, n) — a Tensor or nested arrays — and works on
// the last two dims, like torch.linalg.
//
//   tp.linalg.svd(A)            → {U (*,m,k), S (*,k) descending, Vh (*,k,n)}, k = min(m, n)
//   tp.linalg.svdvals(A)        → S (*,k)
//   tp.linalg.qr(A)             → {Q (*,m,k), R (*,k,n) upper-triangular with exact zeros}
//   tp.linalg.eigh(A)           → {eigenvalues (*,n) ascending, eigenvectors (*,n,n) in columns}
//   tp.linalg.eigvalsh(A)       → eigenvalues (*,n)          (A symmetric; its lower triangle is read)
//   tp.linalg.det(A)            → (*)                        (0 when A is singular to float32 precision)
//   tp.linalg.inv(A)            → (*,n,n), tp.linalg.solve(A, B) → X with A X = B, B (*,n) or (*,n,k);
//                                 batch dims broadcast; B holds vectors when 1-d or shaped like A minus its last dim
//   tp.linalg.norm(A, ord, dim, {keepdim})
//                               → (*) for A (*, m, n) and a matrix ord ('fro', 'nuc', 2, -2, 1, -1, Infinity,
//                                 -Infinity) without dim: one norm per matrix, as matrixNorm. Without ord: the
//                                 2-norm of all elements, A flattened (torch and numpy alike; for a batch that
//                                 is one number, not (*)). A 1-d A or an ord with a dim: the core's vector norm.
//                                 dim a pair [d0, d1] with an ord: the matrix norm over those two dims; without
//                                 ord, the 2-norm over a list of dims.
//                                 keepdim keeps the reduced dims as 1 (all of them when no dim is given).
//   tp.linalg.matrixNorm(A, ord = 'fro', {keepdim})  → (*), or (*, 1, 1) with keepdim
//   tp.linalg.matrixRank(A, {tol}) → a number (a tensor of counts for a batch); default tol σ1·max(m,n)·eps32
//   tp.linalg.svdLowrank(A, q = 6, {niter = 2, seed}) → {U (m,q), S (q), V (n,q)}, A ≈ U diag(S) Vᵀ
//   tp.linalg.matrixPower(A, k)  → A^k (*,n,n): I for k = 0, inv(A)^|k| for k < 0
//   tp.linalg.pinv(A, {atol, rtol}) → (*,n,m) through the SVD, dropping s <= max(atol, rtol·s_max)
//                                 (rtol defaults to max(m,n)·eps32 when atol is not given, else 0)
//   tp.linalg.cond(A, ord)      → (*): s_max/s_min without ord (any shape); else norm(A)·norm(inv A), inf if singular
//   tp.linalg.hadamard(n), tp.linalg.fwht(x, {block}), tp.linalg.randomOrthogonal(n, {seed}),
//   tp.linalg.blockDiag(...mats)   (as torch.block_diag: a 0-d block is 1x1, a 1-d block one row)
// Singular matrices in inv/solve, NaN or Inf anywhere, and non-convergence are TensorpadErrors.
import { fail, describe, asOp } from './errors.js';
import { checkInt, checkNumber, checkBool, options, seedOf } from './checks.js';

const MATRIX_ORDS = new Map([
  ['fro', 'fro'], ['nuc', 'nuc'], [2, '2'], [-2, '-2'], [1, '1'], [-1, '-1'],
  [Infinity, 'inf'], [-Infinity, '-inf'],
]);

// vectorNorm: the vector norm of reductions.js, which tp.linalg.norm uses for vectors and lists of dims.
export function linalg(rt, { vectorNorm }) {
  const { core, wrap, check, withHandles, Tensor } = rt;
  // The handles of a multi-output op become named tensors.
  const named = (ids, names) => {
    check();
    return Object.fromEntries(names.map((name, i) => [name, wrap(ids[i])]));
  };
  const unary = (op, fn) => (A) => withHandles(op, [A], (a) => wrap(fn(a)));

  function matrixOrd(op, ord) {
    if (!MATRIX_ORDS.has(ord))
      fail(op, `ord must be 'fro', 'nuc', 2, -2, 1, -1, Infinity or -Infinity for a matrix, got ${describe(ord)}`);
    return MATRIX_ORDS.get(ord);
  }

  // op names the caller: tp.linalg.norm sends its matrix ords here.
  function matrixNorm(A, ord = 'fro', opts, op = 'linalg.matrixNorm') {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    const code = matrixOrd(op, ord);
    return withHandles(op, [A], (a) => {
      const r = asOp(op, () => wrap(core.linalgMatrixNorm(a, code)), ['linalg.norm']);
      if (!keepdim) return r;
      const out = r.reshape([...r.shape, 1, 1]);
      r.dispose();
      return out;
    });
  }

  // A matrix norm over two given dims (torch.linalg.norm with a 2-tuple dim), in the core.
  function matrixNormOver(A, ord, dims, opts, op) {
    const { keepdim = false } = options(op, opts, ['keepdim']);
    checkBool(op, 'keepdim', keepdim);
    const code = matrixOrd(op, ord);
    dims.forEach((d) => checkInt(op, 'dim', d));
    return withHandles(op, [A], (a) => wrap(core.linalgMatrixNormDims(a, code, dims[0], dims[1], keepdim)));
  }

  function norm(A, ord, dim, opts) {
    const op = 'linalg.norm';
    const noDim = dim === undefined || dim === null, noOrd = ord === undefined || ord === null;
    if (Array.isArray(dim) && dim.length > 2)
      fail(op, `dim must be one dim or a pair of dims, got [${dim.join(', ')}] (x.norm(p, dims) takes a vector norm over any list)`);
    if (Array.isArray(dim) && dim.length === 2 && !noOrd) return matrixNormOver(A, ord, dim, opts, op);
    const ndim = A instanceof Tensor ? A._shape(op).length : Array.isArray(A) && Array.isArray(A[0]) ? 2 : 1;
    if (typeof ord === 'string' && !noDim)
      fail(op, `ord ${describe(ord)} is a matrix norm: give it two dims (e.g. [-2, -1]) or none; pass ord 2 with a dim for a vector norm`);
    if (ndim >= 2 && noDim && !noOrd) return matrixNorm(A, ord, opts, op);
    if (ord === 'nuc') fail(op, "ord 'nuc' needs a matrix (at least 2-d)");
    return vectorNorm(A, ord, dim, opts, op);
  }

  function matrixRank(A, opts) {
    const op = 'linalg.matrixRank';
    const o = options(op, opts, ['tol']);
    let tol = NaN;
    if (o.tol !== undefined && o.tol !== null) {
      checkNumber(op, 'tol', o.tol);
      if (!(o.tol >= 0)) fail(op, `tol must be a non-negative number, got ${describe(o.tol)}`);
      tol = o.tol;
    }
    return withHandles(op, [A], (a) => {
      const r = wrap(core.linalgMatrixRank(a, tol));
      if (r.ndim > 0) return r;
      const n = r.item();
      r.dispose();
      return n;
    });
  }

  function solve(A, B) {
    return withHandles('linalg.solve', [A, B], (a, b) => wrap(core.linalgSolve(a, b)));
  }

  function svdLowrank(A, q = 6, opts) {
    const op = 'linalg.svdLowrank';
    checkInt(op, 'q', q, { min: 1 });
    const o = options(op, opts, ['niter', 'seed']);
    const { niter = 2, seed } = o;
    checkInt(op, 'niter', niter, { min: 0, max: 1000 });
    return withHandles(op, [A], (a) => named(core.linalgSvdLowrank(a, q, niter, ...seedOf(op, seed)), ['U', 'S', 'V']));
  }

  // issue 22's three (cpp/src/ops_linalg.cpp): errors of the decompositions they call are named after them.
  const derived = {
    matrixPower(A, k) {
      const op = 'linalg.matrixPower';
      checkInt(op, 'k', k, { min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });
      return withHandles(op, [A], (a) => asOp(op, () => wrap(core.linalgMatrixPower(a, k)), ['linalg.inv', 'matmul', 'alloc', 'empty']));
    },
    pinv(A, opts) {
      const op = 'linalg.pinv';
      const o = options(op, opts, ['atol', 'rtol']);
      const atol = o.atol ?? 0, rtol = o.rtol ?? -1;
      checkNumber(op, 'atol', atol);
      checkNumber(op, 'rtol', rtol);
      if (!(atol >= 0)) fail(op, `atol must be a non-negative number, got ${describe(o.atol)}`);
      if (o.rtol !== undefined && o.rtol !== null && !(rtol >= 0)) fail(op, `rtol must be a non-negative number, got ${describe(o.rtol)}`);
      return withHandles(op, [A], (a) => asOp(op, () => wrap(core.linalgPinv(a, atol, rtol)), ['linalg.svd', 'matmul', 'alloc', 'empty']));
    },
    cond(A, ord) {
      const op = 'linalg.cond';
      const code = ord === undefined || ord === null ? '' : matrixOrd(op, ord);
      return withHandles(op, [A], (a) => asOp(op, () => wrap(core.linalgCond(a, code)), ['linalg.svdvals', 'alloc', 'empty']));
    },
  };

  const rotations = {
    hadamard(n) {
      checkInt('linalg.hadamard', 'n', n, { min: 0 });
      return wrap(core.linalgHadamard(n), 'linalg.hadamard');
    },
    fwht(x, opts) {
      const op = 'linalg.fwht';
      const o = options(op, opts, ['block']);
      const block = o.block === undefined ? 0 : checkInt(op, 'block', o.block, { min: 1 });
      return withHandles(op, [x], (ix) => wrap(core.linalgFwht(ix, block)));
    },
    randomOrthogonal(n, opts) {
      const op = 'linalg.randomOrthogonal';
      checkInt(op, 'n', n, { min: 1 });
      const o = options(op, opts, ['seed']);
      return wrap(core.linalgRandomOrthogonal(n, ...seedOf(op, o.seed)), op);
    },
    blockDiag(...mats) {
      const op = 'linalg.blockDiag';
      if (mats.length === 1 && Array.isArray(mats[0]) && mats[0].some((m) => m instanceof Tensor)) mats = mats[0];
      return withHandles(op, mats, (...ids) => wrap(core.linalgBlockDiag(ids)));
    },
  };

  return {
    svd: (A) => withHandles('linalg.svd', [A], (a) => named(core.linalgSvd(a), ['U', 'S', 'Vh'])),
    svdvals: unary('linalg.svdvals', core.linalgSvdvals),
    qr: (A) => withHandles('linalg.qr', [A], (a) => named(core.linalgQr(a), ['Q', 'R'])),
    eigh: (A) => withHandles('linalg.eigh', [A], (a) => named(core.linalgEigh(a), ['eigenvalues', 'eigenvectors'])),
    eigvalsh: unary('linalg.eigvalsh', core.linalgEigvalsh),
    det: unary('linalg.det', core.linalgDet),
    inv: unary('linalg.inv', core.linalgInv),
    solve,
    norm,
    matrixNorm,
    matrixRank,
    svdLowrank,
    ...derived,
    ...rotations,
  };
}
