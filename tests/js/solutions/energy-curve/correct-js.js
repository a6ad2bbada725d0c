// Right, accumulating in float64 in plain JS from the singular values.
export function energyCurve(M) {
  const s = tp.linalg.svdvals(M).toArray();
  const total = s.reduce((a, x) => a + x * x, 0);
  let acc = 0;
  return s.map((x) => (acc += x * x) / total);
}

export function directionsFor(M, frac) {
  const e = energyCurve(M);
  for (let k = 1; k <= e.length; k++) if (e[k - 1] >= frac) return k;
  return e.length;
}
