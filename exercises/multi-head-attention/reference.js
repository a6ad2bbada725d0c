// Reference solution of multi-head-attention (trusted; runs in the judge's oracle worker, tp is a global).

// X is (n, d), Wq/Wk/Wv/Wo are (d, d), d = heads·Dh. Y = concat_h(O_h) Wo is (n, d).
export function multiHeadAttention(X, Wq, Wk, Wv, Wo, heads) {
  const Dh = X.shape[1] / heads;
  const [Q, K, V] = [Wq, Wk, Wv].map((W) => X.matmul(W));
  const outs = [];
  for (let h = 0; h < heads; h++) {
    const [Qh, Kh, Vh] = [Q, K, V].map((M) => M.narrow(1, h * Dh, Dh));   // head h's columns, (n, Dh)
    outs.push(tp.softmax(Qh.matmul(Kh.T).div(Math.sqrt(Dh)), -1).matmul(Vh));
  }
  return tp.cat(outs, 1).matmul(Wo);
}

// O is (Nh, n, Dh), Wo is (Nh·Dh, d): head h writes through rows h·Dh … (h+1)·Dh − 1 of Wo.
export function sumOverHeads(O, Wo) {
  const [Nh, n, Dh] = O.shape;
  let Y = tp.zeros([n, Wo.shape[1]]);
  for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h * Dh, Dh)));
  return Y;
}
