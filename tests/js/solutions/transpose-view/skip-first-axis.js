// Wrong: never checks the stride of axis 0 (the outermost "can be anything").
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of transpose-view (trusted; runs in the judge's oracle worker).

// A transpose swaps two entries of the shape and the same two of the strides; memory is untouched.
export function transposeView(shape, strides, d0, d1) {
  const n = shape.length;
  const a = d0 < 0 ? d0 + n : d0;
  const b = d1 < 0 ? d1 + n : d1;
  const s = shape.slice();
  const t = strides.slice();
  [s[a], s[b]] = [s[b], s[a]];
  [t[a], t[b]] = [t[b], t[a]];
  return [s, t];
}

// Contiguous: the strides are exactly the row-major ones (last axis dense, no gaps).
function isContiguous__ref(shape, strides) {
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (strides[d] !== step) return false;
    step *= shape[d];
  }
  return true;
}

// ---- mutation ----
// Wrong: never checks the stride of axis 0 (the outermost "can be anything").
export function isContiguous(shape, strides) {
  let step = 1;
  for (let d = shape.length - 1; d >= 1; d--) { if (strides[d] !== step) return false; step *= shape[d]; }
  return true;
}
