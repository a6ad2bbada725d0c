// Wrong: every token attends to every token, including the future.
export function causalAttention(Q, K, V) {
  const d = Q.shape[1];
  return tp.softmax(Q.matmul(K.T).div(Math.sqrt(d)), -1).matmul(V);
}
