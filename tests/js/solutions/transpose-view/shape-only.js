// Wrong: swaps the shape but keeps the strides in place, and calls any view with descending strides contiguous.
export function transposeView(shape, strides, d0, d1) {
  const n = shape.length;
  const a = (d0 + n) % n, b = (d1 + n) % n;
  const s = shape.slice();
  [s[a], s[b]] = [s[b], s[a]];
  return [s, strides.slice()];
}
export function isContiguous(shape, strides) {
  for (let d = 1; d < strides.length; d++) if (strides[d - 1] < strides[d]) return false;
  return strides[strides.length - 1] === 1;
}
