// Hidden cases of sylvester-hadamard. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (const n of rng.shuffle([1, 8, 16, 32, rng.pick([2, 64])])) cases.push({ fn: 'hadamard', args: [n] });
  for (let i = 0; i < 5; i++) {
    const n = rng.pick([4, 8, 16]);
    const t = i === 0 ? n : rng.int(1, 6);                      // one square x
    const x = rng.matrix(t, n, 1);
    const c = rng.int(0, n - 1);                                // an outlier channel
    for (const row of x) row[c] = Math.round(row[c] * rng.uniform(20, 60) * 1e4) / 1e4;
    cases.push({ fn: 'hadamardRotate', args: [tensorArg(x)] });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
function sylvester(n, grow = (H) => [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])]) {
  let H = [[1]];
  while (H.length < n) H = grow(H);
  return tp.tensor(H);
}
const signInBottomLeft = (H) => [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r.map((v) => -v), ...r])];
export const mistakes = {
  hadamard: [
    { hint: { en: 'not normalized: H_n H_nᵀ = nI, so divide the ±1 matrix by √n to make it orthogonal',
              zh: '没有归一化：H_n H_nᵀ = nI，所以要把 ±1 矩阵除以 √n，使其正交' },
      fn: (n) => (n > 1 ? sylvester(n) : null) },
    { hint: { en: 'divided by n; the rows of H_n have length √n, so divide by √n',
              zh: '这里除以了 n；H_n 每行的长度是 √n，所以应除以 √n' },
      fn: (n) => (n > 1 ? sylvester(n).div(n) : null) },
    { hint: { en: 'the minus sign belongs in the bottom-right block: H_{2n} = [[H, H], [H, −H]]',
              zh: '负号应在右下块：H_{2n} = [[H, H], [H, −H]]' },
      fn: (n) => sylvester(n, signInBottomLeft).div(Math.sqrt(n)) },
  ],
  hadamardRotate: [
    { hint: { en: 'not normalized: with the ±1 matrix every token grows by √n; use Q = H_n / √n',
              zh: '没有归一化：直接用 ±1 矩阵，每个 token 的长度会放大 √n 倍；应使用 Q = H_n / √n' },
      fn: (x) => x.matmul(sylvester(x.shape[1])) },
    { hint: { en: 'this rotates the columns (Q x); each token is a row, so multiply on the right: x Q',
              zh: '这里旋转的是列（Q x）；每个 token 是一行，所以要右乘：x Q' },
      fn: (x) => (x.shape[0] === x.shape[1] ? sylvester(x.shape[1]).div(Math.sqrt(x.shape[1])).matmul(x) : null) },
    { hint: { en: 'the minus sign belongs in the bottom-right block: H_{2n} = [[H, H], [H, −H]]',
              zh: '负号应在右下块：H_{2n} = [[H, H], [H, −H]]' },
      fn: (x) => x.matmul(sylvester(x.shape[1], signInBottomLeft).div(Math.sqrt(x.shape[1]))) },
  ],
};
