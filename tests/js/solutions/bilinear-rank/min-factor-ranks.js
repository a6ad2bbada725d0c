// Wrong(ish): min of the two factor ranks instead of the rank of M.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of bilinear-rank (trusted; runs in the judge's oracle worker, tp is a global).
// Wq, Wk are (d, dk); M = Wq Wkᵀ is (d, d) with rank ≤ dk.

export function bilinearForm(Wq, Wk) {
  return Wq.matmul(Wk.T);
}

function formRank__ref(Wq, Wk) {
  const s = tp.linalg.svdvals(bilinearForm(Wq, Wk)).toArray();
  return s.filter((x) => x > 1e-4 * s[0]).length;
}

// ---- mutation ----
// Wrong(ish): min of the two factor ranks instead of the rank of M.
export function formRank(Wq, Wk) { const r = (W) => { const s = tp.linalg.svdvals(W).toArray(); return s.filter((x) => x > 1e-4 * s[0]).length; }; return Math.min(r(Wq), r(Wk)); }
