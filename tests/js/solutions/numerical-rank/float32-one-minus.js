// Wrong(ish): discarded = 1 − kept/total in float32 (cancellation).
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of numerical-rank (trusted; runs in the judge's oracle worker, tp is a global).
// A is (m, n); singular values below rtol·σ1 are treated as zero.

export function numericalRank(A, rtol) {
  const s = tp.linalg.svdvals(A).toArray();
  return s.filter((x) => x > rtol * s[0]).length;
}

function discardedEnergy__ref(A, rtol) {
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
// Wrong(ish): discarded = 1 − kept/total in float32 (cancellation).
export function discardedEnergy(A, rtol) {
  const s2 = tp.linalg.svdvals(A).square(); const s = tp.linalg.svdvals(A).toArray();
  const r = s.filter((x) => x > rtol * s[0]).length;
  return 1 - s2.narrow(0, 0, r).sum().item() / s2.sum().item();
}
