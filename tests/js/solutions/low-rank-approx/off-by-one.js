// Wrong: keeps singular values 0..k (k+1 of them), and its error starts one too late.
export function lowRankApprox(W, k) {
  const { U, S, Vh } = tp.linalg.svd(W);
  return U.narrow(1, 0, k + 1).mul(S.narrow(0, 0, k + 1)).matmul(Vh.narrow(0, 0, k + 1));
}
export function truncationError(W, k) {
  const s = tp.linalg.svdvals(W).toArray();
  return Math.sqrt(s.slice(k + 1).reduce((a, x) => a + x * x, 0));
}
