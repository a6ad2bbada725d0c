// Wrong: subtracts the mean first (as LayerNorm does), and uses the length √Σx² instead of the RMS.
export function rms(x) { return x.square().sum(-1).sqrt(); }
export function rmsNorm(x, weight, eps) {
  const c = x.sub(x.mean(-1, { keepdim: true }));
  return c.div(c.square().mean(-1, { keepdim: true }).add(eps).sqrt()).mul(weight);
}
