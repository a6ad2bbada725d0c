// Hidden cases of power-iteration. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Matrices with a known spectrum and a gap σ1 ≥ 1.3 σ2, so power iteration converges quickly.
function spectrum(rng, r) {
  const top = rng.uniform(0.5, 20);
  const s = [top, top / rng.uniform(1.3, 3)];
  while (s.length < r) s.push(s[s.length - 1] * rng.uniform(0.3, 0.95));
  return s;
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const m = rng.int(2, 8);
    const n = rng.int(2, 8);
    const A = rng.withSpectrum(m, n, spectrum(rng, Math.min(m, n)));
    cases.push({ fn: i % 2 === 0 ? 'spectralNorm' : 'topRightVector', args: [tensorArg(A)], name: `hidden ${i + 1} (${m}×${n})` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const s1 = (A) => tp.linalg.svdvals(A).toArray()[0];
export const mistakes = {
  spectralNorm: [
    { hint: 'this is σ1², the top eigenvalue of AᵀA (‖AᵀAx‖ for a unit x): take its square root, or use ‖Ax‖',
      fn: (A) => s1(A) ** 2 },
    { hint: 'this is the Frobenius norm √(Σ σ_i²); the spectral norm is the largest singular value alone',
      fn: (A) => tp.linalg.norm(A).item() },
    { hint: 'this is the largest absolute row sum (the ∞-norm), not the largest stretch ‖Ax‖ over unit x',
      fn: (A) => tp.linalg.norm(A, Infinity).item() },
  ],
  topRightVector: [
    { hint: 'this is a left singular vector (length m, direction in the output space); v1 lives in the input space, length n',
      fn: (A) => tp.linalg.svd(A).U.select(1, 0) },
  ],
};

// topRightVector is unique only up to sign: judged by length, unit norm and ‖Av‖ = σ1.
export const checks = {
  topRightVector({ args: [A], got }) {
    const v = tp.isTensor(got) ? got : tp.tensor(got);
    const norm = tp.linalg.norm(v).item();
    if (Math.abs(norm - 1) > 1e-3) return `not a unit vector: ‖v‖ = ${norm.toPrecision(5)} (divide by the norm after each step)`;
    const stretch = tp.linalg.norm(A.matmul(v)).item();
    const best = tp.linalg.svdvals(A).toArray()[0];
    if (stretch < best * (1 - 1e-3)) {
      return `‖Av‖ = ${stretch.toPrecision(5)} but σ1 = ${best.toPrecision(5)}: v is not the top right singular vector ` +
        '(iterate x ← AᵀAx / ‖AᵀAx‖ longer, or from a start that is not orthogonal to it)';
    }
    return null;
  },
};
