// Wrong: rms keeps the reduced axis ([..., 1] instead of [...]); rmsNorm is right.
export function rms(x) { return x.square().mean(-1, { keepdim: true }).sqrt(); }
export function rmsNorm(x, weight, eps) {
  return x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt()).mul(weight);
}
