// Reference solution of rope-matrix (trusted; runs in the judge's oracle worker, tp is a global).
// Row-vector convention: x (dim) ↦ x R_pos; pair (2i, 2i+1) turns by pos·θ^(−2i/dim).

export function ropeMatrix(pos, dim, theta) {
  const R = Array.from({ length: dim }, () => new Array(dim).fill(0));
  for (let i = 0; i < dim / 2; i++) {
    const a = pos * theta ** (-2 * i / dim);
    const [c, s] = [Math.cos(a), Math.sin(a)];
    R[2 * i][2 * i] = c;
    R[2 * i][2 * i + 1] = s;
    R[2 * i + 1][2 * i] = -s;
    R[2 * i + 1][2 * i + 1] = c;
  }
  return tp.tensor(R);
}

export function ropeScore(q, k, m, n, theta) {
  const dim = q.shape[0];
  return tp.matmul(q.matmul(ropeMatrix(m, dim, theta)), k.matmul(ropeMatrix(n, dim, theta))).item();
}
