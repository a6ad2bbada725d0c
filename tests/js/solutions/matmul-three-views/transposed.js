// Wrong: the dots and the outer products take B the wrong way round, and the columns are stacked as rows.
export function matmulByDots(A, B) {
  const m = A.shape[0], n = B.shape[1];
  const c = [];
  for (let i = 0; i < m; i++) {
    const row = [];
    for (let j = 0; j < n; j++) row.push(A.select(0, i).mul(B.select(0, j)).sum().item());
    c.push(row);
  }
  return tp.tensor(c);
}
export function matmulByColumns(A, B) {
  const cols = [];
  for (let j = 0; j < B.shape[1]; j++) cols.push(A.mul(B.select(1, j)).sum(1));
  return tp.stack(cols, 0);
}
export function matmulByOuter(A, B) {
  let C = tp.zeros([A.shape[0], B.shape[1]]);
  for (let p = 0; p < A.shape[1]; p++) C = C.add(tp.outer(A.select(1, p), B.select(1, p)));
  return C;
}
