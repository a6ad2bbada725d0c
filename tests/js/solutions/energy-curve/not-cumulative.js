// Wrong: the share of each single direction, not the running total.
export function energyCurve(M) {
  const s2 = tp.linalg.svdvals(M).square();
  return s2.div(s2.sum()).toArray();
}
export function directionsFor(M, frac) {
  let acc = 0;
  const e = energyCurve(M);
  for (let k = 0; k < e.length; k++) {
    acc += e[k];
    if (acc >= frac) return k + 1;
  }
  return e.length;
}
