// Hidden cases of linear-layer. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

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
      label: `[${B}, ${S}, ${dIn}] → dOut=${dOut}` });
  }
  for (let i = 0; i < 4; i++) {
    const m = rng.int(2, 6);
    let p = i === 3 ? m : rng.int(2, 6);
    if (i !== 3 && p === m) p++;
    cases.push({ fn: 'composedBias', args: [tensorArg(vec(rng, m)), tensorArg(rng.matrix(m, p, 1, 3)), tensorArg(vec(rng, p))],
      label: `m=${m}, p=${p}` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
export const mistakes = {
  linearLayer: [
    { hint: { en: 'the bias is missing: add b to every token',
              zh: '缺少偏置：每个 token 都要加上 b' },
      fn: (X, W) => X.matmul(W) },
    { hint: { en: 'W is used transposed: with tokens as rows, Y = XW where W is [dIn, dOut]',
              zh: 'W 被转置使用了：token 按行排列时 Y = XW，其中 W 的形状是 [dIn, dOut]' },
      fn: (X, W, b) => (W.shape[0] === W.shape[1] ? X.matmul(W.T).add(b) : null) },
    { hint: { en: 'the bias is added before the product (X + b)W; it is added to the output: XW + b',
              zh: '偏置加在了乘法之前 (X + b)W；它应加在输出上：XW + b' },
      fn: (X, W, b) => (W.shape[0] === W.shape[1] ? X.add(b).matmul(W) : null) },
  ],
  composedBias: [
    { hint: { en: 'b1 also goes through the second layer: the bias is b1·W2 + b2, not b1 + b2',
              zh: 'b1 也要经过第二层：合并后的偏置是 b1·W2 + b2，而不是 b1 + b2' },
      fn: (b1, W2, b2) => (b1.shape[0] === b2.shape[0] ? b1.add(b2) : null) },
    { hint: { en: 'b2 is missing: the second layer adds its own bias after b1·W2',
              zh: '缺少 b2：第二层在 b1·W2 之后还要加上它自己的偏置' },
      fn: (b1, W2) => b1.matmul(W2) },
    { hint: { en: 'W2 is used transposed: b1 is a row vector of length m and W2 is [m, p], so b1·W2 (not W2·b1)',
              zh: 'W2 被转置使用了：b1 是长度为 m 的行向量，W2 是 [m, p]，所以是 b1·W2（而不是 W2·b1）' },
      fn: (b1, W2, b2) => (W2.shape[0] === W2.shape[1] ? W2.matmul(b1).add(b2) : null) },
  ],
};
