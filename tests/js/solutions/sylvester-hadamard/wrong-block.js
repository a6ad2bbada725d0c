// Wrong: puts the minus sign in the bottom-left block, and rotates the columns (Q x) instead of the rows.
function Q(n) {
  let H = [[1]];
  while (H.length < n) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r.map((v) => -v), ...r])];
  return tp.tensor(H).div(Math.sqrt(n));
}
export function hadamard(n) { return Q(n); }
export function hadamardRotate(x) { return Q(x.shape[0]).matmul(x); }
