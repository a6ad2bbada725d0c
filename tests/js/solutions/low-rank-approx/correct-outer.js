// Right, computed another way: a sum of k rank-1 outer products, and the error measured directly.
export function lowRankApprox(W, k) {
  const { U, S, Vh } = tp.linalg.svd(W);
  const s = S.toArray();
  let Wk = tp.zeros([W.shape[0], W.shape[1]]);
  for (let i = 0; i < k; i++) {
    const u = U.narrow(1, i, 1);            // column i of U, [m, 1]
    const v = Vh.narrow(0, i, 1);           // row i of Vh, [1, n]
    Wk = Wk.add(u.matmul(v).mul(s[i]));
  }
  return Wk;
}
export function truncationError(W, k) {
  return tp.linalg.norm(W.sub(lowRankApprox(W, k))).item();
}
