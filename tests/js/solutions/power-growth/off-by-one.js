// Wrong: the list leaves out ‖v‖ (k numbers instead of k + 1), and the radius keeps the sign of λ.
export function powerNorms(A, v, k) {
  const out = [];
  let x = v;
  for (let j = 1; j <= k; j++) { x = A.matmul(x); out.push(tp.linalg.norm(x).item()); }
  return out;
}
export function spectralRadius(A) { return Math.max(...tp.linalg.eigvalsh(A).toArray()); }
