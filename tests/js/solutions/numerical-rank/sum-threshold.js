// Wrong: threshold rtol·Σσ instead of rtol·σ1.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of numerical-rank (trusted; runs in the judge's oracle worker, tp is a global).
// A is (m, n); singular values below rtol·σ1 are treated as zero.

function numericalRank__ref(A, rtol) {
  const s = tp.linalg.svdvals(A).toArray();
  return s.filter((x) => x > rtol * s[0]).length;
}

export function discardedEnergy(A, rtol) {
  const s = tp.linalg.svdvals(A).toArray();
  let dropped = 0;
  let total = 0;
  for (const x of s) {
    total += x * x;
    if (!(x > rtol * s[0])) dropped += x * x;
  }
  return dropped / total;
}

// ---- mutation ----
// Wrong: threshold rtol·Σσ instead of rtol·σ1.
export function numericalRank(A, rtol) { const s = tp.linalg.svdvals(A).toArray(); const t = s.reduce((a, b) => a + b, 0); return s.filter((x) => x > rtol * t).length; }
