// Wrong: reads along u without dividing by its length, and divides the cosine by one length only.
const dot = (a, b) => a.mul(b).sum().item();
export function readAlong(h, u) { return dot(u, h); }
export function cosine(a, b) { return dot(a, b) / Math.sqrt(dot(a, a)); }
export function bestKey(q, K) {
  const s = K.matmul(q).toArray();
  return s.indexOf(Math.max(...s));
}
