// Hidden cases of scaled-scores. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 4; i++) {
    const d = rng.pick([4, 16, 64]);
    const N = rng.int(20, 60);
    cases.push({ fn: 'dotVariance', args: [tensorArg(rng.matrix(N, d, 1, 3)), tensorArg(rng.matrix(N, d, 1, 3))], name: `N=${N}, d=${d}` });
  }
  for (let i = 0; i < 6; i++) {
    const d = rng.pick([8, 16, 64]);
    const n = rng.int(2, 6);
    const m = rng.int(4, 12);
    cases.push({ fn: 'peakWeight', args: [tensorArg(rng.matrix(n, d, 1, 3)), tensorArg(rng.matrix(m, d, 1, 3)), i % 2 === 0],
      name: `n=${n}, m=${m}, d=${d}, ${i % 2 === 0 ? 'scaled' : 'unscaled'}` });
  }
  return cases.map((c, i) => ({ ...c, name: `hidden ${i + 1} (${c.name})` }));
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const peak = (Q, K, c, dim = -1) => tp.softmax(Q.matmul(K.T).div(c), dim).amax(-1).mean().item();
export const mistakes = {
  dotVariance: [
    { hint: 'the mean is not subtracted: this is the mean of s², not the variance; subtract the mean of the s_i first',
      fn: (Q, K) => Q.mul(K).sum(-1).square().mean().item() },
    { hint: 'this divides by N − 1 (the sample variance); use the population variance, dividing by N',
      fn: (Q, K) => { const s = Q.mul(K).sum(-1); const N = s.shape[0]; return s.sub(s.mean()).square().sum().item() / (N - 1); } },
    { hint: 'this takes every entry of QKᵀ (all pairs); use the N paired products q_i · k_i only (row i with row i)',
      fn: (Q, K) => { const s = Q.matmul(K.T); return s.sub(s.mean()).square().mean().item(); } },
    { hint: 'this is the variance of the coordinates, not of the dot products: sum each row of Q ∘ K first',
      fn: (Q, K) => { const s = Q.mul(K); return s.sub(s.mean()).square().mean().item(); } },
  ],
  peakWeight: [
    { hint: 'scaled and unscaled are swapped: divide by √d only when scaled is true',
      fn: (Q, K, scaled) => peak(Q, K, scaled ? 1 : Math.sqrt(Q.shape[1])) },
    { hint: 'the scores are divided by d; the scale is √d', fn: (Q, K, scaled) => (scaled ? peak(Q, K, Q.shape[1]) : null) },
    { hint: 'the softmax runs over the wrong axis: normalise each row (over the keys, dim −1)',
      fn: (Q, K, scaled) => peak(Q, K, scaled ? Math.sqrt(Q.shape[1]) : 1, 0) },
    { hint: 'this is the largest weight overall; average each query row\'s largest weight',
      fn: (Q, K, scaled) => tp.softmax(Q.matmul(K.T).div(scaled ? Math.sqrt(Q.shape[1]) : 1), -1).amax().item() },
  ],
};
