// Hidden cases of low-rank-approx. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Matrices with known, well separated singular values (so the best rank-k approximation is unique).
function spectrum(rng, r) {
  const top = rng.uniform(3, 8);
  const ratio = rng.uniform(0.55, 0.8);
  return Array.from({ length: r }, (_, i) => top * ratio ** i);
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 10; i++) {
    const m = rng.int(3, 9);
    const n = i === 0 ? m : rng.int(3, 9);               // one square case, the rest mostly not
    const r = Math.min(m, n);
    const W = rng.withSpectrum(m, n, spectrum(rng, r));
    // k mostly strictly inside 1..r-1; one case keeps everything (error 0, W itself)
    const k = i === 9 ? r : rng.int(1, r - 1);
    cases.push({ fn: i % 2 === 0 ? 'lowRankApprox' : 'truncationError', args: [tensorArg(W), k] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function keep(W, idx) {
  const { U, S, Vh } = tp.linalg.svd(W);
  const s = S.toArray();
  let out = tp.zeros([W.shape[0], W.shape[1]]);
  for (const i of idx) {
    if (i < 0 || i >= s.length) continue;
    out = out.add(U.narrow(1, i, 1).mul(s[i]).matmul(Vh.narrow(0, i, 1)));
  }
  return out;
}
const range = (a, b) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
const sv = (W) => tp.linalg.svdvals(W).toArray();
const tailSum = (s, from, f) => s.slice(from).reduce((a, x) => a + f(x), 0);

export const mistakes = {
  lowRankApprox: [
    { hint: { en: 'this keeps k+1 singular values (off by one): indices 0..k-1 are the k largest',
              zh: '这里保留了 k+1 个奇异值（差了一位）：索引 0..k-1 才是最大的 k 个' },
      fn: (W, k) => keep(W, range(0, k + 1)) },
    { hint: { en: 'this keeps k-1 singular values (off by one): keep indices 0..k-1',
              zh: '这里只保留了 k-1 个奇异值（差了一位）：应保留索引 0..k-1' },
      fn: (W, k) => keep(W, range(0, k - 1)) },
    { hint: { en: 'this keeps the k smallest singular values; S is sorted in descending order, keep the first k',
              zh: '这里保留的是最小的 k 个奇异值；S 按降序排列，应保留前 k 个' },
      fn: (W, k) => { const r = sv(W).length; return keep(W, range(r - k, r)); } },
    { hint: { en: 'the singular values are missing: scale the columns of U[:, :k] by S[:k] before multiplying by Vh[:k, :]',
              zh: '缺少奇异值：先用 S[:k] 缩放 U[:, :k] 的各列，再乘以 Vh[:k, :]' },
      fn: (W, k) => { const { U, Vh } = tp.linalg.svd(W); return U.narrow(1, 0, k).matmul(Vh.narrow(0, 0, k)); } },
    { hint: { en: 'this uses the columns of Vh instead of its rows: Vh already holds Vᵀ, take Vh[:k, :]',
              zh: '这里用了 Vh 的列而不是行：Vh 已经是 Vᵀ，应取 Vh[:k, :]' },
      fn: (W, k) => { const { U, S, Vh } = tp.linalg.svd(W); return U.narrow(1, 0, k).mul(S.narrow(0, 0, k)).matmul(Vh.T.narrow(0, 0, k)); } },
  ],
  truncationError: [
    { hint: { en: 'this is the squared error Σ_{i>k} σ_i²: take the square root',
              zh: '这是误差的平方 Σ_{i>k} σ_i²：要开平方' },
      fn: (W, k) => tailSum(sv(W), k, (x) => x * x) },
    { hint: { en: 'this is σ_{k+1} alone (the spectral-norm error); the Frobenius error takes the whole tail √(σ_{k+1}² + …)',
              zh: '这只是 σ_{k+1}（谱范数下的误差）；Frobenius 范数误差要用整个尾部 √(σ_{k+1}² + …)' },
      fn: (W, k) => sv(W)[k] ?? 0 },
    { hint: { en: 'this adds the σ_i without squaring them: √(Σ_{i>k} σ_i²), not Σ σ_i',
              zh: '这里把 σ_i 直接相加，没有平方：应是 √(Σ_{i>k} σ_i²)，而不是 Σ σ_i' },
      fn: (W, k) => tailSum(sv(W), k, (x) => x) },
    { hint: { en: 'off by one: the tail starts at σ_{k+1} (index k), after the k values that are kept',
              zh: '差了一位：尾部从 σ_{k+1}（索引 k）开始，即保留的 k 个值之后' },
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k - 1, (x) => x * x)) },
    { hint: { en: 'off by one: the tail starts at σ_{k+1} (index k), after the k values that are kept',
              zh: '差了一位：尾部从 σ_{k+1}（索引 k）开始，即保留的 k 个值之后' },
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k + 1, (x) => x * x)) },
    { hint: { en: 'this is the relative error ‖W − W_k‖_F / ‖W‖_F; return the error itself',
              zh: '这是相对误差 ‖W − W_k‖_F / ‖W‖_F；应返回误差本身' },
      fn: (W, k) => Math.sqrt(tailSum(sv(W), k, (x) => x * x) / tailSum(sv(W), 0, (x) => x * x)) },
  ],
};

// lowRankApprox is judged by what makes W_k the answer (Eckart–Young), so any correct way to
// compute it passes: rank at most k, and an error ‖W − answer‖_F no larger than the optimal tail.
// A check returns null (pass) or its verdict, like a hint a string or { en, zh }.
export const checks = {
  lowRankApprox({ args: [W, k], got, want }) {
    const A = tp.isTensor(got) ? got : tp.tensor(got);
    const s = tp.linalg.svdvals(A).toArray();
    const rankTol = 1e-3 * Math.max(s[0], 1e-6) + 1e-4;
    const rank = s.filter((x) => x > rankTol).length;
    if (rank > k) {
      const sk = s[k].toPrecision(4);
      return {
        en: `your answer has rank ${rank} but a rank-${k} approximation was asked for (its singular value σ_${k + 1} = ${sk} should be 0)`,
        zh: `你的答案秩为 ${rank}，但题目要求秩 ${k} 的近似（它的奇异值 σ_${k + 1} = ${sk} 应为 0）`,
      };
    }
    const err = tp.linalg.norm(W.sub(A)).item();
    const best = tp.linalg.norm(W.sub(want)).item();
    if (err > best * 1.001 + 1e-3) {
      const [e, b] = [err.toPrecision(5), best.toPrecision(5)];
      return {
        en: `‖W − answer‖_F = ${e}, but the best rank-${k} approximation has error ${b} ` +
          `(Eckart–Young: √(σ_${k + 1}² + …)); keep the k largest singular values`,
        zh: `‖W − 答案‖_F = ${e}，但最优的秩 ${k} 近似误差为 ${b}` +
          `（Eckart–Young：√(σ_${k + 1}² + …)）；应保留最大的 k 个奇异值`,
      };
    }
    return null;
  },
};
