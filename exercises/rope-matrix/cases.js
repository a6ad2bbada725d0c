// Hidden cases of rope-matrix. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 5; i++) {
    cases.push({ fn: 'ropeMatrix', args: [rng.int(1, 50), rng.pick([4, 6, 8, 12, 16]), rng.pick([10000, 500, 100, 1e6])] });
  }
  for (let i = 0; i < 5; i++) {
    const dim = rng.pick([4, 6, 8]);
    const vec = () => tensorArg(Array.from({ length: dim }, () => Math.round(rng.normal() * 1e4) / 1e4));
    const m = rng.int(0, 30);
    let n = rng.int(0, 30);
    if (n === m) n += 3;
    cases.push({ fn: 'ropeScore', args: [vec(), vec(), m, n, rng.pick([10000, 100, 50])] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function rope(pos, dim, theta, { sign = 1, exp = (i) => -2 * i / dim, halves = false } = {}) {
  const R = Array.from({ length: dim }, () => new Array(dim).fill(0));
  for (let i = 0; i < dim / 2; i++) {
    const a = pos * theta ** exp(i);
    const [c, s] = [Math.cos(a), sign * Math.sin(a)];
    const [p, r] = halves ? [i, i + dim / 2] : [2 * i, 2 * i + 1];
    R[p][p] = c; R[p][r] = s; R[r][p] = -s; R[r][r] = c;
  }
  return tp.tensor(R);
}
const score = (q, k, Rm, Rn) => tp.matmul(q.matmul(Rm), k.matmul(Rn)).item();
export const mistakes = {
  ropeMatrix: [
    { hint: { en: 'the block is transposed (this is R_{−pos}): with row vectors x R, the first row of each block is (cos, sin) and the second (−sin, cos)',
              zh: '旋转块被转置了（这是 R_{−pos}）：对行向量 x R，每个块的第一行是 (cos, sin)，第二行是 (−sin, cos)' },
      fn: (pos, dim, theta) => rope(pos, dim, theta, { sign: -1 }) },
    { hint: { en: 'the frequency of pair i is θ^(−2i/d), not θ^(−i/d): the exponent counts dimensions, two per pair',
              zh: '第 i 对的频率是 θ^(−2i/d)，不是 θ^(−i/d)：指数按维度计数，每对占两维' },
      fn: (pos, dim, theta) => rope(pos, dim, theta, { exp: (i) => -i / dim }) },
    { hint: { en: 'off by one in the frequencies: pair i = 0 turns with frequency 1 (θ⁰), so the exponent is −2i/d for i = 0 … d/2 − 1',
              zh: '频率差了一位：第 i = 0 对的频率是 1（θ⁰），所以指数是 −2i/d，i = 0 … d/2 − 1' },
      fn: (pos, dim, theta) => rope(pos, dim, theta, { exp: (i) => -2 * (i + 1) / dim }) },
    { hint: { en: 'this pairs dimension i with i + d/2 (the "rotate half" layout); here pairs are neighbours (2i, 2i + 1)',
              zh: '这里把第 i 维和第 i + d/2 维配成一对（"rotate half" 布局）；本题配对的是相邻的两维 (2i, 2i + 1)' },
      fn: (pos, dim, theta) => rope(pos, dim, theta, { halves: true }) },
  ],
  ropeScore: [
    { hint: { en: 'both vectors were rotated by the same position: rotate q by R_m and k by R_n',
              zh: '两个向量按同一个位置旋转了：q 要用 R_m 旋转，k 用 R_n 旋转' },
      fn: (q, k) => tp.matmul(q, k).item() },
    { hint: { en: 'the score depends on m − n; this uses m + n (q R_{m+n} kᵀ): rotate q by R_m and k by R_n separately',
              zh: '分数应只依赖 m − n；这里用的是 m + n（q R_{m+n} kᵀ）：q 用 R_m、k 用 R_n 分别旋转' },
      fn: (q, k, m, n, theta) => score(q, k, rope(m + n, q.shape[0], theta), tp.eye(q.shape[0])) },
    { hint: { en: 'this is q R_{n−m} kᵀ, the relative rotation the wrong way round (as with transposed blocks, or R_p q for column vectors): the score is (q R_m)(k R_n)ᵀ = q R_{m−n} kᵀ, with the R_p of ropeMatrix',
              zh: '这是 q R_{n−m} kᵀ，相对旋转的方向反了（相当于用了转置的块，或按列向量写成 R_p q）：分数是 (q R_m)(k R_n)ᵀ = q R_{m−n} kᵀ，R_p 与 ropeMatrix 相同' },
      fn: (q, k, m, n, theta) => score(q, k, rope(m, q.shape[0], theta).T, rope(n, q.shape[0], theta).T) },
  ],
};
