// Wrong: eps outside the square root in LayerNorm, and BatchNorm over the channels of each token (axis −1).
export function layerNorm(x, gamma, beta, eps) {
  const c = x.sub(x.mean(-1, { keepdim: true }));
  return c.div(c.square().mean(-1, { keepdim: true }).sqrt().add(eps)).mul(gamma).add(beta);
}
export function batchNorm(x, eps) {
  const c = x.sub(x.mean(-1, { keepdim: true }));
  return c.div(c.square().mean(-1, { keepdim: true }).add(eps).sqrt());
}
