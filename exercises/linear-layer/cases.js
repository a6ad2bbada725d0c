// Hidden cases of linear-layer. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

const vec = (rng, n) => Array.from({ length: n }, () => Math.round(rng.normal() * 1e3) / 1e3);

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 5; i++) {
    const dIn = rng.int(2, 6);
    let dOut = i === 4 ? dIn : rng.int(2, 6);
    if (i !== 4 && dOut === dIn) dOut++;
    const B = rng.int(1, 3);
    const S = rng.int(1, 4);
    const X = Array.from({ length: B }, () => rng.matrix(S, dIn, 1, 3));
    cases.push({ fn: 'linearLayer', args: [tensorArg(X), tensorArg(rng.matrix(dIn, dOut, 1, 3)), tensorArg(vec(rng, dOut))],
      name: `[${B}, ${S}, ${dIn}] → dOut=${dOut}` });
  }
  for (let i = 0; i < 4; i++) {
    const m = rng.int(2, 6);
    let p = i === 3 ? m : rng.int(2, 6);
    if (i !== 3 && p === m) p++;
    cases.push({ fn: 'composedBias', args: [tensorArg(vec(rng, m)), tensorArg(rng.matrix(m, p, 1, 3)), tensorArg(vec(rng, p))],
      name: `m=${m}, p=${p}` });
  }
  return cases.map((c, i) => ({ ...c, name: `hidden ${i + 1} (${c.name})` }));
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  linearLayer: [
    { hint: 'the bias is missing: add b to every token', fn: (X, W) => X.matmul(W) },
    { hint: 'W is used transposed: with tokens as rows, Y = XW where W is [dIn, dOut]',
      fn: (X, W, b) => (W.shape[0] === W.shape[1] ? X.matmul(W.T).add(b) : null) },
    { hint: 'the bias is added before the product (X + b)W; it is added to the output: XW + b',
      fn: (X, W, b) => (W.shape[0] === W.shape[1] ? X.add(b).matmul(W) : null) },
  ],
  composedBias: [
    { hint: 'b1 also goes through the second layer: the bias is b1·W2 + b2, not b1 + b2',
      fn: (b1, W2, b2) => (b1.shape[0] === b2.shape[0] ? b1.add(b2) : null) },
    { hint: 'b2 is missing: the second layer adds its own bias after b1·W2', fn: (b1, W2) => b1.matmul(W2) },
    { hint: 'W2 is used transposed: b1 is a row vector of length m and W2 is [m, p], so b1·W2 (not W2·b1)',
      fn: (b1, W2, b2) => (W2.shape[0] === W2.shape[1] ? W2.matmul(b1).add(b2) : null) },
  ],
};
