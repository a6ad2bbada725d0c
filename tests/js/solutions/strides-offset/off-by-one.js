// Wrong: each stride includes its own axis (off by one), and the index is paired with reversed strides.
export function contiguousStrides(shape) {
  return shape.map((_, d) => shape.slice(d).reduce((a, b) => a * b, 1));
}
export function offsetOf(strides, index, start) {
  return index.reduce((o, i, d) => o + i * strides[strides.length - 1 - d], start);
}
