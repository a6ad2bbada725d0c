// Wrong: readAlong and cosine are right; bestKey keeps the smallest score (a < where > was meant).
export function readAlong(h, u) { return tp.matmul(u, h).item() / tp.linalg.norm(u).item(); }
export function cosine(a, b) { return tp.matmul(a, b).item() / (tp.linalg.norm(a).item() * tp.linalg.norm(b).item()); }
export function bestKey(q, K) {
  const s = K.matmul(q).toArray();
  let j = 0;
  s.forEach((v, i) => { if (v < s[j]) j = i; });
  return j;
}
