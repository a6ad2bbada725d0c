// Wrong: reads b as the number of blocks (b blocks of size d/b), and quantizes with one scale per tensor.
function sylvester(n) {
  let H = [[1]];
  while (H.length < n) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return tp.tensor(H).div(Math.sqrt(n));
}
export function blockHadamard(d, b) {
  const size = d / b;
  return tp.linalg.blockDiag(Array(b).fill(sylvester(size)));
}
export function w4a4Error(X, W, b) {
  const Q = blockHadamard(X.shape[1], b);
  const Xq = tp.quant.fakeQuant(X.matmul(Q), { bits: 4 });
  const Wq = tp.quant.fakeQuant(W.matmul(Q), { bits: 4 });
  return tp.quant.relError(Xq.matmul(Wq.T), X.matmul(W.T));
}
