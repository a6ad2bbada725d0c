// Hidden cases of energy-curve. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Three kinds of spectra, like the chapter's figure: fast decay (nearly low rank), slow decay
// (like a pretrained weight), and a few strong directions over a noise floor (like K and V).
function spectrum(rng, kind, r) {
  if (kind === 'fast') { const q = rng.uniform(0.3, 0.5); return Array.from({ length: r }, (_, i) => 5 * q ** i); }
  if (kind === 'slow') { const q = rng.uniform(0.85, 0.95); return Array.from({ length: r }, (_, i) => 2 * q ** i); }
  const strong = rng.int(1, Math.max(1, Math.floor(r / 3)));
  return Array.from({ length: r }, (_, i) => (i < strong ? 6 - i : 0.6 * 0.9 ** i));
}

// The cumulative fractions of the spectrum we built (float64), to pick thresholds well inside a step.
function curveOf(s) {
  const total = s.reduce((a, x) => a + x * x, 0);
  let acc = 0;
  return s.map((x) => (acc += x * x) / total);
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  const kinds = ['fast', 'slow', 'spiky'];
  for (let i = 0; i < 10; i++) {
    const m = rng.int(4, 14);
    const n = rng.int(4, 14);
    const r = Math.min(m, n);
    const s = spectrum(rng, kinds[i % 3], r);
    const M = tensorArg(rng.withSpectrum(m, n, s));
    if (i % 2 === 0) {
      cases.push({ fn: 'energyCurve', args: [M] });
    } else {
      // a threshold strictly between two entries of the curve, so rounding cannot move the answer
      const e = curveOf(s);
      const steps = e.map((x, j) => [j, j === 0 ? x : x - e[j - 1]]).filter(([j, gap]) => j > 0 && gap > 0.01);
      const [j] = steps.length ? rng.pick(steps) : [r - 1];
      const lo = j === 0 ? 0 : e[j - 1];
      const mid = (lo + e[j]) / 2;
      const nice = Math.round(mid * 100) / 100;
      const frac = nice > lo + 0.002 && nice < e[j] - 0.002 ? nice : mid;
      cases.push({ fn: 'directionsFor', args: [M, frac] });
    }
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const sv = (M) => tp.linalg.svdvals(M).toArray();
const cumulative = (xs) => { let a = 0; return xs.map((x) => (a += x)); };
const normalized = (xs) => { const t = xs.reduce((a, x) => a + x, 0); return xs.map((x) => x / t); };
const firstReaching = (curve, frac) => { const k = curve.findIndex((e) => e >= frac); return k < 0 ? curve.length : k + 1; };
const squares = (M) => sv(M).map((x) => x * x);

export const mistakes = {
  energyCurve: [
    { hint: { en: 'this uses σ_i where the energy is σ_i²: square the singular values before summing',
              zh: '这里用了 σ_i，而能量是 σ_i²：求和前先把奇异值平方' },
      fn: (M) => cumulative(normalized(sv(M))) },
    { hint: { en: 'these are the shares σ_k² / Σσ² of single directions; the curve is cumulative: Σ_{i≤k} σ_i² / Σσ²',
              zh: '这是单个方向的占比 σ_k² / Σσ²；曲线应是累计的：Σ_{i≤k} σ_i² / Σσ²' },
      fn: (M) => normalized(squares(M)) },
    { hint: { en: 'the curve is not normalised: divide the running sum by the total Σσ² so it ends at 1',
              zh: '曲线没有归一化：累加和要除以总和 Σσ²，使最后一项为 1' },
      fn: (M) => cumulative(squares(M)) },
    { hint: { en: 'this is normalised by σ_1² instead of the total Σσ²',
              zh: '这里用 σ_1² 归一化了，应该用总和 Σσ²' },
      fn: (M) => { const q = squares(M); return cumulative(q).map((x) => x / q[0]); } },
  ],
  directionsFor: [
    { hint: { en: 'off by one: this counts the entries below frac; the answer is the first k (counting from 1) whose fraction reaches frac',
              zh: '差了一位：这里数的是低于 frac 的项数；答案是占比首次达到 frac 的那个 k（从 1 开始计数）' },
      fn: (M, frac) => firstReaching(cumulative(normalized(squares(M))), frac) - 1 },
    { hint: { en: 'off by one: return k itself, the number of directions, not k + 1',
              zh: '差了一位：返回 k 本身（方向的个数），不是 k + 1' },
      fn: (M, frac) => firstReaching(cumulative(normalized(squares(M))), frac) + 1 },
    { hint: { en: 'this measures σ_i instead of the energy σ_i²',
              zh: '这里衡量的是 σ_i，而不是能量 σ_i²' },
      fn: (M, frac) => firstReaching(cumulative(normalized(sv(M))), frac) },
  ],
};
