// Right fakeQuant (rounding in plain JS, ties to even); part 2 forgets to rotate.
function roundHalfEven(v) {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}
export function fakeQuant(x, bits, perRow) {
  const qmax = 2 ** (bits - 1) - 1;
  const rows = x.toArray();
  const all = Math.max(...rows.flat().map(Math.abs));
  return tp.tensor(rows.map((row) => {
    const amax = perRow ? Math.max(...row.map(Math.abs)) : all;
    const scale = Math.fround(Math.fround(amax) / qmax);
    if (scale === 0) return row.map(() => 0);
    return row.map((v) => Math.min(qmax, Math.max(-qmax - 1, roundHalfEven(Math.fround(v / scale)))) * scale);
  }));
}
export function rotatedW8A8Error(X, W, Q) {
  const Y = X.matmul(W.T);
  const Yq = fakeQuant(X, 8, false).matmul(fakeQuant(W, 8, true).T);
  return tp.linalg.norm(Yq.sub(Y)).item() / tp.linalg.norm(Y).item();
}
