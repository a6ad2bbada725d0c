// Hidden cases of power-growth. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// A symmetric matrix Q diag(λ) Qᵀ with chosen eigenvalues; 'negative' puts the largest |λ| below zero.
function symmetric(rng, n, kind) {
  const top = kind === 'decaying' ? rng.uniform(0.6, 0.95) : rng.uniform(1.05, 1.3);
  const lam = [top, ...Array.from({ length: n - 1 }, () => rng.uniform(-0.9, 0.9) * top)];
  if (kind === 'negative') lam[0] = -top;
  const Q = rng.orthonormal(n, n);
  return Q.map((_, i) => Q.map((__, j) => Math.round(lam.reduce((s, l, p) => s + Q[i][p] * l * Q[j][p], 0) * 1e6) / 1e6));
}

const KIND_ZH = { growing: '增长', decaying: '衰减', negative: '负特征值占主导' };

export function generate({ rng, tensorArg }) {
  const cases = [];
  const kinds = rng.shuffle(['growing', 'decaying', 'negative', 'growing', 'decaying', 'negative', 'negative', 'growing']);
  kinds.forEach((kind, i) => {
    const n = rng.int(2, 6);
    const A = tensorArg(symmetric(rng, n, kind));
    const label = { en: `${kind}, n=${n}`, zh: `${KIND_ZH[kind]}，n=${n}` };
    if (i % 2 === 0) {
      const v = tensorArg(Array.from({ length: n }, () => Math.round(rng.normal() * 1e4) / 1e4));
      cases.push({ fn: 'powerNorms', args: [A, v, rng.int(3, 15)], label });
    } else {
      cases.push({ fn: 'spectralRadius', args: [A], label });
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
    { hint: { en: 'off by one: the list starts with ‖v‖ (j = 0) and ends with ‖Aᵏv‖, k + 1 numbers; ‖v‖ is missing',
              zh: '差了一位：列表从 ‖v‖（j = 0）开始，到 ‖Aᵏv‖ 结束，共 k + 1 个数；漏了 ‖v‖' },
      fn: (A, v, k) => norms(A, v, k).slice(1) },
    { hint: { en: 'off by one: the list ends with ‖Aᵏv‖ (k + 1 numbers in all, from j = 0)',
              zh: '差了一位：列表以 ‖Aᵏv‖ 结尾（从 j = 0 起共 k + 1 个数）' },
      fn: (A, v, k) => norms(A, v, k).slice(0, k) },
    { hint: { en: 'off by one: this goes one product too far; the last entry is ‖Aᵏv‖',
              zh: '差了一位：这里多乘了一次；最后一项是 ‖Aᵏv‖' },
      fn: (A, v, k) => norms(A, v, k + 1) },
    { hint: { en: 'this is the bound ‖A‖₂ʲ‖v‖ (or ρʲ‖v‖), not the actual length: multiply v by A step by step',
              zh: '这是上界 ‖A‖₂ʲ‖v‖（或 ρʲ‖v‖），不是实际长度：要一步一步地用 A 去乘 v' },
      fn: (A, v, k) => { const r = Math.max(...eig(A).map(Math.abs)); const n0 = tp.linalg.norm(v).item(); return Array.from({ length: k + 1 }, (_, j) => n0 * r ** j); } },
  ],
  spectralRadius: [
    { hint: { en: 'this is the largest eigenvalue with its sign; the spectral radius takes absolute values: max |λ_i| (a negative λ can dominate)',
              zh: '这是带符号的最大特征值；谱半径取的是绝对值：max |λ_i|（负的 λ 也可能占主导）' },
      fn: (A) => Math.max(...eig(A)) },
    { hint: { en: 'this is the smallest |λ|; the spectral radius is the largest',
              zh: '这是最小的 |λ|；谱半径是最大的那个' },
      fn: (A) => Math.min(...eig(A).map(Math.abs)) },
    { hint: { en: 'this is the last eigenvalue returned; eigvalsh sorts them ascending, so take the largest |λ|, which may be the first',
              zh: '这是返回的最后一个特征值；eigvalsh 按升序排列，所以要取 |λ| 最大的那个，它可能是第一个' },
      fn: (A) => eig(A)[eig(A).length - 1] },
  ],
};
