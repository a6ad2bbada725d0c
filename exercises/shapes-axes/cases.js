// Hidden cases of shapes-axes. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 9; i++) {
    const [B, S, H] = rng.shuffle([2, 3, 4, 5, 6]).slice(0, 3);
    const X = Array.from({ length: B }, () => rng.matrix(S, H, 1, 3));
    const label = `[B, S, H] = [${B}, ${S}, ${H}]`;
    if (i % 3 === 0) cases.push({ fn: 'tokenVector', args: [tensorArg(X), rng.int(0, B - 1), rng.int(0, S - 1)], label });
    if (i % 3 === 1) cases.push({ fn: 'featureTrack', args: [tensorArg(X), rng.int(0, B - 1), rng.int(0, H - 1)], label });
    if (i % 3 === 2) cases.push({ fn: 'lastTokens', args: [tensorArg(X)], label });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  tokenVector: [
    { hint: { en: 'b and s are swapped: b picks the sequence (axis 0), s the position (axis 1)',
              zh: 'b 和 s 弄反了：b 选择序列（轴 0），s 选择位置（轴 1）' },
      fn: (X, b, s) => (s < X.shape[0] && b < X.shape[1] ? X.select(0, s).select(0, b) : null) },
    { hint: { en: 'after select(0, b) the axes shift left: the position is then axis 0, not axis 1',
              zh: 'select(0, b) 之后各轴左移一位：此时位置是轴 0，不是轴 1' },
      fn: (X, b, s) => (s < X.shape[2] ? X.select(0, b).select(1, s) : null) },
  ],
  featureTrack: [
    { hint: { en: 'this fixes a position, not a feature: X[b, :, h] keeps the S positions and fixes feature h (the last axis)',
              zh: '这里固定的是位置，不是特征：X[b, :, h] 保留 S 个位置，固定的是特征 h（最后一维）' },
      fn: (X, b, h) => (h < X.shape[1] ? X.select(0, b).select(0, h) : null) },
    { hint: { en: 'this fixes the feature in every sequence (X[:, ?, h]); fix the sequence b first',
              zh: '这里在每个序列里都固定了特征（X[:, ?, h]）；应先固定序列 b' },
      fn: (X, b, h) => (b < X.shape[1] ? X.select(2, h).select(1, b) : null) },
  ],
  lastTokens: [
    { hint: { en: 'this is the first token of each sequence; the last is position S − 1 (index −1)',
              zh: '这是每个序列的第一个 token；最后一个在位置 S − 1（索引 −1）' },
      fn: (X) => X.select(1, 0) },
    { hint: { en: 'this is the last sequence of the batch (axis 0); the last token is on axis 1',
              zh: '这是 batch 中的最后一个序列（轴 0）；最后一个 token 在轴 1 上' },
      fn: (X) => X.select(0, -1) },
    { hint: { en: 'this is the last feature of each token (axis 2); the last token is on axis 1',
              zh: '这是每个 token 的最后一个特征（轴 2）；最后一个 token 在轴 1 上' },
      fn: (X) => X.select(2, -1) },
  ],
};
