// Hidden cases of block-hadamard-error. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// Activations with one or two outlier channels, as in an LLM's hidden states.
function activations(rng, n, d) {
  const X = rng.matrix(n, d, 1);
  for (const c of rng.shuffle([...Array(d).keys()]).slice(0, rng.int(1, 2))) {
    const gain = rng.uniform(20, 60);
    for (const row of X) row[c] = Math.round(row[c] * gain * 1e4) / 1e4;
  }
  return X;
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (const [d, b] of rng.shuffle([[8, 2], [16, 4], [8, 8], [32, 8], [12, 4]])) {
    cases.push({ fn: 'blockHadamard', args: [d, b] });
  }
  for (let i = 0; i < 5; i++) {
    const d = rng.pick([16, 32]);
    const b = rng.pick([2, 4, 8, d]);
    const n = rng.int(8, 20);
    const m = rng.int(4, 12);
    cases.push({ fn: 'w4a4Error', args: [tensorArg(activations(rng, n, d)), tensorArg(rng.matrix(m, d, 0.5)), b],
      label: { en: `d=${d}, blocks of ${b}`, zh: `d=${d}，块大小 ${b}` } });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function sylvester(b) {
  let H = [[1]];
  while (H.length < b) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return H;
}
function blocks(d, b, scale = 1 / Math.sqrt(b)) {
  const H = sylvester(b);
  return tp.tensor(Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) =>
    (Math.floor(i / b) === Math.floor(j / b) ? H[i % b][j % b] * scale : 0))));
}
const fq = (t, perRow = true) => tp.quant.fakeQuant(t, { bits: 4, perRow });
const err = (X, W, QX, QW, perRow) => tp.quant.relError(fq(X.matmul(QX), perRow).matmul(fq(W.matmul(QW), perRow).T), X.matmul(W.T));
const isPow2 = (v) => Number.isInteger(Math.log2(v));
export const mistakes = {
  blockHadamard: [
    { hint: { en: 'the blocks are not normalized: divide each ±1 block by √b so that Q is orthogonal',
              zh: '各块没有归一化：每个 ±1 块要除以 √b，Q 才是正交矩阵' },
      fn: (d, b) => blocks(d, b, 1) },
    { hint: { en: 'b is the size of each block, not the number of blocks: use d/b blocks of size b',
              zh: 'b 是每块的大小，不是块数：应使用 d/b 个大小为 b 的块' },
      fn: (d, b) => (d % b === 0 && isPow2(d / b) && d / b !== b ? blocks(d, d / b) : null) },
    { hint: { en: 'normalized by √d; each block is H_b/√b, scaled by its own size',
              zh: '这里用 √d 归一化了；每块是 H_b/√b，按自己的大小缩放' },
      fn: (d, b) => (b !== d ? blocks(d, b, 1 / Math.sqrt(d)) : null) },
  ],
  w4a4Error: [
    { hint: { en: 'the arguments of relError are swapped: relError(approx, exact) measures against the exact product XWᵀ',
              zh: 'relError 的两个参数反了：relError(approx, exact) 以精确乘积 XWᵀ 为基准' },
      fn: (X, W, b) => { const Q = blocks(X.shape[1], b); return tp.quant.relError(X.matmul(W.T), fq(X.matmul(Q), true).matmul(fq(W.matmul(Q), true).T)); } },
    { hint: { en: 'only X is rotated: rotate both operands, (XQ)(WQ)ᵀ = XWᵀ',
              zh: '只旋转了 X：两个操作数都要旋转，(XQ)(WQ)ᵀ = XWᵀ' },
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b), tp.eye(X.shape[1])) },
    { hint: { en: 'this quantizes without rotating; quantize XQ and WQ',
              zh: '这里没有旋转就量化了；应量化 XQ 和 WQ' },
      fn: (X, W) => err(X, W, tp.eye(X.shape[1]), tp.eye(X.shape[1])) },
    { hint: { en: 'W4A4 here uses one scale per ROW for both operands, not one per tensor',
              zh: '这里的 W4A4 对两个操作数都是每行一个 scale，而不是整个张量一个' },
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b), blocks(X.shape[1], b), false) },
    { hint: { en: 'the blocks are not normalized: divide each ±1 block by √b so that Q is orthogonal',
              zh: '各块没有归一化：每个 ±1 块要除以 √b，Q 才是正交矩阵' },
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b, 1), blocks(X.shape[1], b, 1)) },
    { hint: { en: 'b is the size of each block, not the number of blocks: use d/b blocks of size b',
              zh: 'b 是每块的大小，不是块数：应使用 d/b 个大小为 b 的块' },
      fn: (X, W, b) => { const d = X.shape[1]; return d / b !== b && isPow2(d / b) ? err(X, W, blocks(d, d / b), blocks(d, d / b)) : null; } },
  ],
};
