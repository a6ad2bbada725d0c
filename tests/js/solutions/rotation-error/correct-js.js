// Right, mostly in plain JS (float64 arithmetic on the tensor's values, ties to even by hand), and the
// rotation applied as (Qᵀ Xᵀ)ᵀ: a different rounding path from the reference that must still pass.
function roundHalfEven(v) {
  const f = Math.floor(v);
  const d = v - f;
  if (d !== 0.5) return d < 0.5 ? f : f + 1;
  return f % 2 === 0 ? f : f + 1;
}

export function fakeQuant(x, bits, perRow) {
  const qmax = 2 ** (bits - 1) - 1;
  const rows = x.toArray();
  const all = Math.max(...rows.flat().map(Math.abs));
  return tp.tensor(rows.map((row) => {
    const amax = perRow ? Math.max(...row.map(Math.abs)) : all;
    if (amax === 0) return row.map(() => 0);
    const scale = amax / qmax;
    return row.map((v) => Math.min(qmax, Math.max(-qmax - 1, roundHalfEven(v / scale))) * scale);
  }));
}

export function rotatedW8A8Error(X, W, Q) {
  const XQ = Q.T.matmul(X.T).T;
  const WQ = Q.T.matmul(W.T).T;
  const Yq = fakeQuant(XQ, 8, false).matmul(fakeQuant(WQ, 8, true).T);
  const Y = X.matmul(W.T);
  return tp.linalg.norm(Yq.sub(Y)).item() / tp.linalg.norm(Y).item();
}
