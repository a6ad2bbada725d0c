// Wrong: returns the area without its sign (|ad − bc|); the image of e_i is right.
export function imageOfBasis(W, i) { return W.select(1, i); }
export function det2(W) {
  const [[a, b], [c, d]] = W.toArray();
  return Math.abs(a * d - b * c);
}
