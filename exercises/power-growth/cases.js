// Hidden cases of power-growth. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// A symmetric matrix Q diag(λ) Qᵀ with chosen eigenvalues; 'negative' puts the largest |λ| below zero.
function symmetric(rng, n, kind) {
  const top = kind === 'decaying' ? rng.uniform(0.6, 0.95) : rng.uniform(1.05, 1.3);
  const lam = [top, ...Array.from({ length: n - 1 }, () => rng.uniform(-0.9, 0.9) * top)];
  if (kind === 'negative') lam[0] = -top;
  const Q = rng.orthonormal(n, n);
  return Q.map((_, i) => Q.map((__, j) => Math.round(lam.reduce((s, l, p) => s + Q[i][p] * l * Q[j][p], 0) * 1e6) / 1e6));
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  const kinds = rng.shuffle(['growing', 'decaying', 'negative', 'growing', 'decaying', 'negative', 'negative', 'growing']);
  kinds.forEach((kind, i) => {
    const n = rng.int(2, 6);
    const A = tensorArg(symmetric(rng, n, kind));
    const name = `hidden ${i + 1} (${kind}, n=${n})`;
    if (i % 2 === 0) {
      const v = tensorArg(Array.from({ length: n }, () => Math.round(rng.normal() * 1e4) / 1e4));
      cases.push({ fn: 'powerNorms', args: [A, v, rng.int(3, 15)], name });
    } else {
      cases.push({ fn: 'spectralRadius', args: [A], name });
    }
  });
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function norms(A, v, k) {
  const out = [tp.linalg.norm(v).item()];
  let x = v;
  for (let j = 1; j <= k; j++) { x = A.matmul(x); out.push(tp.linalg.norm(x).item()); }
  return out;
}
const eig = (A) => tp.linalg.eigvalsh(A).toArray();
export const mistakes = {
  powerNorms: [
    { hint: 'off by one: the list starts with ‖v‖ (j = 0) and ends with ‖Aᵏv‖, k + 1 numbers; ‖v‖ is missing',
      fn: (A, v, k) => norms(A, v, k).slice(1) },
    { hint: 'off by one: the list ends with ‖Aᵏv‖ (k + 1 numbers in all, from j = 0)',
      fn: (A, v, k) => norms(A, v, k).slice(0, k) },
    { hint: 'off by one: this goes one product too far; the last entry is ‖Aᵏv‖',
      fn: (A, v, k) => norms(A, v, k + 1) },
    { hint: 'this is the bound ‖A‖₂ʲ‖v‖ (or ρʲ‖v‖), not the actual length: multiply v by A step by step',
      fn: (A, v, k) => { const r = Math.max(...eig(A).map(Math.abs)); const n0 = tp.linalg.norm(v).item(); return Array.from({ length: k + 1 }, (_, j) => n0 * r ** j); } },
  ],
  spectralRadius: [
    { hint: 'this is the largest eigenvalue with its sign; the spectral radius takes absolute values: max |λ_i| (a negative λ can dominate)',
      fn: (A) => Math.max(...eig(A)) },
    { hint: 'this is the smallest |λ|; the spectral radius is the largest', fn: (A) => Math.min(...eig(A).map(Math.abs)) },
    { hint: 'this is the last eigenvalue returned; eigvalsh sorts them ascending, so take the largest |λ|, which may be the first',
      fn: (A) => eig(A)[eig(A).length - 1] },
  ],
};
