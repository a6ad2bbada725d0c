// Reference solution of basis-geometry (trusted; runs in the judge's oracle worker, tp is a global).
// Column convention: W (n, n) acts as x ↦ W x, so W e_i is column i.

export function imageOfBasis(W, i) {
  return W.select(1, i);
}

export function det2(W) {
  const [[a, b], [c, d]] = W.toArray();
  return a * d - b * c;
}
