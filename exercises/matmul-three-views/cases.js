// Hidden cases of matmul-three-views. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  const fns = ['matmulByDots', 'matmulByColumns', 'matmulByOuter'];
  for (let i = 0; i < 9; i++) {
    const m = rng.int(1, 6);
    const k = i === 4 ? 1 : rng.int(2, 6);
    const n = i % 3 === 1 ? m : rng.int(1, 6);     // some square products (m = n)
    const kk = i >= 6 ? n : k;                     // and some with a square B (k = n)
    cases.push({ fn: fns[i % 3], args: [tensorArg(rng.matrix(m, kk, 1, 2)), tensorArg(rng.matrix(kk, n, 1, 2))],
      label: `[${m}, ${kk}] @ [${kk}, ${n}]` });
  }
  return cases;
}

// ---- recognised mistakes (the same for the three views) ----
const offByOne = (A, B) => {
  const k = A.shape[1];
  return k < 2 ? null : A.narrow(1, 0, k - 1).matmul(B.narrow(0, 0, k - 1));
};
const common = [
  { hint: { en: 'off by one: the sum runs over all k terms, p = 0 … k−1; the last one is missing',
            zh: '差了一位：求和要覆盖全部 k 项，p = 0 … k−1；漏掉了最后一项' },
    fn: offByOne },
  { hint: { en: 'this uses the rows of B where its columns belong (B is transposed): C[i][j] pairs row i of A with column j of B',
            zh: '这里在该用 B 的列的地方用了 B 的行（B 被转置了）：C[i][j] 是 A 的第 i 行与 B 的第 j 列的配对' },
    fn: (A, B) => (B.shape[0] === B.shape[1] ? A.matmul(B.T) : null) },
  { hint: { en: 'the result is transposed: entry (i, j) belongs in row i, column j (stack the columns along dim 1)',
            zh: '结果被转置了：元素 (i, j) 应在第 i 行第 j 列（沿 dim 1 堆叠各列）' },
    fn: (A, B) => A.matmul(B).T },
  { hint: { en: 'this multiplies elementwise; a matrix product sums over the shared axis k',
            zh: '这是逐元素相乘；矩阵乘法要沿公共的 k 轴求和' },
    fn: (A, B) => (A.shape.join() === B.shape.join() ? A.mul(B) : null) },
  { hint: { en: 'the outer products pair column p of A with column p of B; pair it with row p of B',
            zh: '这里的外积把 A 的第 p 列和 B 的第 p 列配对了；应与 B 的第 p 行配对' },
    fn: (A, B) => (B.shape[0] === B.shape[1] ? A.matmul(B.T) : null) },
];
export const mistakes = {
  matmulByDots: common.slice(0, 4),
  matmulByColumns: common.slice(0, 4),
  matmulByOuter: [common[0], common[4], common[2], common[3]],
};
