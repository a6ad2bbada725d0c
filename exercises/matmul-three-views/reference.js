// Reference solution of matmul-three-views (trusted; runs in the judge's oracle worker, tp is a global).
// A is (m, k), B is (k, n), C is (m, n); three constructions of the same C, without matmul (the exercise
// forbids it): a dot product is mul then sum, A times a column is A's columns weighted and added.

export function matmulByDots(A, B) {
  const [m] = A.shape;
  const n = B.shape[1];
  const c = new Float32Array(m * n);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) c[i * n + j] = A.select(0, i).mul(B.select(1, j)).sum().item();
  }
  return tp.tensor(c, { shape: [m, n] });
}

export function matmulByColumns(A, B) {
  const n = B.shape[1];
  const cols = [];
  for (let j = 0; j < n; j++) cols.push(A.mul(B.select(1, j)).sum(1));   // (m,k)·(k) broadcast, summed over k → (m)
  return tp.stack(cols, 1);                                           // columns side by side
}

export function matmulByOuter(A, B) {
  const k = A.shape[1];
  let C = tp.zeros([A.shape[0], B.shape[1]]);
  for (let p = 0; p < k; p++) C = C.add(tp.outer(A.select(1, p), B.select(0, p)));
  return C;
}
