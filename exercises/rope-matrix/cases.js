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
    { hint: 'the block is transposed (this is R_{−pos}): with row vectors x R, the first row of each block is (cos, sin) and the second (−sin, cos)',
      fn: (pos, dim, theta) => rope(pos, dim, theta, { sign: -1 }) },
    { hint: 'the frequency of pair i is θ^(−2i/d), not θ^(−i/d): the exponent counts dimensions, two per pair',
      fn: (pos, dim, theta) => rope(pos, dim, theta, { exp: (i) => -i / dim }) },
    { hint: 'off by one in the frequencies: pair i = 0 turns with frequency 1 (θ⁰), so the exponent is −2i/d for i = 0 … d/2 − 1',
      fn: (pos, dim, theta) => rope(pos, dim, theta, { exp: (i) => -2 * (i + 1) / dim }) },
    { hint: 'this pairs dimension i with i + d/2 (the "rotate half" layout); here pairs are neighbours (2i, 2i + 1)',
      fn: (pos, dim, theta) => rope(pos, dim, theta, { halves: true }) },
  ],
  ropeScore: [
    { hint: 'both vectors were rotated by the same position: rotate q by R_m and k by R_n',
      fn: (q, k) => tp.matmul(q, k).item() },
    { hint: 'the score depends on m − n; this uses m + n (q R_{m+n} kᵀ): rotate q by R_m and k by R_n separately',
      fn: (q, k, m, n, theta) => score(q, k, rope(m + n, q.shape[0], theta), tp.eye(q.shape[0])) },
    { hint: 'q and k are rotated the wrong way (the transposed blocks): use the same R_p as ropeMatrix, with rows (cos, sin), (−sin, cos)',
      fn: (q, k, m, n, theta) => score(q, k, rope(m, q.shape[0], theta).T, rope(n, q.shape[0], theta).T) },
  ],
};
