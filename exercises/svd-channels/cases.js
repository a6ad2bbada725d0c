// Hidden cases of svd-channels. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

function spectrum(rng, r) {
  const top = rng.uniform(2, 6);
  const ratio = rng.uniform(0.4, 0.7);
  return Array.from({ length: r }, (_, i) => top * ratio ** i);
}
const vec = (rng, n) => Array.from({ length: n }, () => Math.round(rng.normal() * 1e4) / 1e4);
const round = (M) => M.map((row) => row.map((v) => Math.round(v * 1e6) / 1e6));

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 4; i++) {
    const m = rng.int(2, 6);
    let n = rng.int(2, 6);
    if (n === m) n++;
    const r = Math.min(m, n);
    const U = round(rng.orthonormal(m, r));
    const V = round(rng.orthonormal(n, r));
    const S = spectrum(rng, r).map((s) => Math.round(s * 1e4) / 1e4);
    const Vh = V[0].map((_, i2) => V.map((row) => row[i2]));
    cases.push({ fn: 'applyChannels', args: [tensorArg(U), tensorArg(S), tensorArg(Vh), tensorArg(vec(rng, n))], label: `m=${m}, n=${n}` });
  }
  for (let i = 0; i < 5; i++) {
    const m = rng.int(3, 7);
    let n = rng.int(3, 7);
    if (n === m) n++;
    const r = Math.min(m, n);
    const k = rng.int(1, r - 1);
    cases.push({ fn: 'topChannels', args: [tensorArg(rng.withSpectrum(m, n, spectrum(rng, r))), tensorArg(vec(rng, n)), k],
      label: `${m}×${n}, k=${k}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const top = (A, x, k, f) => { const { U, S, Vh } = tp.linalg.svd(A); return f(U, S, Vh, x, k); };
export const mistakes = {
  applyChannels: [
    { hint: { en: 'the scaling is missing: multiply each read number v_i·x by σ_i before writing',
              zh: '缺少缩放：写出之前，要把每个读出的数 v_i·x 乘以 σ_i' },
      fn: (U, S, Vh, x) => U.matmul(Vh.matmul(x)) },
    { hint: { en: 'this reads with the columns of Vh; Vh is already Vᵀ, its ROWS are the read directions: Vh·x',
              zh: '这里用 Vh 的列来读；Vh 已经是 Vᵀ，它的行才是读取方向：Vh·x' },
      fn: (U, S, Vh, x) => (Vh.shape[0] === Vh.shape[1] ? U.matmul(Vh.T.matmul(x).mul(S)) : null) },
    { hint: { en: 'the write step uses Uᵀ; write along the columns u_i of U: U·(σ ∘ read)',
              zh: '写出这一步用了 Uᵀ；应沿 U 的列 u_i 写出：U·(σ ∘ read)' },
      fn: (U, S, Vh, x) => (U.shape[0] === U.shape[1] ? U.T.matmul(Vh.matmul(x).mul(S)) : null) },
  ],
  topChannels: [
    { hint: { en: 'off by one: this keeps k+1 channels; the k strongest are indices 0 … k−1',
              zh: '差了一位：这里保留了 k+1 个通道；最强的 k 个是索引 0 … k−1' },
      fn: (A, x, k) => top(A, x, k, (U, S, Vh) => U.narrow(1, 0, k + 1).matmul(Vh.narrow(0, 0, k + 1).matmul(x).mul(S.narrow(0, 0, k + 1)))) },
    { hint: { en: 'off by one: this keeps k−1 channels; the k strongest are indices 0 … k−1',
              zh: '差了一位：这里只保留了 k−1 个通道；最强的 k 个是索引 0 … k−1' },
      fn: (A, x, k) => (k > 1 ? top(A, x, k, (U, S, Vh) => U.narrow(1, 0, k - 1).matmul(Vh.narrow(0, 0, k - 1).matmul(x).mul(S.narrow(0, 0, k - 1)))) : null) },
    { hint: { en: 'these are the k weakest channels; S is sorted in descending order, keep the first k',
              zh: '这是最弱的 k 个通道；S 按降序排列，应保留前 k 个' },
      fn: (A, x, k) => top(A, x, k, (U, S, Vh) => { const r = S.shape[0]; return U.narrow(1, r - k, k).matmul(Vh.narrow(0, r - k, k).matmul(x).mul(S.narrow(0, r - k, k))); }) },
    { hint: { en: 'the singular values are missing: scale each channel by σ_i',
              zh: '缺少奇异值：每个通道要乘以 σ_i' },
      fn: (A, x, k) => top(A, x, k, (U, S, Vh) => U.narrow(1, 0, k).matmul(Vh.narrow(0, 0, k).matmul(x))) },
  ],
};
