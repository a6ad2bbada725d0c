// Reference solution of lora-merge (trusted; runs in the judge's oracle worker, tp is a global).
// W is (dOut, dIn), A is (r, dIn), B is (dOut, r); the layer computes y = x Wᵀ.

export function loraMerge(W, A, B, alpha) {
  const r = A.shape[0];
  return W.add(B.matmul(A).mul(alpha / r));
}

// x is (n, dIn): the low-rank path goes through (n, r), never through the (dOut, dIn) product BA.
export function loraForward(x, W, A, B, alpha) {
  const r = A.shape[0];
  return x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha / r));
}
