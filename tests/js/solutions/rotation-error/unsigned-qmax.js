// Wrong: uses the unsigned range 2^bits − 1 for qmax.
export function fakeQuant(x, bits, perRow) {
  const qmax = 2 ** bits - 1;
  const amax = perRow ? x.abs().amax(1, { keepdim: true }) : x.abs().amax();
  const scale = amax.div(qmax).clamp(1e-30, Infinity);
  return x.div(scale).round().clamp(-qmax - 1, qmax).mul(scale);
}
export function rotatedW8A8Error(X, W, Q) {
  const Y = X.matmul(W.T);
  const Yq = fakeQuant(X.matmul(Q), 8, false).matmul(fakeQuant(W.matmul(Q), 8, true).T);
  return tp.linalg.norm(Yq.sub(Y)).item() / tp.linalg.norm(Y).item();
}
