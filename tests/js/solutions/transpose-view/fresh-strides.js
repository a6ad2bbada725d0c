// Wrong: gives the transposed shape fresh row-major strides (as if the transpose copied), and only looks at the last stride.
export function transposeView(shape, strides, d0, d1) {
  const n = shape.length;
  const a = (d0 + n) % n, b = (d1 + n) % n;
  const s = shape.slice();
  [s[a], s[b]] = [s[b], s[a]];
  const t = [];
  let step = 1;
  for (let d = n - 1; d >= 0; d--) { t[d] = step; step *= s[d]; }
  return [s, t];
}
export function isContiguous(shape, strides) {
  return strides[strides.length - 1] === 1;
}
