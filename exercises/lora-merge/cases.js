// Hidden cases of lora-merge. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 10; i++) {
    const dOut = rng.int(3, 7);
    let dIn = rng.int(3, 7);
    if (dIn === dOut && i !== 0) dIn++;                        // one square W, the rest not
    const r = rng.int(1, 4);
    let alpha = rng.pick([1, 2, 4, 8, 16, 0.5]);
    if (alpha === r) alpha *= 2;                                // α/r ≠ 1, so a missing scale shows
    const W = tensorArg(rng.matrix(dOut, dIn, 1));
    const A = tensorArg(rng.matrix(r, dIn, 1));
    const B = tensorArg(rng.matrix(dOut, r, 1));
    const label = `dOut=${dOut}, dIn=${dIn}, r=${r}, α=${alpha}`;
    cases.push(i % 2 === 0
      ? { fn: 'loraMerge', args: [W, A, B, alpha], label }
      : { fn: 'loraForward', args: [tensorArg(rng.matrix(rng.int(1, 4), dIn, 1)), W, A, B, alpha], label });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const merged = (W, A, B, s) => W.add(B.matmul(A).mul(s));
export const mistakes = {
  loraMerge: [
    { hint: { en: 'the scaling α/r is missing: W + (α/r)·BA',
              zh: '缺少缩放系数 α/r：W + (α/r)·BA' },
      fn: (W, A, B) => merged(W, A, B, 1) },
    { hint: { en: 'the scale is α/r, not α·r',
              zh: '缩放系数是 α/r，不是 α·r' },
      fn: (W, A, B, alpha) => merged(W, A, B, alpha * A.shape[0]) },
    { hint: { en: 'the scale is α/r, not r/α',
              zh: '缩放系数是 α/r，不是 r/α' },
      fn: (W, A, B, alpha) => merged(W, A, B, A.shape[0] / alpha) },
    { hint: { en: 'the scale is α/r, not α alone: divide by the rank r (the number of rows of A)',
              zh: '缩放系数是 α/r，不只是 α：还要除以秩 r（即 A 的行数）' },
      fn: (W, A, B, alpha) => merged(W, A, B, alpha) },
    { hint: { en: 'this divides by B.shape[0], the output size d_out; r is the rank, the number of rows of A (A.shape[0])',
              zh: '这里除以的是 B.shape[0]，即输出维度 d_out；r 是秩，即 A 的行数（A.shape[0]）' },
      fn: (W, A, B, alpha) => (B.shape[0] !== A.shape[0] ? merged(W, A, B, alpha / B.shape[0]) : null) },
    { hint: { en: 'this is only the update (α/r)·BA; the merged weight adds it to the frozen W',
              zh: '这只是增量 (α/r)·BA；合并后的权重要把它加到冻结的 W 上' },
      fn: (W, A, B, alpha) => B.matmul(A).mul(alpha / A.shape[0]) },
  ],
  loraForward: [
    { hint: { en: 'the scaling α/r is missing on the low-rank path',
              zh: '低秩支路上缺少缩放系数 α/r' },
      fn: (x, W, A, B) => x.matmul(W.T).add(x.matmul(A.T).matmul(B.T)) },
    { hint: { en: 'the frozen path x Wᵀ is missing: the adapter adds to W, it does not replace it',
              zh: '缺少冻结支路 x Wᵀ：适配器是叠加在 W 上的，不是替换它' },
      fn: (x, W, A, B, alpha) => x.matmul(A.T).matmul(B.T).mul(alpha / A.shape[0]) },
    { hint: { en: 'the scale is α/r, not α alone: divide by the rank r (the number of rows of A)',
              zh: '缩放系数是 α/r，不只是 α：还要除以秩 r（即 A 的行数）' },
      fn: (x, W, A, B, alpha) => x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha)) },
  ],
};
