// Wrong: the Frobenius norm instead of σ1, and a power iteration that rescales by the largest entry, not the norm.
export function spectralNorm(A) {
  return A.square().sum().sqrt().item();
}
export function topRightVector(A) {
  let x = tp.ones([A.shape[1]]);
  for (let it = 0; it < 200; it++) { const y = A.T.matmul(A.matmul(x)); x = y.div(y.abs().amax().item()); }
  return x;
}
