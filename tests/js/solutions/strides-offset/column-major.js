// Wrong: column-major strides (the first axis dense), and the start offset of the view forgotten.
export function contiguousStrides(shape) {
  const s = [];
  let step = 1;
  for (let d = 0; d < shape.length; d++) { s[d] = step; step *= shape[d]; }
  return s;
}
export function offsetOf(strides, index, start) {
  return index.reduce((o, i, d) => o + i * strides[d], 0);
}
