// Wrong: forgets to subtract the mean (E[s²] instead of the variance), and divides the scores by d instead of √d.
export function dotVariance(Q, K) { return Q.mul(K).sum(-1).square().mean().item(); }
export function peakWeight(Q, K, scaled) {
  const c = scaled ? Q.shape[1] : 1;
  return tp.softmax(Q.matmul(K.T).div(c), -1).amax(-1).mean().item();
}
