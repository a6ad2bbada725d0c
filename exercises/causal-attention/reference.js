// Reference solution of causal-attention (trusted; runs in the judge's oracle worker, tp is a global).
// Q is (n, d), K is (n, d), V is (n, dv); the output is (n, dv).

export function causalAttention(Q, K, V) {
  const [n, d] = Q.shape;
  const scores = Q.matmul(K.T).div(Math.sqrt(d));   // (n, n): query i against key j
  // Token i may look at tokens j <= i only: -∞ above the diagonal becomes weight 0 after softmax.
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -Infinity;
  const weights = tp.softmax(scores.add(tp.tensor(mask, { shape: [n, n] })), -1);   // each row sums to 1
  return weights.matmul(V);
}
