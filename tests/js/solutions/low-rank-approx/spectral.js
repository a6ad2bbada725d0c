// Wrong: forgets the singular values in the approximation; reports σ_{k+1} (the 2-norm error).
export function lowRankApprox(W, k) {
  const { U, Vh } = tp.linalg.svd(W);
  return U.narrow(1, 0, k).matmul(Vh.narrow(0, 0, k));
}
export function truncationError(W, k) {
  const s = tp.linalg.svdvals(W).toArray();
  return s[k] ?? 0;
}
