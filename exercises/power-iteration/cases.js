// Hidden cases of power-iteration. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

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
    cases.push({ fn: i % 2 === 0 ? 'spectralNorm' : 'topRightVector', args: [tensorArg(A)], label: `${m}×${n}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const s1 = (A) => tp.linalg.svdvals(A).toArray()[0];
export const mistakes = {
  spectralNorm: [
    { hint: { en: 'this is σ1², the top eigenvalue of AᵀA (‖AᵀAx‖ for a unit x): take its square root, or use ‖Ax‖',
              zh: '这是 σ1²，即 AᵀA 的最大特征值（单位向量 x 的 ‖AᵀAx‖）：要开平方，或改用 ‖Ax‖' },
      fn: (A) => s1(A) ** 2 },
    { hint: { en: 'this iterates x ← Ax, which finds A\'s largest eigenvalue in size, not σ1; iterate with AᵀA (x ← AᵀAx), then take ‖A v1‖',
              zh: '这里迭代的是 x ← Ax，求出的是 A 绝对值最大的特征值，而不是 σ1；应该用 AᵀA 迭代（x ← AᵀAx），再取 ‖A v1‖' },
      fn: (A) => {
        if (A.shape[0] !== A.shape[1]) return null;
        let x = tp.tensor(Array.from({ length: A.shape[1] }, (_, i) => 1 + 0.37 * Math.sin(1 + 2.1 * i)));
        for (let it = 0; it < 300; it++) { const y = A.matmul(x); x = y.div(tp.linalg.norm(y).item()); }
        return tp.linalg.norm(A.matmul(x)).item();
      } },
    { hint: { en: 'this is the Frobenius norm √(Σ σ_i²); the spectral norm is the largest singular value alone',
              zh: '这是 Frobenius 范数 √(Σ σ_i²)；谱范数只是最大的那个奇异值' },
      fn: (A) => tp.linalg.norm(A).item() },
    { hint: { en: 'this is the largest absolute row sum (the ∞-norm), not the largest stretch ‖Ax‖ over unit x',
              zh: '这是各行绝对值之和的最大值（∞-范数），而不是单位向量 x 上 ‖Ax‖ 的最大拉伸' },
      fn: (A) => tp.linalg.norm(A, Infinity).item() },
  ],
  topRightVector: [
    { hint: { en: 'this is a left singular vector (length m, direction in the output space); v1 lives in the input space, length n',
              zh: '这是左奇异向量（长度 m，在输出空间中）；v1 在输入空间中，长度为 n' },
      fn: (A) => tp.linalg.svd(A).U.select(1, 0) },
  ],
};

// topRightVector is unique only up to sign: judged by length, unit norm and ‖Av‖ = σ1.
export const checks = {
  topRightVector({ args: [A], got }) {
    const v = tp.isTensor(got) ? got : tp.tensor(got);
    const norm = tp.linalg.norm(v).item();
    if (Math.abs(norm - 1) > 1e-3) {
      const n = norm.toPrecision(5);
      return { en: `not a unit vector: ‖v‖ = ${n} (divide by the norm after each step)`,
        zh: `不是单位向量：‖v‖ = ${n}（每一步之后都要除以范数）` };
    }
    const stretch = tp.linalg.norm(A.matmul(v)).item();
    const best = tp.linalg.svdvals(A).toArray()[0];
    if (stretch < best * (1 - 1e-3)) {
      const [got, s1] = [stretch.toPrecision(5), best.toPrecision(5)];
      return {
        en: `‖Av‖ = ${got} but σ1 = ${s1}: v is not the top right singular vector ` +
          '(iterate x ← AᵀAx / ‖AᵀAx‖ longer, or from a start that is not orthogonal to it)',
        zh: `‖Av‖ = ${got}，但 σ1 = ${s1}：v 不是最大的右奇异向量` +
          '（把 x ← AᵀAx / ‖AᵀAx‖ 多迭代一些次数，或换一个与它不正交的初始向量）',
      };
    }
    return null;
  },
};
