// A small seeded random generator for hidden cases: the same seed gives the same cases
// in Node and in the browser (pure integer arithmetic, no Math.random).

// mulberry32: 32-bit state, good enough to vary shapes and values; not for cryptography.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Mixes a seed and a label (exercise id, case kind) so streams for different labels differ.
function mix(seed, label) {
  let h = (Number(seed) >>> 0) ^ 0x9e3779b9;
  for (const ch of String(label)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h >>> 0;
}

// tp (optional) backs the linear-algebra builders (orthonormal, withSpectrum) with the core.
export function createRng(seed, label = '', tp = null) {
  const next = mulberry32(mix(seed, label));
  const rng = {
    seed,
    next,
    // uniform float in [lo, hi)
    uniform(lo = 0, hi = 1) { return lo + (hi - lo) * next(); },
    // uniform integer in [lo, hi], both ends included
    int(lo, hi) { return lo + Math.floor(next() * (hi - lo + 1)); },
    pick(items) { return items[Math.floor(next() * items.length)]; },
    bool(p = 0.5) { return next() < p; },
    // standard normal by Box-Muller; 1 - next() keeps log away from 0
    normal() {
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    // nested array [m][n] of normals times scale, rounded to `digits` decimals so cases print well
    matrix(m, n, scale = 1, digits = 4) {
      const f = 10 ** digits;
      return Array.from({ length: m }, () =>
        Array.from({ length: n }, () => Math.round(rng.normal() * scale * f) / f));
    },
    // n×k matrix (nested arrays) with orthonormal columns: the first k columns of the core's
    // tp.linalg.randomOrthogonal (QR of a Gaussian), seeded from this stream.
    orthonormal(n, k) {
      if (!tp) throw new Error('rng.orthonormal needs tp: createRng(seed, label, tp)');
      return tp.tidy(() => tp.linalg.randomOrthogonal(n, { seed: rng.int(0, 2 ** 31 - 1) }).narrow(1, 0, k).toArray());
    },
    // m×n matrix U·diag(s)·Vᵀ with random orthonormal U, V: a matrix whose singular values are s,
    // rounded to `digits` decimals.
    withSpectrum(m, n, s, digits = 6) {
      const U = rng.orthonormal(m, s.length);
      const V = rng.orthonormal(n, s.length);
      const f = 10 ** digits;
      const W = tp.tidy(() => tp.tensor(U).mul(tp.tensor(s)).matmul(tp.tensor(V).T).toArray());
      return W.map((row) => row.map((x) => Math.round(x * f) / f));
    },
    shuffle(items) {
      const a = items.slice();
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
  return rng;
}
