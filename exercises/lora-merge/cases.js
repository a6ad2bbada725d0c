// Hidden cases of lora-merge. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

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
    const name = `dOut=${dOut}, dIn=${dIn}, r=${r}, α=${alpha}`;
    cases.push(i % 2 === 0
      ? { fn: 'loraMerge', args: [W, A, B, alpha], name }
      : { fn: 'loraForward', args: [tensorArg(rng.matrix(rng.int(1, 4), dIn, 1)), W, A, B, alpha], name });
  }
  return cases.map((c, i) => ({ ...c, name: `hidden ${i + 1} (${c.name})` }));
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const merged = (W, A, B, s) => W.add(B.matmul(A).mul(s));
export const mistakes = {
  loraMerge: [
    { hint: 'the scaling α/r is missing: W + (α/r)·BA', fn: (W, A, B) => merged(W, A, B, 1) },
    { hint: 'the scale is α/r, not α·r', fn: (W, A, B, alpha) => merged(W, A, B, alpha * A.shape[0]) },
    { hint: 'the scale is α/r, not r/α', fn: (W, A, B, alpha) => merged(W, A, B, A.shape[0] / alpha) },
    { hint: 'the scale is α/r, not α alone: divide by the rank r (the number of rows of A)', fn: (W, A, B, alpha) => merged(W, A, B, alpha) },
    { hint: 'this is only the update (α/r)·BA; the merged weight adds it to the frozen W',
      fn: (W, A, B, alpha) => B.matmul(A).mul(alpha / A.shape[0]) },
  ],
  loraForward: [
    { hint: 'the scaling α/r is missing on the low-rank path',
      fn: (x, W, A, B) => x.matmul(W.T).add(x.matmul(A.T).matmul(B.T)) },
    { hint: 'the frozen path x Wᵀ is missing: the adapter adds to W, it does not replace it',
      fn: (x, W, A, B, alpha) => x.matmul(A.T).matmul(B.T).mul(alpha / A.shape[0]) },
    { hint: 'the scale is α/r, not α alone: divide by the rank r (the number of rows of A)',
      fn: (x, W, A, B, alpha) => x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha)) },
  ],
};
