// Hidden cases of numerical-rank. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// r strong directions in [0.05, 1]·scale and weak ones in [0.1, 0.5]·rtol·scale: on either side of the
// threshold by a factor of 2 or more, and strong enough that float32 resolves their energy.
export function generate({ rng, tensorArg }) {
  const cases = [];
  const scales = rng.shuffle([0.01, 0.1, 1, 100, 1e4, 0.01, 1e3, 10]);
  scales.forEach((scale, i) => {
    const m = rng.int(3, 8);
    const n = rng.int(3, 8);
    const p = Math.min(m, n);
    const r = rng.int(1, p - 1);
    const rtol = rng.pick([1e-3, 3e-3, 1e-2]);
    const s = [scale, ...Array.from({ length: r - 1 }, () => scale * rng.uniform(0.05, 0.9))].sort((a, b) => b - a);
    for (let j = r; j < p; j++) s.push(scale * rtol * rng.uniform(0.1, 0.5));
    const A = rng.withSpectrum(m, n, s, 14 - Math.round(Math.log10(scale)));
    cases.push({ fn: i % 2 === 0 ? 'numericalRank' : 'discardedEnergy', args: [tensorArg(A), rtol],
      label: `${m}×${n}, σ1 ≈ ${scale}` });
  });
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const sv = (A) => tp.linalg.svdvals(A).toArray();
export const mistakes = {
  numericalRank: [
    { hint: { en: 'the tolerance is relative: compare σ_i with rtol·σ_1, not with rtol itself',
              zh: '容差是相对的：应把 σ_i 与 rtol·σ_1 比较，而不是与 rtol 本身比较' },
      fn: (A, rtol) => sv(A).filter((x) => x > rtol).length },
    { hint: { en: 'σ_i > 0 counts the noise: in floating point almost no singular value is exactly 0; use σ_i > rtol·σ_1',
              zh: 'σ_i > 0 会把噪声也算进去：浮点运算中几乎没有奇异值恰好为 0；应使用 σ_i > rtol·σ_1' },
      fn: (A) => sv(A).filter((x) => x > 0).length },
    { hint: { en: 'this is min(m, n), the largest possible rank; count only the σ_i above rtol·σ_1',
              zh: '这是 min(m, n)，即秩可能的最大值；只应计数大于 rtol·σ_1 的 σ_i' },
      fn: (A) => Math.min(...A.shape) },
    { hint: { en: 'the default tolerance of matrixRank is tiny (σ1·max(m, n)·2⁻²³) and counts the noise; use rtol·σ_1',
              zh: 'matrixRank 的默认容差很小（σ1·max(m, n)·2⁻²³），会把噪声也算进去；应使用 rtol·σ_1' },
      fn: (A) => tp.linalg.matrixRank(A) },
  ],
  discardedEnergy: [
    { hint: { en: 'the energy of a direction is σ_i², not σ_i: square the singular values',
              zh: '一个方向的能量是 σ_i²，不是 σ_i：要把奇异值平方' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x, 0); return s.filter((x) => !(x > rtol * s[0])).reduce((a, x) => a + x, 0) / t; } },
    { hint: { en: 'the tolerance is relative: compare σ_i with rtol·σ_1, not with rtol itself',
              zh: '容差是相对的：应把 σ_i 与 rtol·σ_1 比较，而不是与 rtol 本身比较' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x * x, 0); return s.filter((x) => !(x > rtol)).reduce((a, x) => a + x * x, 0) / t; } },
    { hint: { en: 'this is the energy that is kept; return the discarded fraction (1 minus it)',
              zh: '这是保留下来的能量；应返回丢弃的比例（1 减去它）' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x * x, 0); return s.filter((x) => x > rtol * s[0]).reduce((a, x) => a + x * x, 0) / t; } },
  ],
};
