// Hidden cases of strides-offset. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

function contiguous(shape) {
  const s = [];
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) { s[d] = step; step *= shape[d]; }
  return s;
}

export function generate({ rng }) {
  const cases = [];
  for (let i = 0; i < 5; i++) {
    const shape = Array.from({ length: i === 0 ? 1 : rng.int(2, 5) }, () => rng.int(2, 9));
    cases.push({ fn: 'contiguousStrides', args: [shape], name: `hidden ${cases.length + 1}` });
  }
  for (let i = 0; i < 6; i++) {
    const base = Array.from({ length: rng.int(2, 4) }, () => rng.int(2, 8));
    const strides0 = contiguous(base);
    // a permutation of the axes (a transpose when it swaps two), and sometimes a slice that starts later
    const perm = rng.shuffle(base.map((_, d) => d));
    const shape = perm.map((d) => base[d]);
    const strides = perm.map((d) => strides0[d]);
    const start = i % 2 === 0 ? 0 : rng.int(1, 40);
    const index = shape.map((n) => rng.int(0, n - 1));
    const label = perm.every((d, k) => d === k) ? 'contiguous' : 'permuted view';
    cases.push({ fn: 'offsetOf', args: [strides, index, start], name: `hidden ${cases.length + 1} (${label}${start ? ', sliced' : ''})` });
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  contiguousStrides: [
    { hint: 'these are column-major (Fortran) strides: in row-major order the LAST axis has stride 1',
      fn: (shape) => { const s = []; let step = 1; for (let d = 0; d < shape.length; d++) { s[d] = step; step *= shape[d]; } return s; } },
    { hint: 'off by one: stride d multiplies the sizes of the axes AFTER d, not including shape[d] itself',
      fn: (shape) => shape.map((_, d) => shape.slice(d).reduce((a, b) => a * b, 1)) },
    { hint: 'the strides are in the wrong order: the last axis has stride 1, the first the largest',
      fn: (shape) => contiguous(shape).reverse() },
  ],
  offsetOf: [
    { hint: 'the start offset of the view is missing: add start',
      fn: (strides, index, start) => (start ? index.reduce((o, i, d) => o + i * strides[d], 0) : null) },
    { hint: 'index d goes with stride d; this pairs the index with the strides reversed',
      fn: (strides, index, start) => index.reduce((o, i, d) => o + i * strides[strides.length - 1 - d], start) },
  ],
};
