// Hidden cases of pre-post-norm. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 8; i++) {
    const n = rng.int(1, 5);
    const d = rng.int(2, 8);
    const scale = rng.pick([0.1, 3, 10, 30]);                // a stream far from unit RMS
    const H = rng.matrix(n, d, scale);
    const W = rng.matrix(d, d, 1 / Math.sqrt(d));
    const eps = rng.pick([1e-6, 1e-5, 1e-3]);
    cases.push({ fn: i % 2 === 0 ? 'preNormBlock' : 'postNormBlock', args: [tensorArg(H), tensorArg(W), eps],
      name: `hidden ${i + 1} (n=${n}, d=${d}, RMS ≈ ${scale})` });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const N = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt());
export const mistakes = {
  preNormBlock: [
    { hint: 'this is post-norm, Norm(H + HW); pre-norm normalizes the sublayer\'s INPUT: H + Norm(H)W',
      fn: (H, W, eps) => N(H.add(H.matmul(W)), eps) },
    { hint: 'the residual H is missing: the block adds the sublayer output to the stream, H + Norm(H)W',
      fn: (H, W, eps) => N(H, eps).matmul(W) },
    { hint: 'the residual adds the raw stream H, not Norm(H): H + Norm(H)W',
      fn: (H, W, eps) => N(H, eps).add(N(H, eps).matmul(W)) },
    { hint: 'this normalizes the sublayer\'s output, H + Norm(HW); normalize its input instead: H + Norm(H)W',
      fn: (H, W, eps) => H.add(N(H.matmul(W), eps)) },
  ],
  postNormBlock: [
    { hint: 'this is pre-norm, H + Norm(H)W; post-norm normalizes AFTER the residual addition: Norm(H + HW)',
      fn: (H, W, eps) => H.add(N(H, eps).matmul(W)) },
    { hint: 'the residual H is missing inside the norm: Norm(H + HW)', fn: (H, W, eps) => N(H.matmul(W), eps) },
    { hint: 'this normalizes the sublayer\'s output only, H + Norm(HW); post-norm normalizes the sum: Norm(H + HW)',
      fn: (H, W, eps) => H.add(N(H.matmul(W), eps)) },
  ],
};
