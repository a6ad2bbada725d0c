// tp.linalg decompositions in Node: numpy/LAPACK fixtures (tests/fixtures/linalg) with the issue's
// accuracy bar, torch's names and return shapes (batched over leading dims), and clear errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { init, TensorpadError } from '../../wasm/js/node.js';

const tp = await init();
const cases = JSON.parse(readFileSync(new URL('../fixtures/linalg/cases.json', import.meta.url), 'utf8'));
const matrix = (c) => tp.tensor(Float32Array.from(c.A), { shape: [c.m ?? c.n, c.n] });

// Plain double-precision helpers, independent of the core.
function matmulRows(a, [m, k], b, [, n]) {
  const c = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let p = 0; p < k; p++) {
      const x = a[i * k + p];
      for (let j = 0; j < n; j++) c[i * n + j] += x * b[p * n + j];
    }
  return c;
}
const transpose = (a, [r, c]) => {
  const t = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) t[j * r + i] = a[i * c + j];
  return t;
};
const fro = (a) => Math.sqrt(a.reduce((s, x) => s + x * x, 0));
// max |XᵀX − I| of the (r, c) row-major X.
function orthogonalityError(x, [r, c]) {
  const g = matmulRows(transpose(x, [r, c]), [c, r], x, [r, c]);
  let e = 0;
  for (let i = 0; i < c; i++) for (let j = 0; j < c; j++) e = Math.max(e, Math.abs(g[i * c + j] - (i === j ? 1 : 0)));
  return e;
}
function assertSingularValues(S, ref, name) {
  const s1 = ref.length ? ref[0] : 0;
  ref.forEach((r, i) => assert.ok(Math.abs(S[i] - r) <= 2e-5 * s1 + 1e-37, `${name}: σ${i} = ${S[i]}, LAPACK ${r}`));
}

test('linalg.svd(A) returns {U, S, Vh} that reconstruct every fixture matrix to 1e-5, with LAPACK singular values', () => {
  for (const c of cases.svd) {
    const k = Math.min(c.m, c.n);
    const A = matrix(c);
    const { U, S, Vh } = tp.linalg.svd(A);
    assert.deepEqual([U.shape, S.shape, Vh.shape], [[c.m, k], [k], [k, c.n]], c.name);
    const s = S.data();
    assertSingularValues(s, c.S, c.name);
    const us = Float64Array.from(U.data(), (x, i) => x * s[i % k]);
    const rec = matmulRows(us, [c.m, k], Vh.data(), [k, c.n]);
    const err = fro(rec.map((x, i) => x - c.A[i]));
    assert.ok(err <= 1e-5 * fro(c.A) + 1e-37, `${c.name}: ‖A − U S Vh‖/‖A‖ = ${err / fro(c.A)}`);
    assert.ok(orthogonalityError(U.data(), [c.m, k]) <= 1e-4, `${c.name}: UᵀU`);
    assert.ok(orthogonalityError(transpose(Vh.data(), [k, c.n]), [c.n, k]) <= 1e-4, `${c.name}: Vh Vhᵀ`);
    assertSingularValues(tp.linalg.svdvals(A).data(), c.S, `${c.name} (svdvals)`);
    tp.dispose([A, U, S, Vh]);
  }
});

test('linalg.svd and svdvals batch over leading dims', () => {
  const A = tp.randn([2, 3, 5, 4], { seed: 1 });
  const { U, S, Vh } = tp.linalg.svd(A);
  assert.deepEqual([U.shape, S.shape, Vh.shape], [[2, 3, 5, 4], [2, 3, 4], [2, 3, 4, 4]]);
  const one = tp.linalg.svdvals(A.select(0, 1).select(0, 2));
  assert.deepEqual(Array.from(S.select(0, 1).select(0, 2).data()), Array.from(one.data()));
  const wide = tp.linalg.svd(tp.randn([3, 2, 6], { seed: 2 }));
  assert.deepEqual([wide.U.shape, wide.S.shape, wide.Vh.shape], [[3, 2, 2], [3, 2], [3, 2, 6]]);
});

test('linalg.qr(A) returns orthonormal Q and R with exact zeros below the diagonal', () => {
  for (const c of cases.svd) {
    const k = Math.min(c.m, c.n);
    const { Q, R } = tp.linalg.qr(matrix(c));
    assert.deepEqual([Q.shape, R.shape], [[c.m, k], [k, c.n]]);
    const r = R.data();
    for (let i = 0; i < k; i++) for (let j = 0; j < Math.min(i, c.n); j++) assert.equal(r[i * c.n + j], 0, `${c.name}: R[${i}][${j}]`);
    const err = fro(matmulRows(Q.data(), [c.m, k], r, [k, c.n]).map((x, i) => x - c.A[i]));
    assert.ok(err <= 1e-5 * fro(c.A) + 1e-37, `${c.name}: ‖QR − A‖`);
    assert.ok(orthogonalityError(Q.data(), [c.m, k]) <= 1e-4, `${c.name}: QᵀQ`);
  }
});

test('linalg.eigh(A) returns ascending eigenvalues and eigenvectors in columns; eigvalsh the values', () => {
  for (const c of cases.eigh) {
    const A = matrix(c);
    const { eigenvalues, eigenvectors } = tp.linalg.eigh(A);
    assert.deepEqual([eigenvalues.shape, eigenvectors.shape], [[c.n], [c.n, c.n]]);
    const w = eigenvalues.data(), V = eigenvectors.data();
    const lmax = Math.max(...c.w.map(Math.abs));
    c.w.forEach((x, i) => assert.ok(Math.abs(w[i] - x) <= 2e-5 * lmax + 1e-37, `${c.name}: λ${i} = ${w[i]} vs ${x}`));
    const AV = matmulRows(c.A, [c.n, c.n], V, [c.n, c.n]);
    const res = fro(AV.map((x, i) => x - V[i] * w[i % c.n]));
    assert.ok(res <= 1e-4 * fro(c.A) + 1e-37, `${c.name}: ‖AV − VΛ‖/‖A‖ = ${res / fro(c.A)}`);
    const wv = tp.linalg.eigvalsh(A).data();
    c.w.forEach((x, i) => assert.ok(Math.abs(wv[i] - x) <= 2e-5 * lmax + 1e-37, `${c.name}: eigvalsh ${i}`));
  }
});

test('linalg.det, inv and solve match numpy; solve takes a vector or a matrix of right-hand sides', () => {
  for (const c of cases.lu) {
    const A = matrix(c);
    const B = tp.tensor(Float32Array.from(c.B), { shape: [c.n, 3] });
    const d = tp.linalg.det(A);
    assert.deepEqual(d.shape, []);
    assert.ok(Math.abs(d.item() - c.det) <= 1e-5 * Math.abs(c.det), `${c.name}: det ${d.item()} vs ${c.det}`);
    for (const [got, want] of [[tp.linalg.inv(A), c.inv], [tp.linalg.solve(A, B), c.X]]) {
      const scale = Math.max(...want.map(Math.abs));
      got.data().forEach((x, i) => assert.ok(Math.abs(x - want[i]) <= 1e-4 * scale, `${c.name}: [${i}] ${x} vs ${want[i]}`));
    }
  }
  const x = tp.linalg.solve([[2, 1], [1, 3]], [3, 5]);
  assert.deepEqual(x.shape, [2]);
  assert.ok(tp.allclose(x, [0.8, 1.4], { atol: 1e-6 }));
  const batch = tp.linalg.det(tp.tensor([[[1, 2], [3, 4]], [[2, 0], [0, 5]]]));
  assert.deepEqual(batch.shape, [2]);
  assert.ok(tp.allclose(batch, [-2, 10], { atol: 1e-5 }));
});

test('linalg.solve broadcasts batch dims like torch: one A for many B, many A for one B, (2,1) against (4)', () => {
  for (const c of cases.solve_broadcast) {
    const X = tp.linalg.solve(tp.tensor(Float32Array.from(c.A), { shape: c.a_shape }),
                              tp.tensor(Float32Array.from(c.B), { shape: c.b_shape }));
    assert.deepEqual(X.shape, c.x_shape, c.name);
    const scale = Math.max(...c.X.map(Math.abs));
    X.data().forEach((x, i) => assert.ok(Math.abs(x - c.X[i]) <= 1e-5 * scale, `${c.name}: [${i}] ${x} vs ${c.X[i]}`));
  }
  assert.throws(() => tp.linalg.solve(tp.zeros([2, 3, 3]), tp.zeros([3, 3, 1])),
    (e) => e instanceof TensorpadError && /linalg\.solve: batch dims \[2\] of A \(shape \[2, 3, 3\]\) and \[3\] of B/.test(e.message));
});

test('linalg.inv and solve of a singular matrix throw a TensorpadError saying so; det is 0', () => {
  const S = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
  assert.throws(() => tp.linalg.inv(S), (e) => e instanceof TensorpadError && /linalg\.inv: .*singular/.test(e.message));
  assert.throws(() => tp.linalg.solve(S, [1, 2, 3]), /linalg\.solve: .*singular/);
  assert.equal(tp.linalg.det(S).item(), 0);
  assert.throws(() => tp.linalg.inv([[1, 2, 3], [4, 5, 6]]), /linalg\.inv: expects square matrices, got shape \[2, 3\]/);
  assert.throws(() => tp.linalg.solve([[1, 0], [0, 1]], [1, 2, 3]), /linalg\.solve: A of shape \[2, 2\] and B of shape \[3\]/);
});

test('linalg.norm(A, ord) gives fro, nuc, 2, 1 and Infinity matrix norms like numpy; vectors pass through', () => {
  const ords = { fro: 'fro', nuc: 'nuc', 2: 2, '-2': -2, 1: 1, '-1': -1, inf: Infinity, '-inf': -Infinity };
  for (const c of cases.norm_rank) {
    const A = matrix(c);
    for (const [key, want] of Object.entries(c.norms)) {
      const got = tp.linalg.norm(A, ords[key]).item();
      const tol = 1e-5 * Math.abs(want) + 2e-5 * c.norms['2'] * (key === 'nuc' ? c.n : 1) + 1e-37;
      assert.ok(Math.abs(got - want) <= tol, `${c.name}: norm ${key} = ${got} vs ${want}`);
    }
  }
  assert.ok(Math.abs(tp.linalg.norm([3, 4]).item() - 5) < 1e-6);
  assert.ok(Math.abs(tp.linalg.norm([[3, 0], [0, 4]], 2).item() - 4) < 1e-6);
  assert.deepEqual(tp.linalg.matrixNorm(tp.ones([2, 3, 3]), 1, { keepdim: true }).shape, [2, 1, 1]);
  assert.throws(() => tp.linalg.norm([[1, 2], [3, 4]], 3), { message: /^linalg\.norm: ord must be 'fro', 'nuc', 2/ });
});

test('linalg.matrixRank(A) is a number with numpy\'s default tolerance, or {tol}', () => {
  for (const c of cases.norm_rank) if (c.rank_robust) assert.equal(tp.linalg.matrixRank(matrix(c)), c.rank, c.name);
  assert.equal(tp.linalg.matrixRank([[1, 0], [0, 1e-3]]), 2);
  assert.equal(tp.linalg.matrixRank([[1, 0], [0, 1e-3]], { tol: 1e-2 }), 1);
  assert.deepEqual(tp.linalg.matrixRank(tp.zeros([4, 3, 3])).shape, [4]);
  assert.throws(() => tp.linalg.matrixRank([[1]], { tol: -1 }), /tol must be a non-negative number/);
});

test('linalg.svdLowrank(A, q, {niter, seed}) finds the top directions, reproducibly for a seed', () => {
  const c = cases.svd.find((x) => x.name.startsWith('ill-conditioned 30x20'));
  const A = matrix(c);
  const { U, S, V } = tp.linalg.svdLowrank(A, 5, { niter: 2, seed: 3 });
  assert.deepEqual([U.shape, S.shape, V.shape], [[30, 5], [5], [20, 5]]);
  S.data().forEach((s, i) => assert.ok(Math.abs(s - c.S[i]) <= 1e-3 * c.S[0], `σ${i} = ${s} vs ${c.S[i]}`));
  assert.ok(orthogonalityError(U.data(), [30, 5]) <= 1e-4);
  assert.ok(orthogonalityError(V.data(), [20, 5]) <= 1e-4);
  const again = tp.linalg.svdLowrank(A, 5, { niter: 2, seed: 3 });
  assert.deepEqual(Array.from(again.U.data()), Array.from(U.data()));
  assert.throws(() => tp.linalg.svdLowrank(A, 21), /linalg\.svdLowrank: q must be in \[1, min\(m, n\)\] = \[1, 20\], got 21/);
  assert.throws(() => tp.linalg.svdLowrank(A, 3, { iters: 2 }), /unknown option "iters"/);
});

test('every decomposition refuses NaN or Inf before any work, and non-matrices by shape', () => {
  const bad = [[1, NaN], [2, 3]];
  for (const op of ['svd', 'svdvals', 'qr', 'eigh', 'eigvalsh', 'det', 'inv', 'matrixRank'])
    assert.throws(() => tp.linalg[op](bad), (e) => e instanceof TensorpadError && /NaN or Inf/.test(e.message), op);
  assert.throws(() => tp.linalg.svd([1, 2, 3]), /linalg\.svd: expects a matrix or a batch of matrices \(at least 2-d\), got shape \[3\]/);
  assert.throws(() => tp.linalg.eigh([[1, 2, 3], [4, 5, 6]]), /linalg\.eigh: expects square matrices/);
});

test('a rank-1 all-ones matrix keeps orthonormal factors (rounding noise far below the input range)', () => {
  const n = 120;
  const A = tp.ones([n, n]);
  const { U, S, Vh } = tp.linalg.svd(A);
  assert.ok(Math.abs(S.data()[0] - n) <= 2e-5 * n);
  assert.ok(S.data()[1] <= 2e-5 * n);
  assert.ok(orthogonalityError(U.data(), [n, n]) <= 1e-4);
  assert.ok(orthogonalityError(transpose(Vh.data(), [n, n]), [n, n]) <= 1e-4);
  const { eigenvalues, eigenvectors } = tp.linalg.eigh(A);
  assert.ok(Math.abs(eigenvalues.data()[n - 1] - n) <= 2e-5 * n);
  assert.ok(orthogonalityError(eigenvectors.data(), [n, n]) <= 1e-4);
  assert.equal(tp.linalg.matrixRank(A), 1);
  tp.dispose([A, U, S, Vh, eigenvalues, eigenvectors]);
});

test('linalg ops leave no tensor behind but their results', () => {
  const before = tp.memory().tensors;
  const r = tp.tidy(() => {
    const A = tp.randn([6, 4], { seed: 9 });
    tp.linalg.svd(A);
    tp.linalg.qr(A);
    tp.linalg.eigh(tp.matmul(A.T, A));
    tp.linalg.svdLowrank(A, 2, { seed: 1 });
    return tp.linalg.matrixRank(A);
  });
  assert.equal(r, 4);
  assert.equal(tp.memory().tensors, before);
});

// A 1-d tensor's values within 1e-5 relative of want.
function assertClose(t, want) {
  assert.deepEqual(t.shape, [want.length]);
  t.data().forEach((v, i) => assert.ok(Math.abs(v - want[i]) <= 1e-5 * Math.abs(want[i]), `[${i}] ${v} vs ${want[i]}`));
}

test("linalg.norm with a matrix ord ('fro' too) and no dim gives one norm per matrix of a batch, as matrixNorm", () => {
  tp.tidy(() => {
    // Matrix b is b+1 times [[3, 0], [0, 4]]: Frobenius 5(b+1), nuclear 7(b+1), spectral 4(b+1).
    const A = tp.tensor([[[3, 0], [0, 4]], [[6, 0], [0, 8]], [[9, 0], [0, 12]]]);
    assertClose(tp.linalg.norm(A, 'fro'), [5, 10, 15]);
    assertClose(tp.linalg.norm(A, 'nuc'), [7, 14, 21]);
    assertClose(tp.linalg.norm(A, 2), [4, 8, 12]);
    assert.deepEqual(tp.linalg.norm(A, 'fro', undefined, { keepdim: true }).shape, [3, 1, 1]);
    // No ord: the 2-norm of all elements, A flattened, as torch.linalg.norm and numpy.linalg.norm.
    const all = tp.linalg.norm(A);
    assert.deepEqual(all.shape, []);
    assert.ok(Math.abs(all.item() - Math.sqrt(25 + 100 + 225)) <= 1e-5 * all.item());
    assert.throws(() => tp.linalg.norm(A, 'fro', 0), { message: /^linalg\.norm: ord "fro" is a matrix norm: give it two dims/ });
  });
});

test('linalg.norm with two dims takes the matrix norm over those dims, as torch.linalg.norm; without ord, the 2-norm over them', () => {
  tp.tidy(() => {
    // B[:, j, :] is j+1 times [[3, 0], [0, 4]] laid out over dims 0 and 2: norms j+1 times 5 (fro), 7 (nuc), 4 (2).
    const B = tp.tensor([[[3, 6, 9], [0, 0, 0]], [[0, 0, 0], [4, 8, 12]]]).permute([0, 2, 1]);
    assert.deepEqual(B.shape, [2, 3, 2]);
    assertClose(tp.linalg.norm(B, 'fro', [0, 2]), [5, 10, 15]);
    assertClose(tp.linalg.norm(B, 'nuc', [0, 2]), [7, 14, 21]);
    assertClose(tp.linalg.norm(B, 2, [2, 0]), [4, 8, 12]);
    assertClose(tp.linalg.norm(B, undefined, [0, 2]), [5, 10, 15]);
    assert.deepEqual(tp.linalg.norm(B, 'nuc', [0, -1], { keepdim: true }).shape, [1, 3, 1]);
    assert.throws(() => tp.linalg.norm(B, 2, [1, -2]), { message: 'linalg.norm: dim -2 appears twice in [1, -2]' });
    assert.throws(() => tp.linalg.norm(B, 2, [0, 3]), { message: 'linalg.norm: dim 3 is out of range for a 3-d tensor (expected -3..2)' });
    assert.throws(() => tp.linalg.norm(B, undefined, [0, 1, 2]), { message: /^linalg\.norm: dim must be one dim or a pair of dims, got \[0, 1, 2\]/ });
    // Nested arrays are read under the op's name; a 0-d tensor takes dim 0 or -1 once.
    assert.throws(() => tp.linalg.norm([[1, 2], [3]], 2, [0, 1]), { message: /^linalg\.norm: ragged nested array/ });
    assert.equal(tp.linalg.norm([[3, 0], [0, 4]], 'nuc', [0, 1]).item(), 7);
    assert.throws(() => tp.tensor(3).norm(2, [0, -1]), { message: 'norm: dim -1 appears twice in [0, -1]' });
  });
});

test('linalg.norm keeps every dim as 1 with keepdim and no dim, as torch', () => {
  tp.tidy(() => {
    const k = { keepdim: true };
    assert.deepEqual(tp.linalg.norm(tp.tensor([[3, 4], [0, 0]]), undefined, undefined, k).toArray(), [[5]]);
    assert.deepEqual(tp.linalg.norm(tp.tensor([3, -4]), 1, undefined, k).toArray(), [7]);
    assert.deepEqual(tp.linalg.norm(tp.tensor([3, -4]), Infinity, null, k).shape, [1]);
    assert.deepEqual(tp.tensor([[3, 4], [0, 0]]).norm(undefined, undefined, k).shape, [1, 1]);
    assert.deepEqual(tp.linalg.norm(tp.tensor([[3, 4], [0, 0]]), 2, 1, k).toArray(), [[5], [0]]);
  });
});

test('linalg.matrixNorm and linalg.norm name themselves in their errors', () => {
  assert.throws(() => tp.linalg.matrixNorm(tp.tensor([1, 2])), { message: /^linalg\.matrixNorm: expects a matrix or a batch of matrices/ });
  assert.throws(() => tp.linalg.matrixNorm([[NaN]]), { message: /^linalg\.matrixNorm: / });
  assert.throws(() => tp.linalg.norm([[NaN]], 'nuc'), { message: /^linalg\.norm: / });
  assert.throws(() => tp.linalg.norm([1, 2], NaN), { message: /^linalg\.norm: ord must be/ });
});

test('float64 qr, eigh, eigvalsh and matrixRank return float64 computed in double, past the float32 blocked sizes', () => {
  tp.tidy(() => {
    // tridiag(-1, 2, -1) of size 120: eigenvalues 2 - 2 cos(k pi / 121), k = 1..120, ascending.
    const n = 120;
    const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 2 : Math.abs(i - j) === 1 ? -1 : 0)));
    const T = tp.tensor(rows, { dtype: 'float64' });
    const { eigenvalues, eigenvectors } = tp.linalg.eigh(T);
    const w = tp.linalg.eigvalsh(T);
    assert.deepEqual([eigenvalues.dtype, eigenvectors.dtype, w.dtype], ['float64', 'float64', 'float64']);
    const want = Array.from({ length: n }, (_, k) => 2 - 2 * Math.cos(((k + 1) * Math.PI) / (n + 1)));
    for (const got of [eigenvalues.toArray(), w.toArray()]) {
      const worst = Math.max(...got.map((x, k) => Math.abs(x - want[k])));
      assert.ok(worst < 1e-12, `eigenvalues off by ${worst}`);
    }
    const residual = tp.matmul(T, eigenvectors).sub(eigenvectors.mul(eigenvalues)).abs().max().item();
    assert.ok(residual < 1e-12, `T V - V diag(w): ${residual}`);
    // qr of a 130 x 100 float64 matrix: Q^T Q = I and Q R = A to 1e-12.
    const A = tp.tensor(Array.from({ length: 130 }, (_, i) => Array.from({ length: 100 }, (_, j) => Math.sin(7 * i + 3 * j + 1))), { dtype: 'float64' });
    const { Q, R } = tp.linalg.qr(A);
    assert.deepEqual([Q.dtype, R.dtype, Q.shape, R.shape], ['float64', 'float64', [130, 100], [100, 100]]);
    assert.ok(tp.matmul(Q.T, Q).sub(tp.eye(100).double()).abs().max().item() < 1e-12);
    assert.ok(tp.matmul(Q, R).sub(A).abs().max().item() < 1e-12);
    // float64's epsilon in the default tolerance: singular values 1 and 1e-10 are rank 2 (float32: rank 1).
    const D = [[1, 0, 0], [0, 1e-10, 0], [0, 0, 0]];
    assert.equal(tp.linalg.matrixRank(tp.tensor(D, { dtype: 'float64' })), 2);
    assert.equal(tp.linalg.matrixRank(tp.tensor(D)), 1);
    assert.throws(() => tp.linalg.eigh(T.half()), { name: 'TensorpadError', message: /^linalg\.eigh: expects float32 or float64 matrices, got float16/ });
  });
});

test('tp.memory().scratch counts the work memory eigh keeps between calls, and is 0 once it is released', async () => {
  // A fresh core of its own, so no other test's decomposition has left scratch behind; the release is the
  // core's (the API frees it only when a call needs more than 16 MB, which takes seconds to reach).
  const { createRequire } = await import('node:module');
  const { fileURLToPath } = await import('node:url');
  const { createApi } = await import('../../wasm/js/api.js');
  const { withCalls } = await import('../../wasm/js/calls.js');
  const dir = new URL('../../build/wasm/node/', import.meta.url);
  const factory = createRequire(import.meta.url)(fileURLToPath(new URL('tensorpad_core.js', dir)));
  const core = await factory({ wasmBinary: readFileSync(new URL('tensorpad_core.wasm', dir)), print() {}, printErr() {} });
  const tq = createApi(core, { finalizers: false });
  assert.equal(tq.memory().scratch, 0, 'a fresh core keeps no scratch');
  const n = 160; // blocked from 96: eigh's vectors go through the back-transformation's float scratch
  const G = tq.randn([n, n]);
  const A = G.add(G.T);
  const small = tq.linalg.eigh(tq.ones([8, 8])), q = tq.linalg.qr(tq.ones([12, 10]));
  assert.equal(tq.memory().scratch, 0, 'the unblocked routes keep none');
  const first = tq.linalg.eigh(A).eigenvectors.toArray();
  const kept = tq.memory();
  // Q's (n, n) floats and the blocks' V and Y (another n^2 or so): more than 4 n^2 bytes, at most 16 MB.
  assert.ok(kept.scratch >= 4 * n * n && kept.scratch <= 16 * 2 ** 20, `scratch ${kept.scratch} bytes after eigh ${n}`);
  assert.equal(tq.linalg.eigh(A).eigenvectors.toArray().join(), first.join(), 'a kept scratch gives the same bits');
  assert.equal(tq.memory().scratch, kept.scratch, 'the same call reuses it');
  withCalls(core).linalgReleaseScratch();
  assert.equal(tq.memory().scratch, 0, 'released');
  assert.equal(tq.linalg.eigh(A).eigenvectors.toArray().join(), first.join(), 'a fresh scratch gives the same bits');
  tq.dispose(small, q);
});
