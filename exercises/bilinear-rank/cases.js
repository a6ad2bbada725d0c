// Hidden cases of bilinear-rank. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// A d×dk factor of rank r: a product of d×r and r×dk Gaussian factors (r = dk for a full factor).
function factor(rng, d, dk, r, scale = 1) {
  const a = rng.matrix(d, r, 1, 6);
  const b = rng.matrix(r, dk, 1, 6);
  return a.map((row) => Array.from({ length: dk }, (_, j) => row.reduce((s, v, p) => s + v * b[p][j], 0) * scale));
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
  // Non-generic factors, each checked (and redrawn if needed) so that the shortcut differs from the rank of M.
  // The factors share fewer directions of the dk-wide middle space than their ranks: M = W_Q W_Kᵀ loses more
  // rank than either factor (rank W_Q = 3 > rank W_K = 2, rank M = 1).
  cases.push(drawn(rng, (d) => { const dk = rng.int(4, d - 1); return sharing(rng, d, dk, 3, 2, 1, false); },
    (Wq, Wk) => rankOf(Wq.matmul(Wk.T)) === 1 && rankOf(Wq) === 3 && rankOf(Wk) === 2 && rankOf(Wq.T.matmul(Wk)) === 2, tensorArg,
    { en: 'factors sharing one direction', zh: '两个因子只共用一个方向' }));
  // the same with column spaces in R^d that are partly orthogonal too: W_Qᵀ W_K has rank 1, as M
  cases.push(drawn(rng, (d) => { const dk = rng.int(3, d - 1); return sharing(rng, d, dk, 2, 2, 1, true); },
    (Wq, Wk) => rankOf(Wq.matmul(Wk.T)) === 1 && rankOf(Wq) === 2 && rankOf(Wk) === 2, tensorArg,
    { en: 'factors sharing one direction', zh: '两个因子只共用一个方向' }));
  // full-rank factors whose column spaces in R^d meet in one direction: W_Qᵀ W_K has rank 1, M rank dk
  cases.push(drawn(rng, (d) => {
    const dk = rng.int(2, Math.floor((d + 1) / 2));
    const Q = rng.orthonormal(d, 2 * dk - 1);
    return [mul(cols(Q, 0, dk), rng.matrix(dk, dk, 1, 6)), mul(cols(Q, dk - 1, 2 * dk - 1), rng.matrix(dk, dk, 1, 6))];
  }, (Wq, Wk) => rankOf(Wq.matmul(Wk.T)) === Wq.shape[1] && rankOf(Wq.T.matmul(Wk)) === 1, tensorArg,
  { en: 'column spaces partly orthogonal', zh: '列空间部分正交' }));
  // tiny and huge forms: the threshold is relative to σ1, so the scale changes nothing
  cases.push(drawn(rng, (d) => { const dk = rng.int(2, d - 1); return [factor(rng, d, dk, dk, 3e-4), factor(rng, d, dk, dk, 3e-4)]; },
    (Wq, Wk) => { const s = tp.linalg.svdvals(Wq.matmul(Wk.T)).toArray(); return s[0] < 1e-4 && rankOf(Wq.matmul(Wk.T)) === Wq.shape[1]; }, tensorArg,
    { en: 'M ≈ 1e-6', zh: 'M ≈ 1e-6' }));
  cases.push(drawn(rng, (d) => { const dk = rng.int(3, d - 1); return [factor(rng, d, dk, rng.int(1, dk - 1), 300), factor(rng, d, dk, dk, 300)]; },
    (Wq, Wk) => { const s = tp.linalg.svdvals(Wq.matmul(Wk.T)).toArray(); return s[0] > 1e4 && s.filter((x) => x > 1e-4).length > rankOf(Wq.matmul(Wk.T)); }, tensorArg,
    { en: 'M ≈ 1e5', zh: 'M ≈ 1e5' }));
  return cases;
}

const cols = (Q, from, to) => Q.map((row) => row.slice(from, to));
const mul = (a, b) => a.map((row) => b[0].map((_, j) => round6(row.reduce((s, v, p) => s + v * b[p][j], 0))));
const round6 = (x) => Number(x.toPrecision(7));

// W_Q = A·G_Q·U_Qᵀ and W_K = B·G_K·U_Kᵀ, where U_Q (dk×rq) and U_K (dk×rk) are orthonormal and share `shared`
// columns, so M = A G_Q (U_Qᵀ U_K) G_Kᵀ Bᵀ has rank `shared`. With `overlap`, A and B (d×r) share one column of
// an orthonormal basis of R^d and are orthogonal otherwise.
function sharing(rng, d, dk, rq, rk, shared, overlap) {
  const U = rng.orthonormal(dk, rq + rk - shared);
  const Uq = cols(U, 0, rq);
  const Uk = cols(U, rq - shared, rq - shared + rk);
  let A = rng.matrix(d, rq, 1, 6);
  let B = rng.matrix(d, rk, 1, 6);
  if (overlap) {
    const Qd = rng.orthonormal(d, rq + rk - 1);
    A = cols(Qd, 0, rq);
    B = cols(Qd, rq - 1, rq - 1 + rk);
  }
  const T = (X) => X[0].map((_, j) => X.map((row) => row[j]));
  return [mul(mul(A, rng.matrix(rq, rq, 1, 6)), T(Uq)), mul(mul(B, rng.matrix(rk, rk, 1, 6)), T(Uk))];
}

// One case drawn by make(d) and kept when ok(Wq, Wk) holds for the tensors (redrawn otherwise, at most 20 times).
function drawn(rng, make, ok, tensorArg, label) {
  let Wq, Wk, d;
  for (let tries = 0; tries < 20; tries++) {
    d = rng.int(5, 8);
    [Wq, Wk] = make(d);
    if (ok(tp.tensor(Wq), tp.tensor(Wk))) break;
  }
  return { fn: 'formRank', args: [tensorArg(Wq), tensorArg(Wk)], label: { en: `d=${d}, dk=${Wq[0].length}, ${label.en}`, zh: `d=${d}，dk=${Wq[0].length}，${label.zh}` } };
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
    { hint: { en: 'the threshold is relative: count the σ_i > 10⁻⁴·σ_1, not σ_i > 10⁻⁴ (the scale of M must not change its rank)',
              zh: '阈值是相对的：要数 σ_i > 10⁻⁴·σ_1 的个数，而不是 σ_i > 10⁻⁴（M 整体缩放不应改变它的秩）' },
      fn: (Wq, Wk) => tp.linalg.svdvals(Wq.matmul(Wk.T)).toArray().filter((x) => x > 1e-4).length },
    { hint: { en: 'this is the rank of W_Qᵀ W_K, the [dk, dk] core; M = W_Q W_Kᵀ can have another rank (when the column spaces of W_Q and W_K are partly orthogonal, W_Qᵀ W_K loses rank but M does not)',
              zh: '这是 [dk, dk] 的 W_Qᵀ W_K 的秩；M = W_Q W_Kᵀ 的秩可以不同（W_Q 和 W_K 的列空间部分正交时，W_Qᵀ W_K 的秩会降低，M 的秩却不会）' },
      fn: (Wq, Wk) => rankOf(Wq.T.matmul(Wk)) },
    { hint: { en: 'min(rank W_Q, rank W_K) is only an upper bound: when the directions the two factors use in the dk-wide middle are partly orthogonal, M = W_Q W_Kᵀ loses more rank; count the singular values of M',
              zh: 'min(rank W_Q, rank W_K) 只是上界：两个因子在中间 dk 维空间里用到的方向部分正交时，M = W_Q W_Kᵀ 的秩会更低；要数 M 的奇异值' },
      fn: (Wq, Wk) => Math.min(rankOf(Wq), rankOf(Wk)) },
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
