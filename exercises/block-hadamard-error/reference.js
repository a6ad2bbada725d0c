// Reference solution of block-hadamard-error (trusted; runs in the judge's oracle worker, tp is a global).

function sylvester(b) {
  let H = [[1]];
  while (H.length < b) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return H;
}

// (d, d) block diagonal with d/b blocks H_b/√b: channels mix only within their group of b.
export function blockHadamard(d, b) {
  const H = sylvester(b);
  const s = 1 / Math.sqrt(b);
  const Q = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) =>
    (Math.floor(i / b) === Math.floor(j / b) ? H[i % b][j % b] * s : 0)));
  return tp.tensor(Q);
}

// X is (n, d), W is (m, d); XWᵀ = (XQ)(WQ)ᵀ, and both rotated operands are quantized to 4 bits per row.
export function w4a4Error(X, W, b) {
  const Q = blockHadamard(X.shape[1], b);
  const Xq = tp.quant.fakeQuant(X.matmul(Q), { bits: 4, perRow: true });
  const Wq = tp.quant.fakeQuant(W.matmul(Q), { bits: 4, perRow: true });
  return tp.quant.relError(Xq.matmul(Wq.T), X.matmul(W.T));
}
