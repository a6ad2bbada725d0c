// Hidden cases of embedding-logits. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 5; i++) {
    const V = rng.int(5, 12);
    let d = rng.int(2, 6);
    if (d === V) d--;
    const n = rng.int(3, 7);
    const ids = Array.from({ length: n }, () => rng.int(0, V - 1));
    ids[rng.int(0, n - 1)] = i % 2 ? 0 : V - 1;            // the ends of the vocabulary
    ids[n - 1] = ids[0];                                   // a repeated id
    cases.push({ fn: 'embed', args: [tensorArg(rng.matrix(V, d, 1)), ids], name: `V=${V}, d=${d}, n=${n}` });
  }
  for (let i = 0; i < 5; i++) {
    const V = rng.int(4, 10);
    const d = rng.int(2, 6);
    const n = rng.int(2, 5);
    cases.push({ fn: 'nextTokenProbs', args: [tensorArg(rng.matrix(n, d, 1)), tensorArg(rng.matrix(d, V, 1))], name: `n=${n}, d=${d}, V=${V}` });
  }
  return cases.map((c, i) => ({ ...c, name: `hidden ${i + 1} (${c.name})` }));
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  embed: [
    { hint: 'off by one: ids count from 0, so id j is row j of E (not row j − 1)',
      fn: (E, ids) => (ids.every((id) => id >= 1) ? tp.stack(ids.map((id) => E.select(0, id - 1))) : null) },
    { hint: 'this takes columns of E; each id owns a ROW of the [V, d] table', fn: (E, ids) => (ids.every((id) => id < E.shape[1]) ? tp.stack(ids.map((id) => E.select(1, id))) : null) },
    { hint: 'the rows are in the wrong order: position i gets the row of ids[i]', fn: (E, ids) => tp.stack([...ids].reverse().map((id) => E.select(0, id))) },
  ],
  nextTokenProbs: [
    { hint: 'this uses the first position; the next token is predicted from the LAST row of H',
      fn: (H, W) => tp.softmax(H.select(0, 0).matmul(W), -1) },
    { hint: 'these are the logits z; apply a softmax to get probabilities', fn: (H, W) => H.select(0, -1).matmul(W) },
    { hint: 'this averages the positions; the next token is predicted from the last row of H only',
      fn: (H, W) => tp.softmax(H.mean(0).matmul(W), -1) },
  ],
};
