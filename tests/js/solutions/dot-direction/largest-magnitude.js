// Wrong: picks the largest |q·k| (magnitude), not the largest score.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of dot-direction (trusted; runs in the judge's oracle worker, tp is a global).

const dot = (a, b) => tp.matmul(a, b).item();
const len = (a) => tp.linalg.norm(a).item();

export function readAlong(h, u) {
  return dot(u, h) / len(u);            // the projection's signed length: u need not be a unit vector
}

export function cosine(a, b) {
  return dot(a, b) / (len(a) * len(b));
}

// K is (n, d): the scores K q, one per key; the raw dot product, not the cosine.
function bestKey__ref(q, K) {
  const s = K.matmul(q).toArray();
  return s.indexOf(Math.max(...s));
}

// ---- mutation ----
// Wrong: picks the largest |q·k| (magnitude), not the largest score.
export function bestKey(q, K) { const s = K.matmul(q).toArray().map(Math.abs); return s.indexOf(Math.max(...s)); }
