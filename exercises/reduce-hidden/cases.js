// Hidden cases of reduce-hidden. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

function dims(rng, sameSH) {
  const [B, S, H] = rng.shuffle([2, 3, 4, 5, 6, 7]).slice(0, 3);   // three different sizes
  return sameSH ? [B, S, S] : [B, S, H];
}
const tensor3 = (rng, [B, S, H]) => Array.from({ length: B }, () => rng.matrix(S, H, rng.uniform(0.5, 3)));

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const shape = dims(rng, i >= 6);
    cases.push({ fn: i % 2 === 0 ? 'tokenNorms' : 'meanToken', args: [tensorArg(tensor3(rng, shape))],
      name: `hidden ${i + 1} ([B, S, H] = [${shape.join(', ')}]${i >= 6 ? ', S = H' : ''})` });
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  tokenNorms: [
    { hint: 'this is the squared length Σ x²: take the square root', fn: (x) => x.square().sum(-1) },
    { hint: 'wrong axis: this reduces over S (dim 1); a token is a row along H, reduce dim -1',
      fn: (x) => x.square().sum(1).sqrt() },
    { hint: 'this adds |x| (the L1 norm); the length is sqrt(Σ x²)', fn: (x) => x.abs().sum(-1) },
    { hint: 'this is the root mean square (divided by H); the length is sqrt(Σ x²), without dividing',
      fn: (x) => x.square().mean(-1).sqrt() },
  ],
  meanToken: [
    { hint: 'wrong axis: this averages over H, one number per token; average over the tokens (dim 1)',
      fn: (x) => x.mean(-1) },
    { hint: 'this averages over the batch (dim 0); average over the S tokens of each sequence (dim 1)',
      fn: (x) => x.mean(0) },
    { hint: 'this is the sum over the tokens; divide by S for the mean', fn: (x) => x.sum(1) },
  ],
};
