// Wrong: the blocks are put together right, but Norm subtracts the mean (LayerNorm) instead of RMSNorm.
const norm = (x, eps) => {
  const c = x.sub(x.mean(-1, { keepdim: true }));
  return c.div(c.square().mean(-1, { keepdim: true }).add(eps).sqrt());
};
export function preNormBlock(H, W, eps) { return H.add(norm(H, eps).matmul(W)); }
export function postNormBlock(H, W, eps) { return norm(H.add(H.matmul(W)), eps); }
