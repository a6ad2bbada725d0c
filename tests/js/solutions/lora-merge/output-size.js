// Wrong: loraMerge's scale divides by B.shape[0] (the output size) instead of the rank r = A.shape[0];
// loraForward is right.
export function loraMerge(W, A, B, alpha) { return W.add(B.matmul(A).mul(alpha / B.shape[0])); }
export function loraForward(x, W, A, B, alpha) {
  return x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha / A.shape[0]));
}
