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
export function bestKey(q, K) {
  return K.matmul(q).argmax().item();    // the first best key on a tie, as indexOf(max) would
}
