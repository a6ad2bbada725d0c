// Hidden cases of matmul-three-views. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  const fns = ['matmulByDots', 'matmulByColumns', 'matmulByOuter'];
  for (let i = 0; i < 9; i++) {
    const m = rng.int(1, 6);
    const k = i === 4 ? 1 : rng.int(2, 6);
    const n = i % 3 === 1 ? m : rng.int(1, 6);     // some square products (m = n)
    const kk = i >= 6 ? n : k;                     // and some with a square B (k = n)
    cases.push({ fn: fns[i % 3], args: [tensorArg(rng.matrix(m, kk, 1, 2)), tensorArg(rng.matrix(kk, n, 1, 2))],
      name: `hidden ${i + 1} ([${m}, ${kk}] @ [${kk}, ${n}])` });
  }
  return cases;
}

// ---- recognised mistakes (the same for the three views) ----
const offByOne = (A, B) => {
  const k = A.shape[1];
  return k < 2 ? null : A.narrow(1, 0, k - 1).matmul(B.narrow(0, 0, k - 1));
};
const common = [
  { hint: 'off by one: the sum runs over all k terms, p = 0 … k−1; the last one is missing', fn: offByOne },
  { hint: 'this uses the rows of B where its columns belong (B is transposed): C[i][j] pairs row i of A with column j of B',
    fn: (A, B) => (B.shape[0] === B.shape[1] ? A.matmul(B.T) : null) },
  { hint: 'the result is transposed: entry (i, j) belongs in row i, column j (stack the columns along dim 1)',
    fn: (A, B) => A.matmul(B).T },
  { hint: 'this multiplies elementwise; a matrix product sums over the shared axis k',
    fn: (A, B) => (A.shape.join() === B.shape.join() ? A.mul(B) : null) },
  { hint: 'the outer products pair column p of A with column p of B; pair it with row p of B',
    fn: (A, B) => (B.shape[0] === B.shape[1] ? A.matmul(B.T) : null) },
];
export const mistakes = {
  matmulByDots: common.slice(0, 4),
  matmulByColumns: common.slice(0, 4),
  matmulByOuter: [common[0], common[4], common[2], common[3]],
};
