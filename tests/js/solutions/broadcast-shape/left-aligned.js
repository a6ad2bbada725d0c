// Wrong: lines the shapes up from the left, and counts the conflicting axis from the right as a positive number.
export function broadcastShape(a, b) {
  const out = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 1, y = b[i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return false;
    out.push(Math.max(x, y));
  }
  return out;
}
export function firstConflict(a, b) {
  for (let i = 1; i <= Math.max(a.length, b.length); i++) {
    const x = a[a.length - i] ?? 1, y = b[b.length - i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return i;
  }
  return 0;
}
