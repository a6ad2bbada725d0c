// Reference solution of energy-curve (trusted; runs in the judge's oracle worker, tp is a global).
// M is (m, n); the curve has min(m, n) entries. A running sum by hand: the exercise forbids t.cumsum.

export function energyCurve(M) {
  const s2 = tp.linalg.svdvals(M).square().toArray();
  const total = s2.reduce((a, x) => a + x, 0);
  let held = 0;
  return s2.map((x) => (held += x) / total);   // fraction of Σσ² held by the first k directions, k = 1..r
}

export function directionsFor(M, frac) {
  const curve = energyCurve(M);
  const k = curve.findIndex((e) => e >= frac);
  return k < 0 ? curve.length : k + 1;   // counts directions from 1; the last entry is 1 up to rounding
}
