// Wrong: treats only equal sizes as compatible (a size of 1 does not stretch); off by one in firstConflict.
export function broadcastShape(a, b) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = n; i >= 1; i--) {
    const x = a[a.length - i] ?? 1, y = b[b.length - i] ?? 1;
    if (x !== y) return false;
    out.push(x);
  }
  return out;
}
export function firstConflict(a, b) {
  for (let i = 1; i <= Math.max(a.length, b.length); i++) {
    const x = a[a.length - i] ?? 1, y = b[b.length - i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return -(i - 1);
  }
  return 0;
}
