// What the worked-example cells of the chapter "linear-algebra" print before the numbers and truths that
// tests/browser/chapter.test.mjs reads, in each language: one table per language, keyed by cell id, then by
// a name the check uses (the same names in both). Each label is text of that cell's source in that language
// (tests/js/chapter-labels.test.mjs checks it), so a label the chapter stops printing fails offline first.
export const LABELS = {
  en: {
    'dot-read': { u1h: 'u1·h =', u2h: 'u2·h =' },
    'dot-match': { qk1: 'q·k1 =', qk2: 'q·k2 =' },
    norms: { l1: '‖x‖₁ =', l2: '‖x‖₂ =', linf: '‖x‖∞ =' },
    'linear-row': { hW: 'hᵀW =' },
    'three-views': { agree: 'three views agree:' },
    'split-work': { rows: 'rows:', columns: ' columns:', splitK: ' split-K:' },
    'attn-scores': { rowSums: 'row sums:', fused: 'matches tp.nn.scaledDotProductAttention:' },
    'attn-mix': { mix: '0.2·v3 =' },
    bilinear: { same: 'QKᵀ == H B Hᵀ:', rank: 'with rank ', bound: '(≤ d_k = ' },
    'ab-outer': { a1b1: 'a1 b1ᵀ =', a2b2: 'a2 b2ᵀ =', sum: 'sum of outer products =' },
    'svd-2x2': { sigma: 'σ =', channels: 'channel 1 + channel 2 =' },
    'svd-channels-x': { sum: 'sum =' },
    truncate: { A1x: 'A1 x =' },
    // `rank ${k}: random ${percent}%`: the label is the text either side of k.
    'energy-random': { rank: 'rank ', random: ': random' },
    // `${p} parameters (${share}%)`
    'lora-count': { lora: 'LoRA', params: ' parameters (', percent: '%)' },
    'lora-merge': { merged: '== (W + (α/r) BA) x:' },
    rope: { orthogonal: 'R_3 orthogonal (R_3 R_3ᵀ == I):', relative: 'R_3ᵀ R_7 == R_4:' },
    'scale-dot': { wh: 'w·h =', wc: 'w·c =' },
    layernorm: { out: 'γ ⊙ ĥ + β =' },
    rmsnorm: { rms: 'RMS(h) =', normed: 'RMSNorm(h) =', scaled: 'RMSNorm(10h) =' },
    spectral: { norm2: '‖W‖₂ =' },
    collapse: { commute: 'AB == BA for two random 3×3:' },
    'solve-vs-inv': { inverse: 'A A⁻¹ == I:' },
    'kv-cache-query': { lastRow: 'last row of the full QKᵀ:' },
    'shared-qk': { sheAlice: 'she→Alice', sheShe: 'she→she', aliceShe: 'Alice→she' },
    'wo-two-heads': { head1: 'head 1 writes', head2: 'head 2 writes', fused: 'concat @ W_O' },
    rank2: { rankM: 'rank(M) =', random: 'rank of a random 3×5 =', product: 'rank of (5×2)(2×7) =' },
    'svd-lowrank': { sigmaErr: 'largest relative error in σ1..σ16:', full: 'rank-16 error ‖A − A16‖/‖A‖: full', low: ' lowrank' },
    'rotation-cost': {
      ratio: 'ratio',
      foldV: '(Z Vᵀ) Q == Z (Qᵀ V)ᵀ:',
      rmsQ: 'RMSNorm(xQ) == RMSNorm(x) Q:',
      withGamma: 'with γ: RMSNorm_γ(xQ) == RMSNorm_γ(x) Q:',
      folded: '== RMSNorm_γ(x) Wᵀ:',
    },
    clip: { newNorm: 'new norm' },
  },
  zh: {
    'dot-read': { u1h: 'u1·h =', u2h: 'u2·h =' },
    'dot-match': { qk1: 'q·k1 =', qk2: 'q·k2 =' },
    norms: { l1: '‖x‖₁ =', l2: '‖x‖₂ =', linf: '‖x‖∞ =' },
    'linear-row': { hW: 'hᵀW =' },
    'three-views': { agree: '三种视角一致：' },
    'split-work': { rows: '按行：', columns: ' 按列：', splitK: ' 切分 K：' },
    'attn-scores': { rowSums: '各行之和：', fused: '与 tp.nn.scaledDotProductAttention 一致：' },
    'attn-mix': { mix: '0.2·v3 =' },
    bilinear: { same: 'QKᵀ == H B Hᵀ:', rank: '秩为 ', bound: '（≤ d_k = ' },
    'ab-outer': { a1b1: 'a1 b1ᵀ =', a2b2: 'a2 b2ᵀ =', sum: '外积之和 =' },
    'svd-2x2': { sigma: 'σ =', channels: '通道 1 + 通道 2 =' },
    'svd-channels-x': { sum: '之和 =' },
    truncate: { A1x: 'A1 x =' },
    'energy-random': { rank: '秩 ', random: '：随机' },
    'lora-count': { lora: 'LoRA', params: ' 个参数（', percent: '%）' },
    'lora-merge': { merged: '== (W + (α/r) BA) x:' },
    rope: { orthogonal: 'R_3 正交（R_3 R_3ᵀ == I）：', relative: 'R_3ᵀ R_7 == R_4:' },
    'scale-dot': { wh: 'w·h =', wc: 'w·c =' },
    layernorm: { out: 'γ ⊙ ĥ + β =' },
    rmsnorm: { rms: 'RMS(h) =', normed: 'RMSNorm(h) =', scaled: 'RMSNorm(10h) =' },
    spectral: { norm2: '‖W‖₂ =' },
    collapse: { commute: '两个随机 3×3 矩阵 AB == BA：' },
    'solve-vs-inv': { inverse: 'A A⁻¹ == I:' },
    'kv-cache-query': { lastRow: '完整 QKᵀ 的最后一行：' },
    'shared-qk': { sheAlice: 'she→Alice', sheShe: 'she→she', aliceShe: 'Alice→she' },
    'wo-two-heads': { head1: '头 1 写入', head2: '头 2 写入', fused: 'concat @ W_O' },
    rank2: { rankM: 'rank(M) =', random: '随机 3×5 矩阵的秩 =', product: '(5×2)(2×7) 的秩 =' },
    'svd-lowrank': { sigmaErr: 'σ1..σ16 的最大相对误差：', full: '秩 16 的误差 ‖A − A16‖/‖A‖：完整', low: ' lowrank' },
    'rotation-cost': {
      ratio: '比值',
      foldV: '(Z Vᵀ) Q == Z (Qᵀ V)ᵀ:',
      rmsQ: 'RMSNorm(xQ) == RMSNorm(x) Q:',
      withGamma: '带 γ：RMSNorm_γ(xQ) == RMSNorm_γ(x) Q：',
      folded: '== RMSNorm_γ(x) Wᵀ:',
    },
    clip: { newNorm: '新范数' },
  },
};

/** The labels of cell `id` in `lang` (none for a cell whose check reads no label); reading a name the table
 *  lacks throws, so a typo fails as itself rather than as text missing from the page. */
export function labels(lang, id) {
  if (!LABELS[lang]) throw new Error(`no labels for language "${lang}" (tests/browser/chapter-labels.mjs)`);
  const table = LABELS[lang][id] ?? {};
  return new Proxy(table, {
    get(t, name) {
      if (typeof name === 'string' && !(name in t)) throw new Error(`cell "${id}" has no label "${name}" in ${lang}`);
      return t[name];
    },
  });
}
