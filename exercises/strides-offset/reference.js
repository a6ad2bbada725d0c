// Reference solution of strides-offset (trusted; runs in the judge's oracle worker).

// Row-major: the last axis is dense; stride d is the product of the sizes of the axes after d.
export function contiguousStrides(shape) {
  const strides = new Array(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

export function offsetOf(strides, index, start) {
  return index.reduce((off, i, d) => off + i * strides[d], start);
}
