// Hidden cases of basis-geometry. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

const r1 = (v) => Math.round(v * 1e3) / 1e3;
const KIND_LABELS = {
  shear: { en: 'shear', zh: '剪切' },
  rotation: { en: 'rotation', zh: '旋转' },
  reflection: { en: 'reflection', zh: '反射' },
  singular: { en: 'singular', zh: '奇异' },
  'general (negative)': { en: 'general (negative)', zh: '一般（行列式为负）' },
  general: { en: 'general', zh: '一般' },
};

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 5; i++) {
    const n = rng.int(2, 4);
    cases.push({ fn: 'imageOfBasis', args: [tensorArg(rng.matrix(n, n, 2, 2)), rng.int(0, n - 1)], label: `${n}×${n}` });
  }
  const t = rng.uniform(0.3, 2.8);
  const s = rng.uniform(0.5, 2);
  const kinds = {
    shear: [[1, r1(rng.uniform(0.5, 2))], [0, 1]],
    rotation: [[r1(Math.cos(t)), r1(-Math.sin(t))], [r1(Math.sin(t)), r1(Math.cos(t))]],
    reflection: [[r1(s), 0], [0, r1(-rng.uniform(0.5, 2))]],
    singular: [[r1(s), r1(2 * s)], [1, 2]],
    'general (negative)': [[r1(rng.uniform(-1, 1)), r1(rng.uniform(2, 3))], [r1(rng.uniform(2, 3)), r1(rng.uniform(-1, 1))]],
    general: rng.matrix(2, 2, 2, 2),
  };
  for (const [kind, W] of rng.shuffle(Object.entries(kinds))) {
    cases.push({ fn: 'det2', args: [tensorArg(W)], label: KIND_LABELS[kind] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  imageOfBasis: [
    { hint: { en: 'this is row i; with x ↦ Wx the basis vector e_i goes to COLUMN i of W',
              zh: '这是第 i 行；在 x ↦ Wx 下，基向量 e_i 被映射成 W 的第 i 列（不是第 i 行）' },
      fn: (W, i) => W.select(0, i) },
    { hint: { en: 'off by one: i counts from 0, so e_0 goes to the first column',
              zh: '差了一位：i 从 0 开始计数，所以 e_0 对应第一列' },
      fn: (W, i) => (i + 1 < W.shape[1] ? W.select(1, i + 1) : null) },
  ],
  det2: [
    { hint: { en: 'the determinant is ad − bc, not ad + bc',
              zh: '行列式是 ad − bc，不是 ad + bc' },
      fn: (W) => { const [[a, b], [c, d]] = W.toArray(); return a * d + b * c; } },
    { hint: { en: 'the sign matters: a negative determinant means orientation is flipped; do not take |ad − bc|',
              zh: '符号有意义：行列式为负表示定向被翻转；不要取 |ad − bc|' },
      fn: (W) => { const [[a, b], [c, d]] = W.toArray(); return Math.abs(a * d - b * c); } },
    { hint: { en: 'the sign is reversed: the determinant is ad − bc (the main diagonal first)',
              zh: '符号反了：行列式是 ad − bc（主对角线在前）' },
      fn: (W) => { const [[a, b], [c, d]] = W.toArray(); return b * c - a * d; } },
  ],
};
