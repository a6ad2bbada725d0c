// Wrong: every loop over the shared axis stops one term early (p < k - 1).
export function matmulByDots(A, B) {
  const [m, k] = A.shape, n = B.shape[1];
  const c = [];
  for (let i = 0; i < m; i++) {
    const row = [];
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let p = 0; p < k - 1; p++) s += A.toArray()[i][p] * B.toArray()[p][j];
      row.push(s);
    }
    c.push(row);
  }
  return tp.tensor(c);
}
export function matmulByColumns(A, B) {
  const k = A.shape[1];
  const cols = [];
  for (let j = 0; j < B.shape[1]; j++) cols.push(A.narrow(1, 0, Math.max(k - 1, 1)).mul(B.select(1, j).narrow(0, 0, Math.max(k - 1, 1))).sum(1));
  return tp.stack(cols, 1);
}
export function matmulByOuter(A, B) {
  let C = tp.zeros([A.shape[0], B.shape[1]]);
  for (let p = 0; p < A.shape[1] - 1; p++) C = C.add(tp.outer(A.select(1, p), B.select(0, p)));
  return C;
}
