// Wrong: returns the concatenated heads without the output projection, and keeps only head 0 in the sum.
export function multiHeadAttention(X, Wq, Wk, Wv, Wo, heads) {
  const Dh = X.shape[1] / heads;
  const Q = X.matmul(Wq), K = X.matmul(Wk), V = X.matmul(Wv);
  const outs = [];
  for (let h = 0; h < heads; h++) {
    const Qh = Q.narrow(1, h * Dh, Dh), Kh = K.narrow(1, h * Dh, Dh), Vh = V.narrow(1, h * Dh, Dh);
    outs.push(tp.softmax(Qh.matmul(Kh.T).div(Math.sqrt(Dh)), -1).matmul(Vh));
  }
  return tp.cat(outs, 1);
}
export function sumOverHeads(O, Wo) {
  return O.select(0, 0).matmul(Wo.narrow(0, 0, O.shape[2]));
}
