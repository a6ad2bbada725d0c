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

export function createRng(seed, label = '') {
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
    // n×k matrix (nested arrays) with orthonormal columns: Gram–Schmidt on normal columns, in float64.
    orthonormal(n, k) {
      const cols = [];
      while (cols.length < k) {
        let v = Array.from({ length: n }, () => rng.normal());
        for (let pass = 0; pass < 2; pass++) {
          for (const c of cols) {
            const dot = c.reduce((a, ci, i) => a + ci * v[i], 0);
            v = v.map((vi, i) => vi - dot * c[i]);
          }
        }
        const norm = Math.hypot(...v);
        if (norm > 1e-6) cols.push(v.map((vi) => vi / norm));
      }
      return Array.from({ length: n }, (_, i) => cols.map((c) => c[i]));
    },
    // m×n matrix U·diag(s)·Vᵀ with random orthonormal U, V: a matrix whose singular values are s.
    withSpectrum(m, n, s, digits = 6) {
      const U = rng.orthonormal(m, s.length);
      const V = rng.orthonormal(n, s.length);
      const f = 10 ** digits;
      return Array.from({ length: m }, (_, i) => Array.from({ length: n }, (_, j) =>
        Math.round(s.reduce((a, sk, k) => a + U[i][k] * sk * V[j][k], 0) * f) / f));
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
