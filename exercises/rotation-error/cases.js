// Hidden cases of rotation-error. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// Activations like an LLM's: most channels small, one or two channels with large outliers.
function activations(rng, n, d) {
  const X = rng.matrix(n, d, 1);
  const outliers = rng.shuffle([...Array(d).keys()]).slice(0, rng.int(1, 2));
  for (const c of outliers) {
    const gain = rng.uniform(20, 60);
    for (const row of X) row[c] = Math.round(row[c] * gain * 1e4) / 1e4;
  }
  return X;
}

// Weights whose rows have different magnitudes, so per-row scales matter.
function weights(rng, m, d) {
  return rng.matrix(m, d, 1).map((row) => { const g = 0.1 * 30 ** rng.next(); return row.map((v) => Math.round(v * g * 1e5) / 1e5); });
}

function hadamard(n) {
  let H = [[1]];
  while (H.length < n) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return H.map((r) => r.map((v) => v / Math.sqrt(n)));
}

function blockDiag(block, copies) {
  const b = block.length;
  const n = b * copies;
  return Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) =>
    (Math.floor(i / b) === Math.floor(j / b) ? block[i % b][j % b] : 0)));
}

const ROTATION_LABELS = {
  identity: { en: 'identity Q', zh: '单位矩阵 Q' },
  random: { en: 'random Q', zh: '随机正交 Q' },
  hadamard: { en: 'hadamard Q', zh: 'Hadamard Q' },
  'block-hadamard': { en: 'block-hadamard Q', zh: '分块 Hadamard Q' },
};

function rotation(rng, kind, d) {
  if (kind === 'identity') return Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j) => (i === j ? 1 : 0)));
  if (kind === 'hadamard') return hadamard(d);
  if (kind === 'block-hadamard') return blockDiag(hadamard(d / 4), 4);
  return rng.orthonormal(d, d);
}

export function generate({ rng, tensorArg }) {
  const cases = [];
  // fakeQuant: bit widths from 2 to 8, per tensor and per row, rows of very different scale
  for (let i = 0; i < 6; i++) {
    const rows = rng.int(2, 8);
    const cols = rng.int(3, 12);
    const bits = rng.pick([2, 3, 4, 6, 8]);
    const perRow = i % 2 === 1;
    const x = rng.matrix(rows, cols, 1).map((r) => { const g = 0.05 * 100 ** rng.next(); return r.map((v) => v * g); });
    if (i === 5) x[rng.int(0, rows - 1)].fill(0);          // a row of zeros stays zeros
    cases.push({ fn: 'fakeQuant', args: [tensorArg(x), bits, perRow], label: i === 5 ? { en: 'a zero row', zh: '一行全为 0' } : null });
  }
  // ties: values exactly halfway between two levels must round to the even level
  cases.push({ fn: 'fakeQuant', args: [tensorArg([[7, 4.5, -4.5, 0.5, -1.5], [2.5, -0.5, 3.5, -5.5, -7]]), 4, true],
    label: { en: 'ties', zh: '恰好居中的值' } });
  // the rotated W8A8 error with no rotation, a random orthogonal Q, a Hadamard and a block Hadamard
  const kinds = ['identity', 'random', 'hadamard', 'block-hadamard', 'random'];
  for (const kind of kinds) {
    const d = rng.pick([8, 16, 32]);
    const n = rng.int(8, 24);
    const m = rng.int(6, 16);
    cases.push({ fn: 'rotatedW8A8Error', label: ROTATION_LABELS[kind],
      args: [tensorArg(activations(rng, n, d)), tensorArg(weights(rng, m, d)), tensorArg(rotation(rng, kind, d))] });
  }
  // one outlier channel hundreds of times larger than the others, which the weights barely read: the 8-bit step
  // of XQ wipes out most of the product, so the error is large and ‖Ŷ‖ is far from ‖XWᵀ‖
  for (const kind of ['identity', 'random']) {
    const d = rng.pick([8, 16]);
    const n = rng.int(8, 16);
    const m = rng.int(6, 12);
    const X = rng.matrix(n, d, 1);
    const W = weights(rng, m, d);
    const c = rng.int(0, d - 1);
    const gain = rng.uniform(150, 300);
    for (const row of X) row[c] = Math.round((Math.sign(row[c]) || 1) * (1 + Math.abs(row[c])) * gain * 1e2) / 1e2;
    for (const row of W) row[c] = Math.round(row[c] * 0.01 * 1e6) / 1e6;
    cases.push({ fn: 'rotatedW8A8Error', label: HUGE_LABELS[kind], args: [tensorArg(X), tensorArg(W), tensorArg(rotation(rng, kind, d))] });
  }
  return cases;
}

const HUGE_LABELS = {
  identity: { en: 'a huge outlier, identity Q', zh: '一个巨大的离群值，单位矩阵 Q' },
  random: { en: 'a huge outlier, random Q', zh: '一个巨大的离群值，随机正交 Q' },
};

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function quant(x, bits, perRow, { qmax = 2 ** (bits - 1) - 1, round = (t) => t.round(), dequant = true } = {}) {
  const amax = perRow ? x.abs().amax(1, { keepdim: true }) : x.abs().amax();
  const scale = amax.div(qmax).clamp(1e-30, Infinity);
  const q = round(x.div(scale)).clamp(-qmax - 1, qmax);
  return dequant ? q.mul(scale) : q;
}
// Math.round-style rounding of ties (toward +∞), done in JS
const roundHalfUp = (t) => tp.tensor(Float32Array.from(t.data(), (v) => Math.floor(v + 0.5)), { shape: t.shape });
const truncate = (t) => tp.tensor(Float32Array.from(t.data(), Math.trunc), { shape: t.shape });
const relErr = (A, Y) => tp.linalg.norm(A.sub(Y)).item() / tp.linalg.norm(Y).item();

export const mistakes = {
  fakeQuant: [
    { hint: { en: 'this uses one scale for the whole tensor where perRow asks for one scale per row (max |x| of each row)',
              zh: 'perRow 要求每行一个 scale（每行的 max |x|），这里却对整个张量只用了一个 scale' },
      fn: (x, bits, perRow) => (perRow ? quant(x, bits, false) : null) },
    { hint: { en: 'this uses one scale per row where perRow is false: one scale, max |x| over the whole tensor',
              zh: 'perRow 为 false 时整个张量只用一个 scale（全张量的 max |x|），这里却每行用了一个' },
      fn: (x, bits, perRow) => (perRow ? null : quant(x, bits, true)) },
    { hint: { en: 'qmax is 2^(bits−1) − 1 for signed integers (127 for 8 bits), not 2^bits − 1',
              zh: '有符号整数的 qmax 是 2^(bits−1) − 1（8 位时为 127），不是 2^bits − 1' },
      fn: (x, bits, perRow) => quant(x, bits, perRow, { qmax: 2 ** bits - 1 }) },
    { hint: { en: 'ties are rounded up (like Math.round); round half to even: 2.5 → 2, 3.5 → 4, −0.5 → 0',
              zh: '恰好居中的值被向上舍入了（像 Math.round）；应舍入到最近的偶数：2.5 → 2，3.5 → 4，−0.5 → 0' },
      fn: (x, bits, perRow) => quant(x, bits, perRow, { round: roundHalfUp }) },
    { hint: { en: 'this truncates toward zero; round to the nearest level (ties to even)',
              zh: '这里是向零截断；应舍入到最近的量化级（居中时取偶数）' },
      fn: (x, bits, perRow) => quant(x, bits, perRow, { round: truncate }) },
    { hint: { en: 'these are the integer codes q; fakeQuant returns the dequantized values q · scale',
              zh: '这些是整数码 q；fakeQuant 应返回反量化后的值 q · scale' },
      fn: (x, bits, perRow) => quant(x, bits, perRow, { dequant: false }) },
  ],
  rotatedW8A8Error: [
    { hint: { en: 'this quantizes X and W without rotating them; quantize XQ and WQ',
              zh: '这里没有旋转就直接量化了 X 和 W；应量化 XQ 和 WQ' },
      fn: (X, W) => relErr(quant(X, 8, false).matmul(quant(W, 8, true).T), X.matmul(W.T)) },
    { hint: { en: 'only X is rotated: rotate both operands, (XQ)(WQ)ᵀ = XWᵀ',
              zh: '只旋转了 X：两个操作数都要旋转，(XQ)(WQ)ᵀ = XWᵀ' },
      fn: (X, W, Q) => relErr(quant(X.matmul(Q), 8, false).matmul(quant(W, 8, true).T), X.matmul(W.T)) },
    { hint: { en: 'the weights should be quantized per row (one scale per output channel), not per tensor',
              zh: '权重应逐行量化（每个输出通道一个 scale），而不是整个张量一个' },
      fn: (X, W, Q) => relErr(quant(X.matmul(Q), 8, false).matmul(quant(W.matmul(Q), 8, false).T), X.matmul(W.T)) },
    { hint: { en: 'the activations should use one scale for the whole tensor (per tensor), not one per row',
              zh: '激活应整个张量共用一个 scale（per-tensor），而不是每行一个' },
      fn: (X, W, Q) => relErr(quant(X.matmul(Q), 8, true).matmul(quant(W.matmul(Q), 8, true).T), X.matmul(W.T)) },
    { hint: { en: 'this divides by ‖Ŷ‖_F, the quantized product; the relative error divides by the exact ‖XWᵀ‖_F',
              zh: '这里除以的是量化后乘积的 ‖Ŷ‖_F；相对误差应除以精确结果的 ‖XWᵀ‖_F' },
      fn: (X, W, Q) => { const Yq = quant(X.matmul(Q), 8, false).matmul(quant(W.matmul(Q), 8, true).T); return relErr(Yq, X.matmul(W.T)) * tp.linalg.norm(X.matmul(W.T)).item() / tp.linalg.norm(Yq).item(); } },
    { hint: { en: 'this is the absolute error ‖Ŷ − Y‖_F; divide by ‖Y‖_F for the relative error',
              zh: '这是绝对误差 ‖Ŷ − Y‖_F；除以 ‖Y‖_F 才是相对误差' },
      fn: (X, W, Q) => tp.linalg.norm(quant(X.matmul(Q), 8, false).matmul(quant(W.matmul(Q), 8, true).T).sub(X.matmul(W.T))).item() },
  ],
};
