// Wrong: leaves the ±1 blocks unnormalized, and rotates only the activations.
function sylvester(b) {
  let H = [[1]];
  while (H.length < b) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return tp.tensor(H);
}
export function blockHadamard(d, b) {
  return tp.linalg.blockDiag(Array(d / b).fill(sylvester(b)));
}
export function w4a4Error(X, W, b) {
  const Q = blockHadamard(X.shape[1], b).div(Math.sqrt(b));
  const Xq = tp.quant.fakeQuant(X.matmul(Q), { bits: 4, perRow: true });
  const Wq = tp.quant.fakeQuant(W, { bits: 4, perRow: true });
  return tp.quant.relError(Xq.matmul(Wq.T), X.matmul(W.T));
}
