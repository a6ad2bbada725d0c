// Wrong: the softmax normalises columns instead of rows.
export function causalAttention(Q, K, V) {
  const [n, d] = Q.shape;
  const mask = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mask[i * n + j] = -Infinity;
  return tp.softmax(Q.matmul(K.T).div(Math.sqrt(d)).add(tp.tensor(mask, { shape: [n, n] })), 0).matmul(V);
}
