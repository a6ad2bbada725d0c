// Wrong: reads and writes but never scales by the singular values.
export function applyChannels(U, S, Vh, x) { return U.matmul(Vh.matmul(x)); }
export function topChannels(A, x, k) {
  const { U, Vh } = tp.linalg.svd(A);
  return U.narrow(1, 0, k).matmul(Vh.narrow(0, 0, k).matmul(x));
}
