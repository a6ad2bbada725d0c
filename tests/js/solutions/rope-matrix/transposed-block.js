// Wrong: each 2×2 block is written the column-vector way round, [[cos, −sin], [sin, cos]], for x R with row vectors.
export function ropeMatrix(pos, dim, theta) {
  const R = Array.from({ length: dim }, () => new Array(dim).fill(0));
  for (let i = 0; i < dim / 2; i++) {
    const a = pos * theta ** (-2 * i / dim);
    R[2 * i][2 * i] = Math.cos(a); R[2 * i][2 * i + 1] = -Math.sin(a);
    R[2 * i + 1][2 * i] = Math.sin(a); R[2 * i + 1][2 * i + 1] = Math.cos(a);
  }
  return tp.tensor(R);
}
export function ropeScore(q, k, m, n, theta) {
  const d = q.shape[0];
  return tp.matmul(q.matmul(ropeMatrix(m, d, theta)), k.matmul(ropeMatrix(n, d, theta))).item();
}
