// Hidden cases of shapes-axes. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 9; i++) {
    const [B, S, H] = rng.shuffle([2, 3, 4, 5, 6]).slice(0, 3);
    const X = Array.from({ length: B }, () => rng.matrix(S, H, 1, 3));
    const name = `hidden ${i + 1} ([B, S, H] = [${B}, ${S}, ${H}])`;
    if (i % 3 === 0) cases.push({ fn: 'tokenVector', args: [tensorArg(X), rng.int(0, B - 1), rng.int(0, S - 1)], name });
    if (i % 3 === 1) cases.push({ fn: 'featureTrack', args: [tensorArg(X), rng.int(0, B - 1), rng.int(0, H - 1)], name });
    if (i % 3 === 2) cases.push({ fn: 'lastTokens', args: [tensorArg(X)], name });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  tokenVector: [
    { hint: 'b and s are swapped: b picks the sequence (axis 0), s the position (axis 1)',
      fn: (X, b, s) => (s < X.shape[0] && b < X.shape[1] ? X.select(0, s).select(0, b) : null) },
    { hint: 'after select(0, b) the axes shift left: the position is then axis 0, not axis 1',
      fn: (X, b, s) => (s < X.shape[2] ? X.select(0, b).select(1, s) : null) },
  ],
  featureTrack: [
    { hint: 'this fixes a position, not a feature: X[b, :, h] keeps the S positions and fixes feature h (the last axis)',
      fn: (X, b, h) => (h < X.shape[1] ? X.select(0, b).select(0, h) : null) },
    { hint: 'this fixes the feature in every sequence (X[:, ?, h]); fix the sequence b first',
      fn: (X, b, h) => (b < X.shape[1] ? X.select(2, h).select(1, b) : null) },
  ],
  lastTokens: [
    { hint: 'this is the first token of each sequence; the last is position S − 1 (index −1)', fn: (X) => X.select(1, 0) },
    { hint: 'this is the last sequence of the batch (axis 0); the last token is on axis 1', fn: (X) => X.select(0, -1) },
    { hint: 'this is the last feature of each token (axis 2); the last token is on axis 1', fn: (X) => X.select(2, -1) },
  ],
};
