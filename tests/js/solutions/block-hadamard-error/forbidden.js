// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function blockHadamard(d, b) {
  return tp.linalg.blockDiag(Array(d / b).fill(tp.linalg.hadamard(b)));
}
export function w4a4Error(X, W, b) {
  const Q = blockHadamard(X.shape[1], b);
  const Xq = tp.quant.fakeQuant(X.matmul(Q), { bits: 4, perRow: true });
  const Wq = tp.quant.fakeQuant(W.matmul(Q), { bits: 4, perRow: true });
  return tp.quant.relError(Xq.matmul(Wq.T), X.matmul(W.T));
}
