// Wrong: accumulates σ instead of σ².
export function energyCurve(M) {
  const s = tp.linalg.svdvals(M).toArray();
  const total = s.reduce((a, x) => a + x, 0);
  let acc = 0;
  return s.map((x) => (acc += x) / total);
}
export function directionsFor(M, frac) {
  const e = energyCurve(M);
  return e.findIndex((x) => x >= frac) + 1;
}
