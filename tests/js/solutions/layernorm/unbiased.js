// Wrong: the unbiased variance (÷ (n − 1)) in both norms, as torch.var does by default.
function normalize(x, dim, eps) {
  const n = x.shape.at(dim);
  const c = x.sub(x.mean(dim, { keepdim: true }));
  return c.div(c.square().sum(dim, { keepdim: true }).div(n - 1).add(eps).sqrt());
}
export function layerNorm(x, gamma, beta, eps) { return normalize(x, -1, eps).mul(gamma).add(beta); }
export function batchNorm(x, eps) { return normalize(x, 0, eps); }
