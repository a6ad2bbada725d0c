// Wrong: takes row i of W as the image of e_i, and adds the two diagonal products.
export function imageOfBasis(W, i) { return W.select(0, i); }
export function det2(W) {
  const [[a, b], [c, d]] = W.toArray();
  return a * d + b * c;
}
