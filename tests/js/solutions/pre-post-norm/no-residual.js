// Wrong: forgets the residual stream H in both blocks.
const norm = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt());
export function preNormBlock(H, W, eps) { return norm(H, eps).matmul(W); }
export function postNormBlock(H, W, eps) { return norm(H.matmul(W), eps); }
