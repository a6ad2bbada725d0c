// Wrong: keeps one channel too many (indices 0 … k), and reads with Vhᵀ (the columns of Vh).
export function applyChannels(U, S, Vh, x) { return U.matmul(Vh.T.matmul(x).mul(S)); }
export function topChannels(A, x, k) {
  const { U, S, Vh } = tp.linalg.svd(A);
  return U.narrow(1, 0, k + 1).matmul(Vh.narrow(0, 0, k + 1).matmul(x).mul(S.narrow(0, 0, k + 1)));
}
