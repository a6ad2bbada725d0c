// Hidden cases of broadcast-shape. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// A shape and a partner that broadcasts with it: drop some leading axes, set some sizes to 1.
function partner(rng, shape) {
  const keep = rng.int(1, shape.length);
  return shape.slice(shape.length - keep).map((s) => (rng.bool(0.4) ? 1 : s));
}

export function generate({ rng }) {
  const cases = [];
  for (let i = 0; i < 12; i++) {
    const nd = rng.int(2, 4);
    const shape = Array.from({ length: nd }, () => rng.int(2, 7));
    let b = partner(rng, shape);
    let a = shape.map((s) => (rng.bool(0.25) ? 1 : s));      // ones on both sides
    if (i % 3 === 2) {
      // break one axis of b (not always the last) with a size that is neither 1 nor a's size
      const j = rng.int(0, b.length - 1);
      const ai = a[a.length - b.length + j];
      b = b.slice();
      b[j] = ai === 1 ? rng.int(2, 7) : ai + rng.int(1, 3);
      if (ai === 1) a = a.slice(), a[a.length - b.length + j] = b[j] + 1;
    }
    if (rng.bool()) [a, b] = [b, a];
    cases.push({ fn: i % 2 === 0 ? 'broadcastShape' : 'firstConflict', args: [a, b] });
  }
  // a pair that fails only if aligned from the left, and one that fails on a middle axis
  cases.push({ fn: 'broadcastShape', args: [[rng.int(2, 5), 6, 4], [6, 1]] });
  cases.push({ fn: 'firstConflict', args: [[2, rng.int(3, 6), 5], [2, 1]] });
  // two or more conflicting axes: the first one from the right is the answer, not the leftmost one
  const x = rng.int(2, 4);
  cases.push({ fn: 'firstConflict', args: [[x, 3, rng.int(2, 5), 4], [x + 1, 5, 1, 6]], label: { en: 'three conflicts', zh: '三处冲突' } });
  const y = rng.int(3, 6);
  cases.push({ fn: 'firstConflict', args: [[2, y, 7], [rng.int(4, 6), y + 1, 7]], label: { en: 'two conflicts', zh: '两处冲突' } });
  return cases;
}

// ---- recognised mistakes ----
function leftAligned(a, b) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? 1;
    const y = b[i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return false;
    out.push(Math.max(x, y));
  }
  return out;
}
function rightAligned(a, b, ok) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = n; i >= 1; i--) {
    const x = a[a.length - i] ?? 1;
    const y = b[b.length - i] ?? 1;
    if (!ok(x, y)) return false;
    out.push(Math.max(x, y));
  }
  return out;
}
function conflicts(a, b, ok) {
  const n = Math.max(a.length, b.length);
  for (let i = 1; i <= n; i++) if (!ok(a[a.length - i] ?? 1, b[b.length - i] ?? 1)) return i;
  return 0;
}
const compatible = (x, y) => x === y || x === 1 || y === 1;

export const mistakes = {
  broadcastShape: [
    { hint: { en: 'the shapes are aligned from the left; broadcasting aligns them from the right (the last axes meet)',
              zh: '这里把形状从左边对齐了；广播是从右边对齐的（最后一维对最后一维）' },
      fn: leftAligned },
    { hint: { en: 'a size of 1 stretches to match the other size; only two different sizes that are both ≠ 1 fail',
              zh: '大小为 1 的维会扩展成另一边的大小；只有两个大小不同且都 ≠ 1 时才失败' },
      fn: (a, b) => rightAligned(a, b, (x, y) => x === y) },
    { hint: { en: 'this never fails: when two sizes differ and neither is 1, the broadcast is impossible (return false)',
              zh: '这里从不失败：两个大小不同且都不是 1 时，无法广播（应返回 false）' },
      fn: (a, b) => rightAligned(a, b, () => true) },
  ],
  firstConflict: [
    { hint: { en: 'this is a positive count from the right; return the axis as a negative index (-1 is the last axis)',
              zh: '这是从右往左数的正数；要把轴返回成负索引（-1 是最后一维）' },
      fn: (a, b) => conflicts(a, b, compatible) },
    { hint: { en: 'this is the index from the left in the longer shape; count from the right, as a negative index',
              zh: '这是在较长形状中从左数的索引；应从右数，返回负索引' },
      fn: (a, b) => { const i = conflicts(a, b, compatible); return i ? Math.max(a.length, b.length) - i : 0; } },
    { hint: { en: 'this is the leftmost conflict; scan from the last axis leftwards and return the first conflict you meet (the one nearest the right)',
              zh: '这是最左边的冲突；应从最后一维往左扫描，返回遇到的第一个冲突（离右端最近的那个）' },
      fn: (a, b) => { const n = Math.max(a.length, b.length); for (let i = n; i >= 1; i--) if (!compatible(a[a.length - i] ?? 1, b[b.length - i] ?? 1)) return -i; return 0; } },
    { hint: { en: 'this reports no conflict (0) where the shapes cannot broadcast: compare the sizes from the last axis leftwards; two sizes that differ, neither of them 1, conflict',
              zh: '这里在无法广播的地方报告“没有冲突”（0）：从最后一维往左比较大小，两个大小不同且都不是 1 就是冲突' },
      fn: () => 0 },
    { hint: { en: 'off by one: the last axis is -1, not 0',
              zh: '差了一位：最后一维是 -1，不是 0' },
      fn: (a, b) => { const i = conflicts(a, b, compatible); return i ? -(i - 1) : 0; } },
  ],
};
