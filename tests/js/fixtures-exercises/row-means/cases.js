// Hidden cases of row-means, an exercise written in English only: labels and hints are plain English.
export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 3; i++) {
    const m = rng.int(2, 5);
    const n = rng.int(2, 5);
    cases.push({ fn: 'rowMeans', args: [tensorArg(rng.matrix(m, n))], label: `${m}×${n}` });
  }
  return cases;
}

export const mistakes = {
  rowMeans: [
    { hint: { en: 'this is the mean of each column; average along the last axis' }, fn: (A) => A.mean(0) },
    { hint: { en: 'this is the sum of each row; divide by the row length' }, fn: (A) => A.sum(-1) },
  ],
};
