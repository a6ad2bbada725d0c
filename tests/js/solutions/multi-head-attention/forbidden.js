// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function multiHeadAttention(X, Wq, Wk, Wv, Wo, heads) {
  return tp.nn.multiHeadAttention(X, { Wq, Wk, Wv, Wo, heads });
}
export function sumOverHeads(O, Wo) {
  const [Nh, n, Dh] = O.shape;
  let Y = tp.zeros([n, Wo.shape[1]]);
  for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h * Dh, Dh)));
  return Y;
}
