// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function layerNorm(x, gamma, beta, eps) {
  return tp.nn.layerNorm(x, { weight: gamma, bias: beta, eps });
}
export function batchNorm(x, eps) {
  const mu = x.mean(0, { keepdim: true });
  const centered = x.sub(mu);
  return centered.div(centered.square().mean(0, { keepdim: true }).add(eps).sqrt());
}
