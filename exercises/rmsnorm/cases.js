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
    { hint: 'this is the mean square; take the square root', fn: (x) => x.square().mean(-1) },
    { hint: 'this is the length √(Σ x²); the root MEAN square divides by H first: √(Σ x² / H)',
      fn: (x) => x.square().sum(-1).sqrt() },
    { hint: 'this subtracts the mean (a standard deviation); RMS uses the raw values',
      fn: (x) => x.sub(x.mean(-1, { keepdim: true })).square().mean(-1).sqrt() },
    { hint: 'wrong axis: the RMS of each token is over its last axis (H)', fn: (x) => x.square().mean(0).sqrt() },
  ],
  rmsNorm: [
    { hint: 'RMSNorm does not subtract the mean (that is LayerNorm): divide the raw x by its RMS',
      fn: (x, w, eps) => { const c = x.sub(x.mean(-1, { keepdim: true })); return c.div(ms(c).add(eps).sqrt()).mul(w); } },
    { hint: 'the square root is missing: divide by √(mean(x²) + ε)',
      fn: (x, w, eps) => x.div(ms(x).add(eps)).mul(w) },
    { hint: 'eps belongs inside the square root: √(mean(x²) + ε), not rms + ε',
      fn: (x, w, eps) => x.div(ms(x).sqrt().add(eps)).mul(w) },
    { hint: 'this divides by the length √(Σ x²); RMSNorm divides by the root MEAN square √(Σ x² / H + ε)',
      fn: (x, w, eps) => x.div(x.square().sum(-1, { keepdim: true }).add(eps).sqrt()).mul(w) },
    { hint: 'the weight is missing: multiply by weight after normalizing', fn: (x, w, eps) => x.div(ms(x).add(eps).sqrt()) },
  ],
};
