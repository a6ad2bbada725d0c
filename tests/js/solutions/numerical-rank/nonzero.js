// Wrong: counts every nonzero singular value, and returns the kept energy with σ instead of σ².
export function numericalRank(A, rtol) {
  return tp.linalg.svdvals(A).toArray().filter((x) => x > 0).length;
}
export function discardedEnergy(A, rtol) {
  const s = tp.linalg.svdvals(A).toArray();
  const total = s.reduce((a, x) => a + x, 0);
  return s.filter((x) => x <= rtol * s[0]).reduce((a, x) => a + x, 0) / total;
}
