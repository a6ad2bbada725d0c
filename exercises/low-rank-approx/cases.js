// Hidden cases of low-rank-approx. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Matrices with known, well separated singular values (so the best rank-k approximation is unique).
function spectrum(rng, r) {
  const top = rng.uniform(3, 8);
  const ratio = rng.uniform(0.55, 0.8);
  return Array.from({ length: r }, (_, i) => top * ratio ** i);
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 10; i++) {
    const m = rng.int(3, 9);
    const n = i === 0 ? m : rng.int(3, 9);               // one square case, the rest mostly not
    const r = Math.min(m, n);
    const W = rng.withSpectrum(m, n, spectrum(rng, r));
    // k mostly strictly inside 1..r-1; one case keeps everything (error 0, W itself)
    const k = i === 9 ? r : rng.int(1, r - 1);
    cases.push({ fn: i % 2 === 0 ? 'lowRankApprox' : 'truncationError', args: [tensorArg(W), k] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function keep(W, idx) {
  const { U, S, Vh } = tp.linalg.svd(W);
  const s = S.toArray();
  let out = tp.zeros([W.shape[0], W.shape[1]]);
  for (const i of idx) {
    if (i < 0 || i >= s.length) continue;
    out = out.add(U.narrow(1, i, 1).mul(s[i]).matmul(Vh.narrow(0, i, 1)));
  }
  return out;
}
const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
const sv = (W) => tp.linalg.svdvals(W).toArray();
const tailSum = (s, from, f) => s.slice(from).reduce((a, x) => a + f(x), 0);

export const mistakes = {
  lowRankApprox: [
    { hint: 'this keeps k+1 singular values (off by one): indices 0..k-1 are the k largest',
      fn: (W, k) => keep(W, range(0, k + 1)) },
    { hint: 'this keeps k-1 singular values (off by one): keep indices 0..k-1',
      fn: (W, k) => keep(W, range(0, k - 1)) },
    { hint: 'this keeps the k smallest singular values; S is sorted in descending order, keep the first k',
      fn: (W, k) => { const r = sv(W).length; return keep(W, range(r - k, r)); } },
    { hint: 'the singular values are missing: scale the columns of U[:, :k] by S[:k] before multiplying by Vh[:k, :]',
      fn: (W, k) => { const { U, Vh } = tp.linalg.svd(W); return U.narrow(1, 0, k).matmul(Vh.narrow(0, 0, k)); } },
    { hint: 'this uses the columns of Vh instead of its rows: Vh already holds Vᵀ, take Vh[:k, :]',
      fn: (W, k) => { const { U, S, Vh } = tp.linalg.svd(W); return U.narrow(1, 0, k).mul(S.narrow(0, 0, k)).matmul(Vh.T.narrow(0, 0, k)); } },
  ],
  truncationError: [
    { hint: 'this is the squared error Σ_{i>k} σ_i²: take the square root',
      fn: (W, k) => tailSum(sv(W), k, (x) => x * x) },
    { hint: 'this is σ_{k+1} alone (the spectral-norm error); the Frobenius error takes the whole tail √(σ_{k+1}² + …)',
      fn: (W, k) => sv(W)[k] ?? 0 },
    { hint: 'this adds the σ_i without squaring them: √(Σ_{i>k} σ_i²), not Σ σ_i',
      fn: (W, k) => tailSum(sv(W), k, (x) => x) },
    { hint: 'off by one: the tail starts at σ_{k+1} (index k), after the k values that are kept',
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k - 1, (x) => x * x)) },
    { hint: 'off by one: the tail starts at σ_{k+1} (index k), after the k values that are kept',
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k + 1, (x) => x * x)) },
    { hint: 'this is the relative error ‖W − W_k‖_F / ‖W‖_F; return the error itself',
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k, (x) => x * x) / tailSum(sv(W), 0, (x) => x * x)) },
  ],
};

// lowRankApprox is judged by what makes W_k the answer (Eckart–Young), so any correct way to
// compute it passes: rank at most k, and an error ‖W − answer‖_F no larger than the optimal tail.
export const checks = {
  lowRankApprox({ args: [W, k], got, want }) {
    const A = tp.isTensor(got) ? got : tp.tensor(got);
    const s = tp.linalg.svdvals(A).toArray();
    const rankTol = 1e-3 * Math.max(s[0], 1e-6) + 1e-4;
    const rank = s.filter((x) => x > rankTol).length;
    if (rank > k) {
      return `your answer has rank ${rank} but a rank-${k} approximation was asked for ` +
        `(its singular value σ_${k + 1} = ${s[k].toPrecision(4)} should be 0)`;
    }
    const err = tp.linalg.norm(W.sub(A)).item();
    const best = tp.linalg.norm(W.sub(want)).item();
    if (err > best * 1.001 + 1e-3) {
      return `‖W − answer‖_F = ${err.toPrecision(5)}, but the best rank-${k} approximation has error ` +
        `${best.toPrecision(5)} (Eckart–Young: √(σ_${k + 1}² + …)); keep the k largest singular values`;
    }
    return null;
  },
};
