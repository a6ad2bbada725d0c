// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function loraMerge(W, A, B, alpha) {
  return tp.lora.merge(W, A, B, { alpha });
}
export function loraForward(x, W, A, B, alpha) {
  return x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha / A.shape[0]));
}
