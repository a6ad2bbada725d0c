// Hidden cases of causal-attention. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const n = i === 0 ? 1 : rng.int(2, 9);        // a single token attends only to itself
    const d = rng.pick([2, 4, 8, 16]);
    const dv = rng.int(1, 6);
    // scores of order a few units, so the softmax is neither uniform nor one-hot
    const scale = rng.uniform(0.8, 1.6);
    cases.push({ fn: 'causalAttention', args: [
      tensorArg(rng.matrix(n, d, scale)), tensorArg(rng.matrix(n, d, scale)), tensorArg(rng.matrix(n, dv, 1)),
    ] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
// mask(n, keep): additive mask with -∞ where keep(i, j) is false
function mask(n, keep) {
  const m = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (!keep(i, j)) m[i * n + j] = -Infinity;
  return tp.tensor(m, { shape: [n, n] });
}
function attention(Q, K, V, { scale = Math.sqrt(Q.shape[1]), keep = (i, j) => j <= i, dim = -1 } = {}) {
  const n = Q.shape[0];
  return tp.softmax(Q.matmul(K.T).div(scale).add(mask(n, keep)), dim).matmul(V);
}

export const mistakes = {
  causalAttention: [
    { hint: { en: 'no causal mask: token i must not see tokens j > i (add −∞ above the diagonal before the softmax)',
              zh: '没有因果掩码：token i 不能看到 j > i 的 token（softmax 之前在对角线上方加 −∞）' },
      fn: (Q, K, V) => attention(Q, K, V, { keep: () => true }) },
    { hint: { en: 'the scores are not scaled: divide QKᵀ by √d',
              zh: '注意力分数没有缩放：QKᵀ 要除以 √d' },
      fn: (Q, K, V) => attention(Q, K, V, { scale: 1 }) },
    { hint: { en: 'the scores are divided by d; divide by √d',
              zh: '分数除以了 d；应除以 √d' },
      fn: (Q, K, V) => attention(Q, K, V, { scale: Q.shape[1] }) },
    { hint: { en: 'the mask also hides the diagonal: token i may attend to itself (j ≤ i)',
              zh: '掩码把对角线也遮住了：token i 可以关注它自己（j ≤ i）' },
      fn: (Q, K, V) => attention(Q, K, V, { keep: (i, j) => j < i }) },
    { hint: { en: 'the mask is transposed: token i sees tokens j ≤ i, so −∞ goes above the diagonal (j > i)',
              zh: '掩码转置了：token i 看到的是 j ≤ i 的 token，所以 −∞ 应放在对角线上方（j > i）' },
      fn: (Q, K, V) => attention(Q, K, V, { keep: (i, j) => j >= i }) },
    { hint: { en: 'the softmax runs over the wrong axis: normalise each row (over the keys, dim −1)',
              zh: 'softmax 的维度错了：应对每一行归一化（沿 key 的方向，dim −1）' },
      fn: (Q, K, V) => attention(Q, K, V, { dim: 0 }) },
    { hint: { en: 'the softmax is missing: the masked, scaled scores must become weights that sum to 1 per row',
              zh: '缺少 softmax：经过掩码和缩放的分数要变成每行和为 1 的权重' },
      fn: (Q, K, V) => { const n = Q.shape[0]; const s = Q.matmul(K.T).div(Math.sqrt(Q.shape[1])); const m = mask(n, (i, j) => j <= i); return s.mul(m.exp()).matmul(V); } },
  ],
};
