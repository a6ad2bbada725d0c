// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function fakeQuant(x, bits, perRow) {
  return tp.quant.fakeQuant(x, { bits, perRow });
}
export function rotatedW8A8Error(X, W, Q) {
  const Y = X.matmul(W.T);
  const Xq = fakeQuant(X.matmul(Q), 8, false);
  const Wq = fakeQuant(W.matmul(Q), 8, true);
  return Xq.matmul(Wq.T).sub(Y).norm().item() / Y.norm().item();
}
