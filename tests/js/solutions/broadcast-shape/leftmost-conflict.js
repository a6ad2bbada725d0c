// Wrong: reports the leftmost conflict instead of the first one from the right.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of broadcast-shape (trusted; runs in the judge's oracle worker).
// Shapes are aligned from the right; a missing leading axis counts as 1.

function firstConflict__ref(a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = 1; i <= n; i++) {
    const x = a[a.length - i] ?? 1;
    const y = b[b.length - i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return -i;
  }
  return 0;
}

export function broadcastShape(a, b) {
  if (firstConflict(a, b) !== 0) return false;
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = n; i >= 1; i--) out.push(Math.max(a[a.length - i] ?? 1, b[b.length - i] ?? 1));
  return out;
}

// ---- mutation ----
// Wrong: reports the leftmost conflict instead of the first one from the right.
export function firstConflict(a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = n; i >= 1; i--) {
    const x = a[a.length - i] ?? 1, y = b[b.length - i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) return -i;
  }
  return 0;
}
