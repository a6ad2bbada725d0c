// Wrong: forgets to divide the scores by √d.
export function causalAttention(Q, K, V) {
  const n = Q.shape[0];
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -Infinity;
  return tp.softmax(Q.matmul(K.T).add(tp.tensor(mask, { shape: [n, n] })), -1).matmul(V);
}
