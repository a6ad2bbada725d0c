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
  // Many nearly equal strong directions (k = 5 or 6), so ‖A‖_F ≈ √k·σ_1 (2.2 to 2.5 σ_1) and Σσ ≈ k·σ_1 (4.7 to
  // 6 σ_1), and weak ones above rtol·σ_1 (they count) that a threshold of rtol·‖A‖_F or rtol·Σσ would drop: in the
  // first case one at 1.3 to 1.8 and one at 3 to 4 times rtol·σ_1 (between the two wrong thresholds), in the
  // second one or two at 1.3 to 1.8; then weak ones well below rtol·σ_1 (they do not count).
  ['numericalRank', 'numericalRank', 'discardedEnergy'].forEach((fn, c) => {
    const m = rng.int(8, 10);
    const n = rng.int(8, 10);
    const k = rng.int(5, 6);
    const rtol = fn === 'discardedEnergy' ? 1e-3 : rng.pick([1e-3, 1e-2]);
    const scale = rng.pick([0.1, 1, 100]);
    const s = Array.from({ length: k }, (_, j) => scale * (j === 0 ? 1 : rng.uniform(0.95, 1)));
    if (c === 0) s.push(scale * rtol * rng.uniform(1.3, 1.8), scale * rtol * rng.uniform(3, 4));
    if (c === 1) for (let j = rng.int(1, 2); j > 0; j--) s.push(scale * rtol * rng.uniform(1.3, 1.8));
    while (s.length < Math.min(m, n)) s.push(scale * rtol * rng.uniform(0.1, 0.5));
    s.sort((a, b) => b - a);
    const A = rng.withSpectrum(m, n, s, 14 - Math.round(Math.log10(scale)));
    cases.push({ fn, args: [tensorArg(A), rtol], label: { en: `${m}×${n}, ${k} equal σ`, zh: `${m}×${n}，${k} 个相等的 σ` } });
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
    { hint: { en: 'the threshold is rtol·σ_1, the largest singular value, not rtol·‖A‖_F (the Frobenius norm √(Σ σ_i²) is larger when several σ_i are large)',
              zh: '阈值是 rtol·σ_1（最大的奇异值），不是 rtol·‖A‖_F（有好几个大奇异值时，Frobenius 范数 √(Σ σ_i²) 更大）' },
      fn: (A, rtol) => { const s = sv(A); const f = Math.hypot(...s); return s.filter((x) => x > rtol * f).length; } },
    { hint: { en: 'the threshold is rtol·σ_1, the largest singular value, not rtol·Σ σ_i',
              zh: '阈值是 rtol·σ_1（最大的奇异值），不是 rtol·Σ σ_i' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x, 0); return s.filter((x) => x > rtol * t).length; } },
  ],
  discardedEnergy: [
    { hint: { en: 'the energy of a direction is σ_i², not σ_i: square the singular values',
              zh: '一个方向的能量是 σ_i²，不是 σ_i：要把奇异值平方' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x, 0); return s.filter((x) => !(x > rtol * s[0])).reduce((a, x) => a + x, 0) / t; } },
    { hint: { en: 'the tolerance is relative: compare σ_i with rtol·σ_1, not with rtol itself',
              zh: '容差是相对的：应把 σ_i 与 rtol·σ_1 比较，而不是与 rtol 本身比较' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x * x, 0); return s.filter((x) => !(x > rtol)).reduce((a, x) => a + x * x, 0) / t; } },
    { hint: { en: 'this is the energy that is kept; return the discarded fraction: the sum of the σ_i² at or below rtol·σ_1 over the sum of all σ_i²',
              zh: '这是保留下来的能量；应返回丢弃的比例：不大于 rtol·σ_1 的 σ_i² 之和除以全部 σ_i² 之和' },
      fn: (A, rtol) => { const s = sv(A); const t = s.reduce((a, x) => a + x * x, 0); return s.filter((x) => x > rtol * s[0]).reduce((a, x) => a + x * x, 0) / t; } },
    { hint: { en: '1 − kept/total with float32 sums cancels: the discarded fraction is tiny next to 1, and a float32 sum keeps only about 7 digits (precision ≈ 6·10⁻⁸), so it is lost; sum the discarded σ_i² directly, as JS numbers (double), and divide by the total',
              zh: '用 float32 求和再算 1 − 保留/总和会发生抵消：丢弃的比例比 1 小得多，而 float32 的和只有约 7 位有效数字（精度约 6·10⁻⁸），这部分就丢了；应直接把被丢弃的 σ_i² 用 JS 数（双精度）相加，再除以总和' },
      fn: (A, rtol) => { const s2 = tp.linalg.svdvals(A).square(); const s = sv(A); const r = s.filter((x) => x > rtol * s[0]).length; return 1 - s2.narrow(0, 0, r).sum().item() / s2.sum().item(); } },
  ],
};
