// Wrong: the heads are split and merged right, but their scores are never divided by √Dh; sumOverHeads
// takes head h's block of Wo from row h instead of row h·Dh.
export function multiHeadAttention(X, Wq, Wk, Wv, Wo, heads) {
  const Dh = X.shape[1] / heads;
  const [Q, K, V] = [Wq, Wk, Wv].map((W) => X.matmul(W));
  const outs = [];
  for (let h = 0; h < heads; h++) {
    const [Qh, Kh, Vh] = [Q, K, V].map((M) => M.narrow(1, h * Dh, Dh));
    outs.push(tp.softmax(Qh.matmul(Kh.T), -1).matmul(Vh));
  }
  return tp.cat(outs, 1).matmul(Wo);
}
export function sumOverHeads(O, Wo) {
  const [Nh, n, Dh] = O.shape;
  let Y = tp.zeros([n, Wo.shape[1]]);
  for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h, Dh)));
  return Y;
}
