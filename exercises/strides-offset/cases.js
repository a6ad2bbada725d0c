// Hidden cases of strides-offset. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

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
    cases.push({ fn: 'contiguousStrides', args: [shape] });
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
    const view = perm.every((d, k) => d === k) ? { en: 'contiguous', zh: '连续' } : { en: 'permuted view', zh: '轴重排的视图' };
    const label = start ? { en: `${view.en}, sliced`, zh: `${view.zh}，切片` } : view;
    cases.push({ fn: 'offsetOf', args: [strides, index, start], label });
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  contiguousStrides: [
    { hint: { en: 'these are column-major (Fortran) strides: in row-major order the LAST axis has stride 1',
              zh: '这是列主序（Fortran）的步长：行主序中步长为 1 的是最后一维' },
      fn: (shape) => { const s = []; let step = 1; for (let d = 0; d < shape.length; d++) { s[d] = step; step *= shape[d]; } return s; } },
    { hint: { en: 'off by one: stride d multiplies the sizes of the axes AFTER d, not including shape[d] itself',
              zh: '差了一位：第 d 维的步长是 d 之后各维大小的乘积，不包括 shape[d] 本身' },
      fn: (shape) => shape.map((_, d) => shape.slice(d).reduce((a, b) => a * b, 1)) },
    { hint: { en: 'the strides are in the wrong order: the last axis has stride 1, the first the largest',
              zh: '步长顺序反了：最后一维步长为 1，第一维步长最大' },
      fn: (shape) => contiguous(shape).reverse() },
  ],
  offsetOf: [
    { hint: { en: 'the start offset of the view is missing: add start',
              zh: '缺少视图的起始偏移：要加上 start' },
      fn: (strides, index, start) => (start ? index.reduce((o, i, d) => o + i * strides[d], 0) : null) },
    { hint: { en: 'index d goes with stride d; this pairs the index with the strides reversed',
              zh: '第 d 个索引对应第 d 个步长；这里把索引和反序的步长配成了对' },
      fn: (strides, index, start) => index.reduce((o, i, d) => o + i * strides[strides.length - 1 - d], start) },
  ],
};
