// Hidden cases of bilinear-rank. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// A d×dk factor of rank r: a product of d×r and r×dk Gaussian factors (r = dk for a full factor).
function factor(rng, d, dk, r) {
  const a = rng.matrix(d, r, 1, 6);
  const b = rng.matrix(r, dk, 1, 6);
  return a.map((row) => Array.from({ length: dk }, (_, j) => row.reduce((s, v, p) => s + v * b[p][j], 0)));
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const d = rng.int(4, 8);
    const dk = rng.int(2, d - 1);
    // every other rank case has a rank-deficient factor
    const rq = i % 4 === 3 ? rng.int(1, dk - 1) : dk;
    const rk = i % 4 === 1 && dk > 1 ? rng.int(1, dk - 1) : dk;
    const args = [tensorArg(factor(rng, d, dk, rq)), tensorArg(factor(rng, d, dk, rk))];
    cases.push({ fn: i % 2 === 0 ? 'bilinearForm' : 'formRank', args, label: `d=${d}, dk=${dk}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const rankOf = (M) => { const s = tp.linalg.svdvals(M).toArray(); return s.filter((x) => x > 1e-4 * s[0]).length; };
export const mistakes = {
  bilinearForm: [
    { hint: { en: 'this is W_K W_Qᵀ, the transpose of the form: with score(x, y) = (xW_Q)·(yW_K) the query factor comes first, M = W_Q W_Kᵀ',
              zh: '这是 W_K W_Qᵀ，即该双线性形式的转置：由 score(x, y) = (xW_Q)·(yW_K)，query 的因子在前，M = W_Q W_Kᵀ' },
      fn: (Wq, Wk) => Wk.matmul(Wq.T) },
    { hint: { en: 'W_Qᵀ W_K is a [dk, dk] matrix; the form acts on tokens of width d: M = W_Q W_Kᵀ is [d, d]',
              zh: 'W_Qᵀ W_K 是 [dk, dk] 矩阵；而该双线性形式作用在宽度为 d 的 token 上：M = W_Q W_Kᵀ 是 [d, d]' },
      fn: (Wq, Wk) => Wq.T.matmul(Wk) },
    { hint: { en: 'this is W_Q W_Qᵀ: a shared projection gives a symmetric form; the score uses W_K for the key',
              zh: '这是 W_Q W_Qᵀ：共用一个投影会得到对称的形式；分数里 key 用的是 W_K' },
      fn: (Wq) => Wq.matmul(Wq.T) },
  ],
  formRank: [
    { hint: { en: 'dk is only an upper bound: a factor of lower rank lowers the rank of the product; count the singular values',
              zh: 'dk 只是上界：某个因子的秩更低时，乘积的秩也会更低；要数奇异值的个数' },
      fn: (Wq) => Wq.shape[1] },
    { hint: { en: 'M is [d, d] but goes through width dk, so its rank is at most dk, not d',
              zh: 'M 是 [d, d]，但中间经过宽度 dk，所以它的秩至多为 dk，而不是 d' },
      fn: (Wq) => Wq.shape[0] },
    { hint: { en: 'this is the rank of one factor; the product can lose rank in either factor',
              zh: '这是其中一个因子的秩；乘积的秩可能因任一因子而降低' },
      fn: (Wq) => rankOf(Wq) },
  ],
};
