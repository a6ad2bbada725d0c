// Hidden cases of multi-head-attention. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  const headCounts = rng.shuffle([1, 2, 2, 3, 4]);
  for (const heads of headCounts) {
    const Dh = rng.pick([2, 3, 4]);
    const d = heads * Dh;
    const n = rng.int(2, 6);
    const w = () => tensorArg(rng.matrix(d, d, 1 / Math.sqrt(d) * rng.uniform(1.5, 2.5)));
    cases.push({ fn: 'multiHeadAttention', args: [tensorArg(rng.matrix(n, d, 1)), w(), w(), w(), w(), heads],
      label: `n=${n}, d=${d}, heads=${heads}` });
  }
  for (let i = 0; i < 4; i++) {
    const Nh = rng.int(2, 4);
    const Dh = rng.int(1, 4);
    const n = rng.int(1, 5);
    const d = rng.int(2, 7);
    const O = Array.from({ length: Nh }, () => rng.matrix(n, Dh, 1));
    cases.push({ fn: 'sumOverHeads', args: [tensorArg(O), tensorArg(rng.matrix(Nh * Dh, d, 1))], label: `Nh=${Nh}, n=${n}, Dh=${Dh}, d=${d}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function mha(X, Wq, Wk, Wv, Wo, heads, { scale, useWo = true, dim = -1, interleaved = false } = {}) {
  const Dh = X.shape[1] / heads;
  const s = scale ?? Math.sqrt(Dh);
  const [Q, K, V] = [Wq, Wk, Wv].map((W) => X.matmul(W));
  const outs = [];
  for (let h = 0; h < heads; h++) {
    // interleaved: head h as every heads-th column from h (a reshape to [n, Dh, heads]), not a block
    const columns = (M) => (interleaved
      ? tp.stack(Array.from({ length: Dh }, (_, j) => M.select(1, j * heads + h)), 1)
      : M.narrow(1, h * Dh, Dh));
    const [Qh, Kh, Vh] = [Q, K, V].map(columns);
    outs.push(tp.softmax(Qh.matmul(Kh.T).div(s), dim).matmul(Vh));
  }
  const Y = tp.cat(outs, 1);
  return useWo ? Y.matmul(Wo) : Y;
}
export const mistakes = {
  multiHeadAttention: [
    { hint: { en: 'the scores are divided by √d, the model width; each head divides by √Dh, its own width',
              zh: '分数除以了模型宽度 √d；每个头应除以自己的宽度 √Dh' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => (heads > 1 ? mha(X, Wq, Wk, Wv, Wo, heads, { scale: Math.sqrt(X.shape[1]) }) : null) },
    { hint: { en: 'the scores are not scaled: divide each head\'s Qh Khᵀ by √Dh before the softmax',
              zh: '分数没有缩放：每个头的 Qh Khᵀ 在 softmax 之前要除以 √Dh' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => mha(X, Wq, Wk, Wv, Wo, heads, { scale: 1 }) },
    { hint: { en: 'the heads are interleaved: head h owns the contiguous columns h·Dh … (h+1)·Dh − 1, not every heads-th column',
              zh: '各头被交错取列了：第 h 个头拥有连续的第 h·Dh … (h+1)·Dh − 1 列，而不是每隔 heads 列取一列' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => (heads > 1 ? mha(X, Wq, Wk, Wv, Wo, heads, { interleaved: true }) : null) },
    { hint: { en: 'W_O is missing: the concatenated heads must go through the output projection Wo',
              zh: '缺少 W_O：拼接后的各头还要经过输出投影 Wo' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => mha(X, Wq, Wk, Wv, Wo, heads, { useWo: false }) },
    { hint: { en: 'this is one head of width d: split Q, K and V into `heads` column blocks of width Dh = d / heads',
              zh: '这是一个宽度为 d 的单头：应把 Q、K、V 按列切成 `heads` 块，每块宽 Dh = d / heads' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => (heads > 1 ? mha(X, Wq, Wk, Wv, Wo, 1) : null) },
    { hint: { en: 'the softmax runs over the wrong axis: normalise each row (over the keys, dim −1)',
              zh: 'softmax 的维度错了：应对每一行归一化（沿 key 的方向，dim −1）' },
      fn: (X, Wq, Wk, Wv, Wo, heads) => mha(X, Wq, Wk, Wv, Wo, heads, { dim: 0 }) },
  ],
  sumOverHeads: [
    { hint: { en: 'head h uses ROWS h·Dh … (h+1)·Dh − 1 of Wo (a [Dh, d] block), so that O_h (n×Dh) can multiply it',
              zh: '第 h 个头用的是 Wo 的第 h·Dh … (h+1)·Dh − 1 行（一个 [Dh, d] 块），这样 O_h（n×Dh）才能与它相乘' },
      fn: (O, Wo) => { const [Nh, n, Dh] = O.shape; let Y = tp.zeros([n, Wo.shape[1]]); for (let h = 0; h < Nh; h++) { const idx = Array.from({ length: Dh }, (_, j) => j * Nh + h); Y = Y.add(O.select(0, h).matmul(tp.stack(idx.map((r) => Wo.select(0, r)), 0))); } return Y; } },
    { hint: { en: 'head h\'s block of Wo starts at row h·Dh, not at row h: narrow(0, h·Dh, Dh)',
              zh: '第 h 个头在 Wo 中的块从第 h·Dh 行开始，而不是第 h 行：narrow(0, h·Dh, Dh)' },
      fn: (O, Wo) => { const [Nh, n, Dh] = O.shape; let Y = tp.zeros([n, Wo.shape[1]]); for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h, Dh))); return Y; } },
    { hint: { en: 'this uses only the first head; the output is the SUM over all heads of O_h W_O^(h)',
              zh: '这里只用了第一个头；输出是所有头的 O_h W_O^(h) 之和' },
      fn: (O, Wo) => O.select(0, 0).matmul(Wo.narrow(0, 0, O.shape[2])) },
    { hint: { en: 'this averages the heads; the output is their sum',
              zh: '这里对各头取了平均；输出应是它们的和' },
      fn: (O, Wo) => { const [Nh, n, Dh] = O.shape; let Y = tp.zeros([n, Wo.shape[1]]); for (let h = 0; h < Nh; h++) Y = Y.add(O.select(0, h).matmul(Wo.narrow(0, h * Dh, Dh))); return Y.div(Nh); } },
  ],
};
