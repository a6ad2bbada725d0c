// Hidden cases of scaled-scores. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 4; i++) {
    const d = rng.pick([4, 16, 64]);
    const N = rng.int(20, 60);
    cases.push({ fn: 'dotVariance', args: [tensorArg(rng.matrix(N, d, 1, 3)), tensorArg(rng.matrix(N, d, 1, 3))], label: `N=${N}, d=${d}` });
  }
  for (let i = 0; i < 6; i++) {
    const d = rng.pick([8, 16, 64]);
    const n = rng.int(2, 6);
    const m = rng.int(4, 12);
    cases.push({ fn: 'peakWeight', args: [tensorArg(rng.matrix(n, d, 1, 3)), tensorArg(rng.matrix(m, d, 1, 3)), i % 2 === 0],
      label: i % 2 === 0 ? { en: `n=${n}, m=${m}, d=${d}, scaled`, zh: `n=${n}, m=${m}, d=${d}，缩放` }
        : { en: `n=${n}, m=${m}, d=${d}, unscaled`, zh: `n=${n}, m=${m}, d=${d}，不缩放` } });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const peak = (Q, K, c, dim = -1) => tp.softmax(Q.matmul(K.T).div(c), dim).amax(-1).mean().item();
export const mistakes = {
  dotVariance: [
    { hint: { en: 'the mean is not subtracted: this is the mean of s², not the variance; subtract the mean of the s_i first',
              zh: '没有减去均值：这是 s² 的均值，不是方差；先减去各 s_i 的均值' },
      fn: (Q, K) => Q.mul(K).sum(-1).square().mean().item() },
    { hint: { en: 'this divides by N − 1 (the sample variance); use the population variance, dividing by N',
              zh: '这里除以了 N − 1（样本方差）；应使用总体方差，除以 N' },
      fn: (Q, K) => { const s = Q.mul(K).sum(-1); const N = s.shape[0]; return s.sub(s.mean()).square().sum().item() / (N - 1); } },
    { hint: { en: 'this takes every entry of QKᵀ (all pairs); use the N paired products q_i · k_i only (row i with row i)',
              zh: '这里取了 QKᵀ 的所有元素（所有配对）；只应使用 N 个配对乘积 q_i · k_i（第 i 行对第 i 行）' },
      fn: (Q, K) => { const s = Q.matmul(K.T); return s.sub(s.mean()).square().mean().item(); } },
    { hint: { en: 'this is the variance of the coordinates, not of the dot products: sum each row of Q ∘ K first',
              zh: '这是各坐标的方差，不是点积的方差：先对 Q ∘ K 的每一行求和' },
      fn: (Q, K) => { const s = Q.mul(K); return s.sub(s.mean()).square().mean().item(); } },
  ],
  peakWeight: [
    { hint: { en: 'scaled and unscaled are swapped: divide by √d only when scaled is true',
              zh: '缩放与不缩放弄反了：只有 scaled 为 true 时才除以 √d' },
      fn: (Q, K, scaled) => peak(Q, K, scaled ? 1 : Math.sqrt(Q.shape[1])) },
    { hint: { en: 'the scores are divided by d; the scale is √d',
              zh: '分数除以了 d；缩放因子是 √d' },
      fn: (Q, K, scaled) => (scaled ? peak(Q, K, Q.shape[1]) : null) },
    { hint: { en: 'the softmax runs over the wrong axis: normalise each row (over the keys, dim −1)',
              zh: 'softmax 的维度错了：应对每一行归一化（沿 key 的方向，dim −1）' },
      fn: (Q, K, scaled) => peak(Q, K, scaled ? Math.sqrt(Q.shape[1]) : 1, 0) },
    { hint: { en: 'this divides by √m, m the number of keys (K.shape[0]); the scale is √d, d the length of each vector (the last axis)',
              zh: '这里除以的是 √m，m 是 key 的个数（K.shape[0]）；缩放因子是 √d，d 是每个向量的长度（最后一维）' },
      fn: (Q, K, scaled) => (scaled && K.shape[0] !== Q.shape[1] ? peak(Q, K, Math.sqrt(K.shape[0])) : null) },
    { hint: { en: 'this takes each key\'s largest weight (amax over the queries, dim 0); average each query row\'s largest weight: amax(-1)',
              zh: '这里取的是每个 key 的最大权重（沿查询方向 dim 0 取 amax）；应对每个查询行的最大权重求平均：amax(-1)' },
      fn: (Q, K, scaled) => tp.softmax(Q.matmul(K.T).div(scaled ? Math.sqrt(Q.shape[1]) : 1), -1).amax(0).mean().item() },
    { hint: { en: 'the weights are divided after the softmax; scale the scores before it: softmax(QKᵀ / √d)',
              zh: '这里在 softmax 之后才除；应在 softmax 之前缩放分数：softmax(QKᵀ / √d)' },
      fn: (Q, K, scaled) => (scaled ? tp.softmax(Q.matmul(K.T), -1).div(Math.sqrt(Q.shape[1])).amax(-1).mean().item() : null) },
    { hint: { en: 'this is the largest weight overall; average each query row\'s largest weight',
              zh: '这是全局最大的权重；应对每个 query 行的最大权重取平均' },
      fn: (Q, K, scaled) => tp.softmax(Q.matmul(K.T).div(scaled ? Math.sqrt(Q.shape[1]) : 1), -1).amax().item() },
  ],
};
