// Wrong: broadcastShape is right, but firstConflict never reports a conflict.
export function broadcastShape(a, b) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = 1; i <= n; i++) {
    const x = a[a.length - i] ?? 1, y = b[b.length - i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return false;
    out.unshift(Math.max(x, y));
  }
  return out;
}
export function firstConflict(a, b) { return 0; }
