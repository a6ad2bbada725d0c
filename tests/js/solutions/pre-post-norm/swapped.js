// Wrong: the two placements swapped (pre-norm written as Norm(H + HW), post-norm as H + Norm(H)W).
const norm = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt());
export function preNormBlock(H, W, eps) { return norm(H.add(H.matmul(W)), eps); }
export function postNormBlock(H, W, eps) { return H.add(norm(H, eps).matmul(W)); }
