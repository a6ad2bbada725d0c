// Right approximation; the error forgets the square root.
export function lowRankApprox(W, k) {
  const { U, S, Vh } = tp.linalg.svd(W);
  return U.narrow(1, 0, k).mul(S.narrow(0, 0, k)).matmul(Vh.narrow(0, 0, k));
}
export function truncationError(W, k) {
  const s = tp.linalg.svdvals(W).toArray();
  return s.slice(k).reduce((a, x) => a + x * x, 0);
}
