// Wrong: forgets the square root in both functions.
export function rms(x) { return x.square().mean(-1); }
export function rmsNorm(x, weight, eps) { return x.div(x.square().mean(-1, { keepdim: true }).add(eps)).mul(weight); }
