// Wrong: scales every head by the model width √d instead of √Dh, and averages the heads instead of adding them.
export function multiHeadAttention(X, Wq, Wk, Wv, Wo, heads) {
  const d = X.shape[1], Dh = d / heads;
  const Q = X.matmul(Wq), K = X.matmul(Wk), V = X.matmul(Wv);
  const outs = [];
  for (let h = 0; h < heads; h++) {
    const Qh = Q.narrow(1, h * Dh, Dh), Kh = K.narrow(1, h * Dh, Dh), Vh = V.narrow(1, h * Dh, Dh);
    outs.push(tp.softmax(Qh.matmul(Kh.T).div(Math.sqrt(d)), -1).matmul(Vh));
  }
  return tp.cat(outs, 1).matmul(Wo);
}
export function sumOverHeads(O, Wo) {
  const [Nh, n, Dh] = O.shape;
  let Y = tp.zeros([n, Wo.shape[1]]);
  for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h * Dh, Dh)));
  return Y.div(Nh);
}
