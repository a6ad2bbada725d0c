// Hidden cases of frob-norm, the exercise tests/js/judge-check.test.mjs breaks one thing at a time.
// A comment may name Math.random() without `tensorpad check` minding.

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 3; i++) {
    const m = rng.int(2, 4);
    const n = rng.int(2, 4);
    cases.push({ fn: 'frobNorm', args: [tensorArg(rng.matrix(m, n))], label: `${m}×${n}` });
  }
  // One nonzero entry: there the sum of the absolute values is the norm too.
  const one = [[0, 0], [rng.int(2, 9), 0]];
  cases.push({ fn: 'frobNorm', args: [tensorArg(one)], label: { en: 'one entry', zh: '一个元素' } });
  return cases;
}

export const mistakes = {
  frobNorm: [
    { hint: { en: 'this is the sum of squares; take its square root', zh: '这是平方和；还要开平方根' },
      fn: (A) => A.square().sum().item() },
    { hint: { en: 'this adds the absolute values; add the squares, then take the square root',
              zh: '这是绝对值之和；应先求平方和，再开平方根' },
      fn: (A) => A.abs().sum().item() },
  ],
};
