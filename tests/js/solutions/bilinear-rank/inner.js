// Wrong: multiplies the factors the inner way (W_Qᵀ W_K, a [dk, dk] matrix) and counts the rank of W_Q alone.
export function bilinearForm(Wq, Wk) { return Wq.T.matmul(Wk); }
export function formRank(Wq, Wk) {
  const s = tp.linalg.svdvals(Wq).toArray();
  return s.filter((x) => x > 1e-4 * s[0]).length;
}
