// Wrong: divides by ‖u‖² when reading, and picks the key with the largest cosine instead of the largest score.
const dot = (a, b) => a.mul(b).sum().item();
export function readAlong(h, u) { return dot(u, h) / dot(u, u); }
export function cosine(a, b) { return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b)); }
export function bestKey(q, K) {
  const rows = K.toArray().map((k) => tp.tensor(k));
  const c = rows.map((k) => cosine(q, k));
  return c.indexOf(Math.max(...c));
}
