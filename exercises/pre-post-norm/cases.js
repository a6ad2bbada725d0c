// Hidden cases of pre-post-norm. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const n = rng.int(1, 5);
    const d = rng.int(2, 8);
    const scale = rng.pick([0.1, 3, 10, 30]);                // a stream far from unit RMS
    const H = rng.matrix(n, d, scale);
    const W = rng.matrix(d, d, 1 / Math.sqrt(d));
    const eps = rng.pick([1e-6, 1e-5, 1e-3]);
    cases.push({ fn: i % 2 === 0 ? 'preNormBlock' : 'postNormBlock', args: [tensorArg(H), tensorArg(W), eps],
      label: `n=${n}, d=${d}, RMS ≈ ${scale}` });
  }
  // a stream of small RMS, where ε is not negligible next to mean(x²): √(mean(x²) + ε) and rms + ε differ
  for (const fn of ['preNormBlock', 'postNormBlock']) {
    const n = rng.int(2, 4);
    const d = rng.int(3, 8);
    const H = rng.matrix(n, d, 0.01, 6);
    const W = rng.matrix(d, d, 1 / Math.sqrt(d));
    cases.push({ fn, args: [tensorArg(H), tensorArg(W), rng.pick([1e-5, 1e-4])], label: `n=${n}, d=${d}, RMS ≈ 0.01` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const N = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt());
const E = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).sqrt().add(eps));     // ε outside the root
// Norms that are not the RMSNorm asked for: over the tokens (dim 0), centred (LayerNorm), by the length.
const OVER_TOKENS = (x, eps) => x.div(x.square().mean(0, { keepdim: true }).add(eps).sqrt());
const CENTRED = (x, eps) => N(x.sub(x.mean(-1, { keepdim: true })), eps);
const BY_LENGTH = (x, eps) => x.div(x.square().sum(-1, { keepdim: true }).add(eps).sqrt());
const WRONG_NORMS = [
  [OVER_TOKENS, { en: 'the RMS is taken over the tokens (dim 0), one per feature; Norm scales each token\'s vector by its own RMS: mean over the last axis',
                  zh: '这里沿 token 方向（dim 0）求 RMS，每个特征一个；Norm 应按每个 token 向量自己的 RMS 缩放：沿最后一维求均值' }],
  [CENTRED, { en: 'this subtracts the mean (LayerNorm); the Norm here is RMSNorm, x / √(mean(x²) + ε), with no centring',
              zh: '这里减去了均值（LayerNorm）；这里的 Norm 是 RMSNorm：x / √(mean(x²) + ε)，不减均值' }],
  [BY_LENGTH, { en: 'this divides by √(Σ x² + ε), the length; RMSNorm averages the squares: √(mean(x²) + ε)',
                zh: '这里除以的是长度 √(Σ x² + ε)；RMSNorm 要对平方取平均：√(mean(x²) + ε)' }],
];
export const mistakes = {
  preNormBlock: [
    { hint: { en: 'this is post-norm, Norm(H + HW); pre-norm normalizes the sublayer\'s INPUT: H + Norm(H)W',
              zh: '这是 post-norm，Norm(H + HW)；pre-norm 归一化的是子层的输入：H + Norm(H)W' },
      fn: (H, W, eps) => N(H.add(H.matmul(W)), eps) },
    { hint: { en: 'the residual H is missing: the block adds the sublayer output to the stream, H + Norm(H)W',
              zh: '缺少残差 H：这个块要把子层输出加回残差流，H + Norm(H)W' },
      fn: (H, W, eps) => N(H, eps).matmul(W) },
    { hint: { en: 'the residual adds the raw stream H, not Norm(H): H + Norm(H)W',
              zh: '残差加的是原始的 H，不是 Norm(H)：H + Norm(H)W' },
      fn: (H, W, eps) => N(H, eps).add(N(H, eps).matmul(W)) },
    { hint: { en: 'this normalizes the sublayer\'s output, H + Norm(HW); normalize its input instead: H + Norm(H)W',
              zh: '这里归一化的是子层的输出，H + Norm(HW)；应改为归一化它的输入：H + Norm(H)W' },
      fn: (H, W, eps) => H.add(N(H.matmul(W), eps)) },
    { hint: { en: 'eps belongs inside the square root: Norm(x) = x / √(mean(x²) + ε), not x / (rms + ε)',
              zh: 'eps 应在根号里面：Norm(x) = x / √(mean(x²) + ε)，而不是 x / (rms + ε)' },
      fn: (H, W, eps) => H.add(E(H, eps).matmul(W)) },
    ...WRONG_NORMS.map(([norm, hint]) => ({ hint, fn: (H, W, eps) => H.add(norm(H, eps).matmul(W)) })),
  ],
  postNormBlock: [
    { hint: { en: 'this is pre-norm, H + Norm(H)W; post-norm normalizes AFTER the residual addition: Norm(H + HW)',
              zh: '这是 pre-norm，H + Norm(H)W；post-norm 是在残差相加之后再归一化：Norm(H + HW)' },
      fn: (H, W, eps) => H.add(N(H, eps).matmul(W)) },
    { hint: { en: 'the residual H is missing inside the norm: Norm(H + HW)',
              zh: '归一化里面缺少残差 H：Norm(H + HW)' },
      fn: (H, W, eps) => N(H.matmul(W), eps) },
    { hint: { en: 'this normalizes the sublayer\'s output only, H + Norm(HW); post-norm normalizes the sum: Norm(H + HW)',
              zh: '这里只归一化了子层的输出，H + Norm(HW)；post-norm 归一化的是两者之和：Norm(H + HW)' },
      fn: (H, W, eps) => H.add(N(H.matmul(W), eps)) },
    { hint: { en: 'eps belongs inside the square root: Norm(x) = x / √(mean(x²) + ε), not x / (rms + ε)',
              zh: 'eps 应在根号里面：Norm(x) = x / √(mean(x²) + ε)，而不是 x / (rms + ε)' },
      fn: (H, W, eps) => E(H.add(H.matmul(W)), eps) },
    ...WRONG_NORMS.map(([norm, hint]) => ({ hint, fn: (H, W, eps) => norm(H.add(H.matmul(W)), eps) })),
  ],
};
