// Hidden cases of block-hadamard-error. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

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
      name: `hidden ${cases.length + 1} (d=${d}, blocks of ${b})` });
  }
  return cases.map((c, i) => ({ ...c, name: c.name ?? `hidden ${i + 1}` }));
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
    { hint: 'the blocks are not normalized: divide each ±1 block by √b so that Q is orthogonal',
      fn: (d, b) => blocks(d, b, 1) },
    { hint: 'b is the size of each block, not the number of blocks: use d/b blocks of size b',
      fn: (d, b) => (d % b === 0 && isPow2(d / b) && d / b !== b ? blocks(d, d / b) : null) },
    { hint: 'normalized by √d; each block is H_b/√b, scaled by its own size',
      fn: (d, b) => (b !== d ? blocks(d, b, 1 / Math.sqrt(d)) : null) },
  ],
  w4a4Error: [
    { hint: 'only X is rotated: rotate both operands, (XQ)(WQ)ᵀ = XWᵀ',
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b), tp.eye(X.shape[1])) },
    { hint: 'this quantizes without rotating; quantize XQ and WQ',
      fn: (X, W) => err(X, W, tp.eye(X.shape[1]), tp.eye(X.shape[1])) },
    { hint: 'W4A4 here uses one scale per ROW for both operands, not one per tensor',
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b), blocks(X.shape[1], b), false) },
    { hint: 'the blocks are not normalized: divide each ±1 block by √b so that Q is orthogonal',
      fn: (X, W, b) => err(X, W, blocks(X.shape[1], b, 1), blocks(X.shape[1], b, 1)) },
    { hint: 'b is the size of each block, not the number of blocks: use d/b blocks of size b',
      fn: (X, W, b) => { const d = X.shape[1]; return d / b !== b && isPow2(d / b) ? err(X, W, blocks(d, d / b), blocks(d, d / b)) : null; } },
  ],
};
