// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function rms(x) {
  return x.square().mean(-1).sqrt();
}
export function rmsNorm(x, weight, eps) {
  return tp.nn.rmsNorm(x, { weight, eps });
}
