// Wrong: compares the singular values with rtol itself instead of rtol·σ1.
export function numericalRank(A, rtol) {
  return tp.linalg.svdvals(A).toArray().filter((x) => x > rtol).length;
}
export function discardedEnergy(A, rtol) {
  const s = tp.linalg.svdvals(A).toArray();
  const total = s.reduce((a, x) => a + x * x, 0);
  return s.filter((x) => x <= rtol).reduce((a, x) => a + x * x, 0) / total;
}
