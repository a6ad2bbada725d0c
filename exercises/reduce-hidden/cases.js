// Hidden cases of reduce-hidden. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

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
      label: `[B, S, H] = [${shape.join(', ')}]${i >= 6 ? ', S = H' : ''}` });
  }
  return cases;
}

// ---- recognised mistakes ----
export const mistakes = {
  tokenNorms: [
    { hint: { en: 'this is the squared length Σ x²: take the square root',
              zh: '这是长度的平方 Σ x²：要开平方' },
      fn: (x) => x.square().sum(-1) },
    { hint: { en: 'wrong axis: this reduces over S (dim 1); a token is a row along H, reduce dim -1',
              zh: '维度错了：这里沿 S（dim 1）归约；一个 token 是沿 H 的一行，应归约 dim -1' },
      fn: (x) => x.square().sum(1).sqrt() },
    { hint: { en: 'this adds |x| (the L1 norm); the length is sqrt(Σ x²)',
              zh: '这里累加的是 |x|（L1 范数）；长度是 sqrt(Σ x²)' },
      fn: (x) => x.abs().sum(-1) },
    { hint: { en: 'this is the root mean square (divided by H); the length is sqrt(Σ x²), without dividing',
              zh: '这是均方根（除以了 H）；长度是 sqrt(Σ x²)，不用除' },
      fn: (x) => x.square().mean(-1).sqrt() },
  ],
  meanToken: [
    { hint: { en: 'wrong axis: this averages over H, one number per token; average over the tokens (dim 1)',
              zh: '维度错了：这里沿 H 取平均，每个 token 得到一个数；应沿 token 方向（dim 1）取平均' },
      fn: (x) => x.mean(-1) },
    { hint: { en: 'this sums over the tokens but divides by H; the mean over S divides by S (x.shape[1]), as x.mean(1) does',
              zh: '这里沿 token 求和，却除以了 H；沿 S 求平均要除以 S（x.shape[1]），x.mean(1) 就是这样做的' },
      fn: (x) => (x.shape[1] !== x.shape[2] ? x.sum(1).div(x.shape[2]) : null) },
    { hint: { en: 'this averages over the batch (dim 0); average over the S tokens of each sequence (dim 1)',
              zh: '这里沿 batch（dim 0）取平均；应对每个序列的 S 个 token（dim 1）取平均' },
      fn: (x) => x.mean(0) },
    { hint: { en: 'this is the sum over the tokens; divide by S for the mean',
              zh: '这是对 token 的求和；除以 S 才是均值' },
      fn: (x) => x.sum(1) },
  ],
};
