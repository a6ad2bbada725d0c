// Hidden cases of embedding-logits. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

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
    cases.push({ fn: 'embed', args: [tensorArg(rng.matrix(V, d, 1)), ids], label: `V=${V}, d=${d}, n=${n}` });
  }
  for (let i = 0; i < 5; i++) {
    const V = rng.int(4, 10);
    const d = rng.int(2, 6);
    const n = rng.int(2, 5);
    cases.push({ fn: 'nextTokenProbs', args: [tensorArg(rng.matrix(n, d, 1)), tensorArg(rng.matrix(d, V, 1))], label: `n=${n}, d=${d}, V=${V}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  embed: [
    { hint: { en: 'off by one: ids count from 0, so id j is row j of E (not row j − 1)',
              zh: '差了一位：id 从 0 开始，所以 id j 对应 E 的第 j 行（不是第 j − 1 行）' },
      fn: (E, ids) => (ids.every((id) => id >= 1) ? tp.stack(ids.map((id) => E.select(0, id - 1))) : null) },
    { hint: { en: 'this takes columns of E; each id owns a ROW of the [V, d] table',
              zh: '这里取的是 E 的列；在 [V, d] 的表中，每个 id 对应的是一行' },
      fn: (E, ids) => (ids.every((id) => id < E.shape[1]) ? tp.stack(ids.map((id) => E.select(1, id))) : null) },
    { hint: { en: 'the rows are in the wrong order: position i gets the row of ids[i]',
              zh: '行的顺序错了：位置 i 取 ids[i] 对应的那一行' },
      fn: (E, ids) => tp.stack([...ids].reverse().map((id) => E.select(0, id))) },
  ],
  nextTokenProbs: [
    { hint: { en: 'this uses the first position; the next token is predicted from the LAST row of H',
              zh: '这里用的是第一个位置；下一个 token 是由 H 的最后一行预测的' },
      fn: (H, W) => tp.softmax(H.select(0, 0).matmul(W), -1) },
    { hint: { en: 'these are the logits z; apply a softmax to get probabilities',
              zh: '这些是 logits z；要再做 softmax 才得到概率' },
      fn: (H, W) => H.select(0, -1).matmul(W) },
    { hint: { en: 'this averages the positions; the next token is predicted from the last row of H only',
              zh: '这里对各位置取了平均；下一个 token 只由 H 的最后一行预测' },
      fn: (H, W) => tp.softmax(H.mean(0).matmul(W), -1) },
  ],
};
