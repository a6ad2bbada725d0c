// Wrong: reports ‖AᵀA x‖ (that is σ1²) as the norm, and returns the left vector Av / ‖Av‖ instead of v.
function iterate(A) {
  const n = A.shape[1];
  let x = tp.ones([n]);
  for (let it = 0; it < 200; it++) { const y = A.T.matmul(A.matmul(x)); x = y.div(tp.linalg.norm(y).item()); }
  return x;
}
export function spectralNorm(A) {
  return tp.linalg.norm(A.T.matmul(A.matmul(iterate(A)))).item();
}
export function topRightVector(A) {
  const u = A.matmul(iterate(A));
  return u.div(tp.linalg.norm(u).item());
}
