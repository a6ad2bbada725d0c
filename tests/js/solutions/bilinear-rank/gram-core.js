// Wrong: rank of Wqᵀ Wk (the dk × dk core) — same rank generically.
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
// Wrong: rank of Wqᵀ Wk (the dk × dk core) — same rank generically.
export function formRank(Wq, Wk) { const s = tp.linalg.svdvals(Wq.T.matmul(Wk)).toArray(); return s.filter((x) => x > 1e-4 * s[0]).length; }
