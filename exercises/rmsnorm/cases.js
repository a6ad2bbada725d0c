// Hidden cases of rmsnorm. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Tokens with a mean of their own (so centring changes the answer) and different sizes.
const tokens = (rng, n, h) => rng.matrix(n, h, 1).map((r) => { const off = rng.uniform(-2, 2); const g = rng.uniform(0.2, 5); return r.map((v) => Math.round((v + off) * g * 1e4) / 1e4); });

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 10; i++) {
    const H = rng.int(2, 16);
    const n = rng.int(1, 5);
    const x = i % 4 === 3 ? Array.from({ length: 2 }, () => tokens(rng, n, H)) : tokens(rng, n, H);
    if (i % 2 === 0) {
      cases.push({ fn: 'rms', args: [tensorArg(x)] });
    } else {
      const w = Array.from({ length: H }, () => Math.round(rng.uniform(0.5, 2) * 1e3) / 1e3);
      cases.push({ fn: 'rmsNorm', args: [tensorArg(x), tensorArg(w), rng.pick([1e-6, 1e-3, 0.1, 0.5])] });
    }
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const ms = (x) => x.square().mean(-1, { keepdim: true });
export const mistakes = {
  rms: [
    { hint: { en: 'this is the mean square; take the square root',
              zh: '这是均方值；要开平方' },
      fn: (x) => x.square().mean(-1) },
    { hint: { en: 'this is the length √(Σ x²); the root MEAN square divides by H first: √(Σ x² / H)',
              zh: '这是长度 √(Σ x²)；均方根要先除以 H：√(Σ x² / H)' },
      fn: (x) => x.square().sum(-1).sqrt() },
    { hint: { en: 'this subtracts the mean (a standard deviation); RMS uses the raw values',
              zh: '这里减去了均值（成了标准差）；RMS 用的是原始值' },
      fn: (x) => x.sub(x.mean(-1, { keepdim: true })).square().mean(-1).sqrt() },
    { hint: { en: 'the reduced axis is kept (keepdim: true): rms gives one number per token, shape [...] without the trailing 1',
              zh: '被约简的轴保留下来了（keepdim: true）：rms 每个 token 给出一个数，形状是 [...]，末尾没有那个 1' },
      fn: (x) => x.square().mean(-1, { keepdim: true }).sqrt() },
    { hint: { en: 'wrong axis: the RMS of each token is over its last axis (H)',
              zh: '维度错了：每个 token 的 RMS 是沿它的最后一维（H）计算的' },
      fn: (x) => x.square().mean(0).sqrt() },
  ],
  rmsNorm: [
    { hint: { en: 'RMSNorm does not subtract the mean (that is LayerNorm): divide the raw x by its RMS',
              zh: 'RMSNorm 不减均值（减均值的是 LayerNorm）：直接用原始的 x 除以它的 RMS' },
      fn: (x, w, eps) => { const c = x.sub(x.mean(-1, { keepdim: true })); return c.div(ms(c).add(eps).sqrt()).mul(w); } },
    { hint: { en: 'the square root is missing: divide by √(mean(x²) + ε)',
              zh: '少了开平方：应除以 √(mean(x²) + ε)' },
      fn: (x, w, eps) => x.div(ms(x).add(eps)).mul(w) },
    { hint: { en: 'eps belongs inside the square root: √(mean(x²) + ε), not rms + ε',
              zh: 'eps 应在根号里面：√(mean(x²) + ε)，而不是 rms + ε' },
      fn: (x, w, eps) => x.div(ms(x).sqrt().add(eps)).mul(w) },
    { hint: { en: 'this divides by the length √(Σ x²); RMSNorm divides by the root MEAN square √(Σ x² / H + ε)',
              zh: '这里除以的是长度 √(Σ x²)；RMSNorm 除以的是均方根 √(Σ x² / H + ε)' },
      fn: (x, w, eps) => x.div(x.square().sum(-1, { keepdim: true }).add(eps).sqrt()).mul(w) },
    { hint: { en: 'the weight is missing: multiply by weight after normalizing',
              zh: '缺少 weight：归一化之后要乘以 weight' },
      fn: (x, w, eps) => x.div(ms(x).add(eps).sqrt()) },
  ],
};
