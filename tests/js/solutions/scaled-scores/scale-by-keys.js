// Wrong: dotVariance is right; peakWeight scales by √(number of keys) instead of √d.
export function dotVariance(Q, K) {
  const s = Q.mul(K).sum(-1);
  return s.sub(s.mean()).square().mean().item();
}
export function peakWeight(Q, K, scaled) {
  const c = scaled ? Math.sqrt(K.shape[0]) : 1;
  return tp.softmax(Q.matmul(K.T).div(c), -1).amax(-1).mean().item();
}
