// Wrong: reports ‖AᵀA x‖ (that is σ1²) as the norm, and returns the left vector Av / ‖Av‖ instead of v.
function iterate(A) {
  const n = A.shape[1];
  let x = tp.ones([n]);
  for (let it = 0; it < 200; it++) { const y = A.T.matmul(A.matmul(x)); x = y.div(y.norm().item()); }
  return x;
}
export function spectralNorm(A) {
  return A.T.matmul(A.matmul(iterate(A))).norm().item();
}
export function topRightVector(A) {
  const u = A.matmul(iterate(A));
  return u.div(u.norm().item());
}
