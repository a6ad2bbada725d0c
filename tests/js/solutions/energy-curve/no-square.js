// Wrong: accumulates σ instead of σ².
export function energyCurve(M) {
  const s = tp.linalg.svdvals(M);
  return s.cumsum(0).div(s.sum());
}
export function directionsFor(M, frac) {
  const e = energyCurve(M).toArray();
  return e.findIndex((x) => x >= frac) + 1;
}
