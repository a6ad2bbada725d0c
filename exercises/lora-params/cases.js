// Hidden cases of lora-params. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

// Layer widths of real models (LLaMA, Qwen, GPT-2 …) mixed with arbitrary ones, so that
// answers tuned to the two examples or to square matrices fail.
const WIDTHS = [768, 896, 1024, 2048, 3072, 4096, 5120, 8192, 11008, 13824, 14336];
const RANKS = [1, 2, 4, 8, 16, 32, 64, 128];

export function generate({ rng }) {
  const cases = [];
  for (let i = 0; i < 12; i++) {
    const real = i % 3 !== 2;
    let dOut = real ? rng.pick(WIDTHS) : rng.int(3, 6000);
    let dIn = real ? rng.pick(WIDTHS) : rng.int(3, 6000);
    if (dOut === dIn) dIn += 8 * rng.int(1, 64);             // most cases are not square
    if (i === 0) dIn = dOut;                                // but one is
    const r = i === 11 ? Math.min(dOut, dIn) : rng.pick(RANKS.filter((k) => k <= Math.min(dOut, dIn)));
    cases.push({ fn: i % 2 === 0 ? 'loraParams' : 'loraFraction', args: [dOut, dIn, r] });
  }
  return cases;
}

// Answers learners often give, recognised so the message can say what went wrong.
export const mistakes = {
  loraParams: [
    { hint: { en: 'this is r·dOut·dIn: B (dOut×r) and A (r×dIn) are two separate matrices, so their sizes add: r·dOut + r·dIn',
              zh: '这是 r·dOut·dIn：B（dOut×r）和 A（r×dIn）是两个独立的矩阵，参数量应相加：r·dOut + r·dIn' },
      fn: (dOut, dIn, r) => r * dOut * dIn },
    { hint: { en: 'this counts the same side twice (2·r·dIn or 2·r·dOut): B is dOut×r but A is r×dIn, which differ when W is not square',
              zh: '这里把同一边算了两次（2·r·dIn 或 2·r·dOut）：B 是 dOut×r，A 是 r×dIn，W 不是方阵时两者不同' },
      fn: (dOut, dIn, r) => 2 * r * dIn },
    { hint: { en: 'this counts the same side twice (2·r·dIn or 2·r·dOut): B is dOut×r but A is r×dIn, which differ when W is not square',
              zh: '这里把同一边算了两次（2·r·dIn 或 2·r·dOut）：B 是 dOut×r，A 是 r×dIn，W 不是方阵时两者不同' },
      fn: (dOut, dIn, r) => 2 * r * dOut },
    { hint: { en: 'this includes the frozen W (dOut·dIn); only B and A are trainable',
              zh: '这里把冻结的 W（dOut·dIn）也算进去了；可训练的只有 B 和 A' },
      fn: (dOut, dIn, r) => r * (dOut + dIn) + dOut * dIn },
    { hint: { en: 'this counts only one of the two factors (B is dOut×r, A is r×dIn)',
              zh: '这里只算了两个因子中的一个（B 是 dOut×r，A 是 r×dIn）' },
      fn: (dOut, dIn, r) => r * dOut },
    { hint: { en: 'this counts only one of the two factors (B is dOut×r, A is r×dIn)',
              zh: '这里只算了两个因子中的一个（B 是 dOut×r，A 是 r×dIn）' },
      fn: (dOut, dIn, r) => r * dIn },
  ],
  loraFraction: [
    { hint: { en: 'this is a percentage; return the fraction (0.0078125, not 0.78125)',
              zh: '这是百分数；要返回比例（0.0078125，不是 0.78125）' },
      fn: (dOut, dIn, r) => (100 * r * (dOut + dIn)) / (dOut * dIn) },
    { hint: { en: 'this is inverted: divide the LoRA parameters by the dOut·dIn entries of W',
              zh: '比例颠倒了：应该用 LoRA 参数量除以 W 的 dOut·dIn 个元素' },
      fn: (dOut, dIn, r) => (dOut * dIn) / (r * (dOut + dIn)) },
    { hint: { en: 'the LoRA count inside is r·dOut·dIn; B and A are separate matrices whose sizes add',
              zh: '其中的 LoRA 参数量算成了 r·dOut·dIn；B 和 A 是两个独立的矩阵，参数量应相加' },
      fn: (dOut, dIn, r) => (r * dOut * dIn) / (dOut * dIn) },
    { hint: { en: 'this counts one side twice (2·r·dIn): B is dOut×r but A is r×dIn',
              zh: '这里把一边算了两次（2·r·dIn）：B 是 dOut×r，而 A 是 r×dIn' },
      fn: (dOut, dIn, r) => (2 * r * dIn) / (dOut * dIn) },
  ],
};
