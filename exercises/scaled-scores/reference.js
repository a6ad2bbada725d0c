// Reference solution of scaled-scores (trusted; runs in the judge's oracle worker, tp is a global).

// Q, K are (N, d): the N paired products q_i · k_i and their population variance.
export function dotVariance(Q, K) {
  const s = Q.mul(K).sum(-1);
  return s.sub(s.mean()).square().mean().item();
}

// Q is (n, d), K is (m, d): how peaked each query's attention over the m keys is, on average.
export function peakWeight(Q, K, scaled) {
  const c = scaled ? Math.sqrt(Q.shape[1]) : 1;
  return tp.softmax(Q.matmul(K.T).div(c), -1).amax(-1).mean().item();
}
