// Reference solution of rmsnorm (trusted; runs in the judge's oracle worker, tp is a global).
// x is (..., H); no centring, no bias.

export function rms(x) {
  return x.square().mean(-1).sqrt();
}

export function rmsNorm(x, weight, eps) {
  return x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt()).mul(weight);
}
