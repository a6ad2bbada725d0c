// Reference solution of causal-attention (trusted; runs in the judge's oracle worker, tp is a global).
// Q is (n, d), K is (n, d), V is (n, dv); the output is (n, dv).

export function causalAttention(Q, K, V) {
  const [n, d] = Q.shape;
  const scores = Q.matmul(K.T).div(Math.sqrt(d));   // (n, n): query i against key j
  // Token i may look at tokens j <= i only: -∞ above the diagonal becomes weight 0 after softmax.
  const mask = tp.full([n, n], -Infinity).triu(1);
  const weights = tp.softmax(scores.add(mask), -1);   // each row sums to 1
  return weights.matmul(V);
}
