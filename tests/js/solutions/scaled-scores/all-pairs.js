// Wrong: the variance over every entry of QKᵀ, and the softmax over the queries (dim 0) instead of the keys.
export function dotVariance(Q, K) {
  const s = Q.matmul(K.T);
  return s.sub(s.mean()).square().mean().item();
}
export function peakWeight(Q, K, scaled) {
  const c = scaled ? Math.sqrt(Q.shape[1]) : 1;
  return tp.softmax(Q.matmul(K.T).div(c), 0).amax(-1).mean().item();
}
