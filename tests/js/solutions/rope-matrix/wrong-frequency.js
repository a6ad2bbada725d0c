// Wrong: frequencies θ^(−i/d) instead of θ^(−2i/d), and a score that forgets the positions.
export function ropeMatrix(pos, dim, theta) {
  const R = Array.from({ length: dim }, () => new Array(dim).fill(0));
  for (let i = 0; i < dim / 2; i++) {
    const a = pos * theta ** (-i / dim);
    R[2 * i][2 * i] = Math.cos(a); R[2 * i][2 * i + 1] = Math.sin(a);
    R[2 * i + 1][2 * i] = -Math.sin(a); R[2 * i + 1][2 * i + 1] = Math.cos(a);
  }
  return tp.tensor(R);
}
export function ropeScore(q, k, m, n, theta) {
  return tp.matmul(q, k).item();
}
