// tp.linalg decompositions: svd, svdvals, qr, eigh, eigvalsh, det, inv, solve, matrix norms, matrixRank
// and svdLowrank (cpp/include/tensorpad/linalg.hpp, bound in wasm/bind_linalg.cpp). No math here.
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
//   tp.linalg.norm(A, ord)      → (*): ord 'fro', 'nuc', 2, -2, 1, -1, Infinity, -Infinity on matrices;
//                                 vectors and ord with a dim go to the core's vector norm
//   tp.linalg.matrixNorm(A, ord = 'fro', {keepdim})
//   tp.linalg.matrixRank(A, {tol}) → a number (a tensor of counts for a batch); default tol σ1·max(m,n)·eps32
//   tp.linalg.svdLowrank(A, q = 6, {niter = 2, seed}) → {U (m,q), S (q), V (n,q)}, A ≈ U diag(S) Vᵀ
// Singular matrices in inv/solve, NaN or Inf anywhere, and non-convergence are TensorpadErrors.

const MATRIX_ORDS = new Map([
  ['fro', 'fro'], ['nuc', 'nuc'], [2, '2'], [-2, '-2'], [1, '1'], [-1, '-1'],
  [Infinity, 'inf'], [-Infinity, '-inf'],
]);

export function installLinalg(tp, rt) {
  const { core, wrap, check, withHandles, checkInt, checkNumber, options, fail, describe, Tensor } = rt;

  const checkKeys = (op, o, allowed) => {
    for (const k of Object.keys(o))
      if (!allowed.includes(k)) fail(op, `unknown option ${describe(k)} (expected one of ${allowed.join(', ')})`);
  };
  // The handles of a multi-output op become named tensors.
  const named = (ids, names) => {
    check();
    return Object.fromEntries(names.map((name, i) => [name, wrap(ids[i])]));
  };
  const unary = (op, fn) => (A) => withHandles(op, [A], (a) => wrap(fn(a)));

  const vectorNorm = tp.linalg?.norm; // the core's norm (vectors, 'fro' over all elements)

  function matrixOrd(op, ord) {
    if (!MATRIX_ORDS.has(ord))
      fail(op, `ord must be 'fro', 'nuc', 2, -2, 1, -1, Infinity or -Infinity for a matrix, got ${describe(ord)}`);
    return MATRIX_ORDS.get(ord);
  }

  function matrixNorm(A, ord = 'fro', opts) {
    const op = 'linalg.matrixNorm';
    const o = options(op, opts);
    checkKeys(op, o, ['keepdim']);
    const { keepdim = false } = o;
    if (typeof keepdim !== 'boolean') fail(op, `keepdim must be a boolean, got ${describe(keepdim)}`);
    const code = matrixOrd(op, ord);
    return withHandles(op, [A], (a) => {
      const r = wrap(core.linalgMatrixNorm(a, code));
      if (!keepdim) return r;
      const out = r.reshape([...r.shape, 1, 1]);
      r.dispose();
      return out;
    });
  }

  function norm(A, ord, dim, opts) {
    // Matrix norms for 2-d and batched input when no dim is given and ord is a matrix order other than
    // 'fro' (which the core already takes over all elements); everything else is the vector norm.
    const isMatrix = (A instanceof Tensor ? A.ndim : Array.isArray(A) && Array.isArray(A[0]) ? 2 : 1) >= 2;
    if (isMatrix && (dim === undefined || dim === null) && ord !== undefined && ord !== null && ord !== 'fro') {
      return matrixNorm(A, ord, opts);
    }
    if (ord === 'nuc') fail('linalg.norm', "ord 'nuc' needs a matrix (at least 2-d) and no dim");
    if (!vectorNorm) fail('linalg.norm', 'vector norms are not available');
    return vectorNorm(A, ord, dim, opts);
  }

  function matrixRank(A, opts) {
    const op = 'linalg.matrixRank';
    const o = options(op, opts);
    checkKeys(op, o, ['tol']);
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
    const o = options(op, opts);
    checkKeys(op, o, ['niter', 'seed']);
    const { niter = 2, seed } = o;
    checkInt(op, 'niter', niter, { min: 0, max: 1000 });
    const seeded = seed !== undefined && seed !== null;
    if (seeded) checkInt(op, 'seed', seed, { min: 0, max: Number.MAX_SAFE_INTEGER });
    return withHandles(op, [A], (a) => named(core.linalgSvdLowrank(a, q, niter, seeded ? seed : 0, seeded), ['U', 'S', 'V']));
  }

  tp.linalg ??= {};
  Object.assign(tp.linalg, {
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
  });
}
