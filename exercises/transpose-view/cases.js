// Hidden cases of transpose-view. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

function contiguous(shape) {
  const s = [];
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) { s[d] = step; step *= shape[d]; }
  return s;
}

const KIND_LABELS = {
  fresh: { en: 'fresh', zh: '新建' },
  transposed: { en: 'transposed', zh: '转置' },
  permuted: { en: 'permuted', zh: '轴重排' },
  'column slice': { en: 'column slice', zh: '列切片' },
  'row slice': { en: 'row slice', zh: '行切片' },
  'transposed back': { en: 'transposed back', zh: '转置后再转回' },
  'transposed first axes': { en: 'transposed first axes', zh: '转置前两维' },
  expanded: { en: 'expanded first axis', zh: '扩展第一维' },
};

export function generate({ rng }) {
  const cases = [];
  for (let i = 0; i < 6; i++) {
    const n = rng.int(2, 5);
    const shape = Array.from({ length: n }, () => rng.int(2, 8));
    let strides = contiguous(shape);
    if (i % 3 === 2) strides = strides.map((s) => s * 2);            // every other element: a strided view
    let d0 = rng.int(0, n - 1);
    let d1 = rng.int(0, n - 2);
    if (d1 >= d0) d1++;
    if (rng.bool()) d0 -= n;                                          // negative axes, as in transpose(-2, -1)
    if (rng.bool()) d1 -= n;
    cases.push({ fn: 'transposeView', args: [shape, strides, d0, d1] });
  }
  const kinds = ['fresh', 'transposed', 'permuted', 'column slice', 'fresh', 'row slice', 'transposed back', 'transposed first axes'];
  for (const kind of rng.shuffle(kinds)) {
    const n = kind.startsWith('transposed') ? rng.int(3, 4) : rng.int(2, 4);
    const base = Array.from({ length: n }, () => rng.int(2, 7));
    let shape = base.slice();
    let strides = contiguous(base);
    if (kind.startsWith('transposed')) {
      const a = kind === 'transposed first axes' ? 0 : rng.int(0, n - 2);                                          // two neighbouring axes, not always the last
      [shape[a], shape[a + 1]] = [shape[a + 1], shape[a]];
      [strides[a], strides[a + 1]] = [strides[a + 1], strides[a]];
      if (kind === 'transposed back') { shape = base.slice(); strides = contiguous(base); }
    } else if (kind === 'permuted') {
      const perm = [...rng.shuffle(base.map((_, d) => d).slice(1)), 0];     // the first axis moves last
      shape = perm.map((d) => base[d]);
      strides = perm.map((d) => contiguous(base)[d]);
    } else if (kind === 'column slice') {
      // x.narrow(-1, 0, k) keeps the row strides of the wider tensor: descending strides, yet a gap per row
      shape[n - 1] = Math.max(2, base[n - 1] - rng.int(1, 3));
      base[n - 1] = shape[n - 1] + rng.int(1, 3);
      strides = contiguous(base);
    } else if (kind === 'row slice') {
      shape[0] = Math.max(2, base[0] - 1);                                    // fewer rows: still contiguous
    }
    cases.push({ fn: 'isContiguous', args: [shape, strides], label: KIND_LABELS[kind] });
  }
  // x.expand(k, ...) of an x whose first axis has size 1: only the first stride is wrong (0), the others are row-major
  const n = rng.int(2, 4);
  const shape = Array.from({ length: n }, () => rng.int(2, 7));
  cases.push({ fn: 'isContiguous', args: [shape, [0, ...contiguous(shape.slice(1))]], label: KIND_LABELS.expanded });
  return cases;
}

// ---- recognised mistakes ----
const norm = (d, n) => (d < 0 ? d + n : d);
export const mistakes = {
  transposeView: [
    { hint: { en: 'the strides must be swapped too: a transpose exchanges the same two entries of the shape and of the strides',
              zh: '步长也要交换：转置会同时交换形状和步长中相同位置的两项' },
      fn: (shape, strides, d0, d1) => { const s = shape.slice(); const a = norm(d0, s.length), b = norm(d1, s.length); [s[a], s[b]] = [s[b], s[a]]; return [s, strides.slice()]; } },
    { hint: { en: 'these are the contiguous strides of the new shape: a transpose copies nothing, it keeps the old strides and swaps them',
              zh: '这是新形状的连续步长：转置不复制数据，而是保留原来的步长并交换它们' },
      fn: (shape, strides, d0, d1) => { const s = shape.slice(); const a = norm(d0, s.length), b = norm(d1, s.length); [s[a], s[b]] = [s[b], s[a]]; return [s, contiguous(s)]; } },
    { hint: { en: 'negative axes count from the end: -1 is the last axis (add the number of axes)',
              zh: '负数轴从末尾数起：-1 是最后一维（加上维数即可）' },
      fn: (shape, strides, d0, d1) => { if (d0 >= 0 && d1 >= 0) return null; const s = shape.slice(), t = strides.slice(); const a = d0 < 0 ? d0 + s.length + 1 : d0; const b = d1 < 0 ? d1 + s.length + 1 : d1; if (a >= s.length || b >= s.length) return null; [s[a], s[b]] = [s[b], s[a]]; [t[a], t[b]] = [t[b], t[a]]; return [s, t]; } },
  ],
  isContiguous: [
    { hint: { en: 'descending strides are not enough: a column slice keeps the wider rows, so memory has gaps; compare with the row-major strides of the shape',
              zh: '步长递减还不够：列切片保留了原来更宽的行，内存中会有空隙；应与该形状的行主序步长比较' },
      fn: (shape, strides) => strides.every((s, d) => d === 0 || strides[d - 1] >= s) && strides[strides.length - 1] === 1 },
    { hint: { en: 'the first axis\'s stride must be checked too: an expanded view (x.expand, stride 0) differs from a fresh tensor only there; compare every stride, the first one included, with the row-major ones',
              zh: '第一维的步长也要检查：扩展出来的视图（x.expand，步长为 0）只在这一维与新张量不同；应把每个步长（包括第一个）都与行主序步长比较' },
      fn: (shape, strides) => { let step = 1; for (let d = shape.length - 1; d >= 1; d--) { if (strides[d] !== step) return false; step *= shape[d]; } return true; } },
    { hint: { en: 'a last stride of 1 is not enough: every stride must be the product of the sizes after it',
              zh: '最后一维步长为 1 还不够：每个步长都必须等于其后各维大小的乘积' },
      fn: (shape, strides) => strides[strides.length - 1] === 1 },
  ],
};
