// Wrong: Math.round sends ties up (2.5 → 3, −2.5 → −2) instead of to even.
export function fakeQuant(x, bits, perRow) {
  const qmax = 2 ** (bits - 1) - 1;
  const amax = perRow ? x.abs().amax(1, { keepdim: true }) : x.abs().amax();
  const scale = amax.div(qmax).clamp(1e-30, Infinity);
  const v = x.div(scale);
  const rounded = tp.tensor(Float32Array.from(v.data(), Math.round), { shape: v.shape });
  return rounded.clamp(-qmax - 1, qmax).mul(scale);
}
export function rotatedW8A8Error(X, W, Q) {
  const Y = X.matmul(W.T);
  const Yq = fakeQuant(X.matmul(Q), 8, false).matmul(fakeQuant(W.matmul(Q), 8, true).T);
  return tp.linalg.norm(Yq.sub(Y)).item() / tp.linalg.norm(Y).item();
}
