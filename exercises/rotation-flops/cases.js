// Hidden cases of rotation-flops. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng }) {
  const cases = [];
  for (let i = 0; i < 6; i++) {
    const d = rng.pick([512, 768, 896, 1024, 2048, 4096]);
    const b = i === 0 ? d : rng.pick([32, 64, 128, 256].filter((x) => d % x === 0 && x < d));
    cases.push({ fn: 'onlineRotationFlops', args: [rng.pick([1, 7, 128, 512, rng.int(2, 4000)]), d, b] });
  }
  for (let i = 0; i < 5; i++) {
    const d = rng.pick([768, 1024, 2048, 4096]);
    const heads = rng.pick([8, 16, 32]);
    const kv = rng.pick([1, 2, 4, 8]);
    const dh = rng.pick([64, 128]);
    // q, k, v of a grouped-query layer, or an FFN's gate and up projections
    const outs = i % 2 === 0 ? [heads * dh, kv * dh, kv * dh] : [rng.pick([3, 4]) * d, rng.pick([3, 4]) * d].map((x) => x + 64 * rng.int(0, 8));
    cases.push({ fn: 'rotationOverhead', args: [d, outs] });
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  onlineRotationFlops: [
    { hint: { en: 'the factor 2 is missing: each multiply comes with an add (a [1, b]×[b, b] product is 2b² flops)',
              zh: '少了系数 2：每次乘法都伴随一次加法（[1, b]×[b, b] 的乘积是 2b² 次浮点运算）' },
      fn: (tokens, d, b) => tokens * d * b },
    { hint: { en: 'this counts a full d×d rotation; a block-diagonal matrix only multiplies inside its d/b blocks: 2·d·b per token',
              zh: '这里按完整的 d×d 旋转计算了；块对角矩阵只在它的 d/b 个块内做乘法：每个 token 2·d·b' },
      fn: (tokens, d, b) => (b < d ? 2 * tokens * d * d : null) },
    { hint: { en: 'this is the cost of ONE block; there are d/b blocks per token',
              zh: '这只是一个块的开销；每个 token 有 d/b 个块' },
      fn: (tokens, d, b) => (b < d ? 2 * tokens * b * b : null) },
    { hint: { en: 'the number of tokens is missing: every token is rotated',
              zh: '漏了 token 数：每个 token 都要旋转' },
      fn: (tokens, d, b) => (tokens > 1 ? 2 * d * b : null) },
  ],
  rotationOverhead: [
    { hint: { en: 'this is inverted: divide the rotation (2d²) by the projections (Σ 2·d·outs[i])',
              zh: '比例颠倒了：应该用旋转的开销（2d²）除以投影的开销（Σ 2·d·outs[i]）' },
      fn: (d, outs) => outs.reduce((s, o) => s + 2 * d * o, 0) / (2 * d * d) },
    { hint: { en: 'this is the whole cost relative to the projections, 1 + the overhead; the overhead is the extra alone: 2d² / Σ 2·d·outs[i]',
              zh: '这是总开销与投影开销之比，即 1 + 额外开销；额外开销只算多出来的部分：2d² / Σ 2·d·outs[i]' },
      fn: (d, outs) => { const p = outs.reduce((s, o) => s + 2 * d * o, 0); return (2 * d * d + p) / p; } },
    { hint: { en: 'this compares with the first projection only; the rotation is shared by all projections that read the input: sum them',
              zh: '这里只和第一个投影比较了；旋转由所有读取该输入的投影共享：要把它们加起来' },
      fn: (d, outs) => d / outs[0] },
    { hint: { en: 'this is a percentage; return the fraction (0.25, not 25)',
              zh: '这是百分数；要返回比例（0.25，不是 25）' },
      fn: (d, outs) => (100 * d) / outs.reduce((s, o) => s + o, 0) },
    { hint: { en: 'the rotation costs 2d² and each projection 2·d·out; this counts the rotation without its factor 2 (or the projections twice)',
              zh: '旋转的开销是 2d²，每个投影是 2·d·out；这里旋转少算了系数 2（或把投影算了两遍）' },
      fn: (d, outs) => d / (2 * outs.reduce((s, o) => s + o, 0)) },
  ],
};
