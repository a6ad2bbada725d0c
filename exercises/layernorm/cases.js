// Hidden cases of layernorm. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// Rows with a common offset and a spread of their own, so centring and eps both matter.
const rows = (rng, n, h) => rng.matrix(n, h, rng.uniform(0.3, 3)).map((r) => { const off = rng.uniform(-5, 5); return r.map((v) => Math.round((v + off) * 1e4) / 1e4); });
const vec = (rng, h, lo, hi) => Array.from({ length: h }, () => Math.round(rng.uniform(lo, hi) * 1e3) / 1e3);

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 6; i++) {
    const H = rng.int(3, 8);
    let N = rng.int(2, 6);
    if (N === H) N++;
    const x = i === 2 ? Array.from({ length: 2 }, () => rows(rng, N, H)) : rows(rng, N, H);   // one [B, S, H] case
    const eps = rng.pick([1e-5, 1e-3, 0.1, 0.5]);
    cases.push({ fn: 'layerNorm', args: [tensorArg(x), tensorArg(vec(rng, H, 0.5, 2)), tensorArg(vec(rng, H, -1, 1)), eps],
      label: `${i === 2 ? `[2, ${N}, ${H}]` : `[${N}, ${H}]`}, eps=${eps}` });
  }
  for (let i = 0; i < 4; i++) {
    const H = rng.int(2, 6);
    let N = rng.int(3, 8);
    if (N === H) N++;
    const eps = rng.pick([1e-5, 0.1, 0.5]);
    cases.push({ fn: 'batchNorm', args: [tensorArg(rows(rng, N, H)), eps], label: `[${N}, ${H}], eps=${eps}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function norm(x, dim, eps, { unbiased = false, epsOutside = false, center = true } = {}) {
  const n = x.shape[(dim + x.shape.length) % x.shape.length];
  const mu = x.mean(dim, { keepdim: true });
  const c = center ? x.sub(mu) : x;
  let v = x.sub(mu).square().sum(dim, { keepdim: true }).div(unbiased ? n - 1 : n);
  return epsOutside ? c.div(v.sqrt().add(eps)) : c.div(v.add(eps).sqrt());
}
export const mistakes = {
  layerNorm: [
    { hint: { en: 'this is the unbiased variance (÷ (H − 1)); LayerNorm divides by H',
              zh: '这是无偏方差（÷ (H − 1)）；LayerNorm 除以的是 H' },
      fn: (x, g, b, eps) => norm(x, -1, eps, { unbiased: true }).mul(g).add(b) },
    { hint: { en: 'eps belongs inside the square root: √(σ² + ε), not √σ² + ε',
              zh: 'eps 应在根号里面：√(σ² + ε)，而不是 √σ² + ε' },
      fn: (x, g, b, eps) => norm(x, -1, eps, { epsOutside: true }).mul(g).add(b) },
    { hint: { en: 'this normalizes over the tokens (axis 0), like BatchNorm; LayerNorm uses each token\'s own H values (axis −1)',
              zh: '这里沿 token 方向（轴 0）归一化，像 BatchNorm；LayerNorm 用的是每个 token 自己的 H 个值（轴 −1）' },
      fn: (x, g, b, eps) => (x.shape.length === 2 ? norm(x, 0, eps).mul(g).add(b) : null) },
    { hint: { en: 'gamma and beta are missing: scale by gamma and shift by beta after normalizing',
              zh: '缺少 gamma 和 beta：归一化之后要乘以 gamma、再加上 beta' },
      fn: (x, g, b, eps) => norm(x, -1, eps) },
    { hint: { en: 'the mean is not subtracted: LayerNorm centres each token before dividing by its standard deviation',
              zh: '没有减去均值：LayerNorm 先把每个 token 中心化，再除以它的标准差' },
      fn: (x, g, b, eps) => norm(x, -1, eps, { center: false }).mul(g).add(b) },
  ],
  batchNorm: [
    { hint: { en: 'this normalizes each token over its channels (LayerNorm); BatchNorm normalizes each channel over the N tokens (axis 0)',
              zh: '这里对每个 token 在其通道上归一化（这是 LayerNorm）；BatchNorm 是对每个通道在 N 个 token 上归一化（轴 0）' },
      fn: (x, eps) => norm(x, -1, eps) },
    { hint: { en: 'this is the unbiased variance (÷ (N − 1)); use the biased one (÷ N)',
              zh: '这是无偏方差（÷ (N − 1)）；应使用有偏方差（÷ N）' },
      fn: (x, eps) => norm(x, 0, eps, { unbiased: true }) },
    { hint: { en: 'eps belongs inside the square root: √(σ² + ε), not √σ² + ε',
              zh: 'eps 应在根号里面：√(σ² + ε)，而不是 √σ² + ε' },
      fn: (x, eps) => norm(x, 0, eps, { epsOutside: true }) },
  ],
};
