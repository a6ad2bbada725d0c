// Hidden cases of matmul-cost. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

const WIDTHS = [768, 896, 1024, 2048, 3072, 4096, 5120, 11008, 14336];
const DTYPES = ['float32', 'float16', 'bfloat16', 'int8'];

export function generate({ rng }) {
  const cases = [];
  const dtypes = rng.shuffle([...DTYPES, rng.pick(DTYPES)]);
  for (let i = 0; i < 10; i++) {
    const B = rng.int(1, 16);
    const S = rng.pick([1, 7, 128, 512, rng.int(2, 999)]);
    let dIn = i % 3 === 2 ? rng.int(3, 3000) : rng.pick(WIDTHS);
    const dOut = i % 3 === 2 ? rng.int(3, 3000) : rng.pick(WIDTHS);
    if (dIn === dOut) dIn += 64;                                        // not square, so dIn and dOut can't be swapped
    cases.push(i % 2 === 0
      ? { fn: 'linearFlops', args: [B, S, dIn, dOut] }
      : { fn: 'outputBytes', args: [B, S, dOut, dtypes[(i - 1) / 2]] });
  }
  return cases;
}

// ---- recognised mistakes ----
const BYTES = { float32: 4, float16: 2, bfloat16: 2, int8: 1 };
export const mistakes = {
  linearFlops: [
    { hint: { en: 'the factor 2 is missing: each term of a dot product is a multiplication AND an addition (2mkn)',
              zh: '少了系数 2：点积的每一项都包含一次乘法和一次加法（2mkn）' },
      fn: (B, S, dIn, dOut) => B * S * dIn * dOut },
    { hint: { en: 'this leaves out the batch or the sequence: there are B·S tokens, each needing 2·dIn·dOut flops',
              zh: '这里漏掉了 batch 或序列长度：共有 B·S 个 token，每个需要 2·dIn·dOut 次浮点运算' },
      fn: (B, S, dIn, dOut) => (B > 1 ? 2 * S * dIn * dOut : null) },
    { hint: { en: 'this leaves out the batch or the sequence: there are B·S tokens, each needing 2·dIn·dOut flops',
              zh: '这里漏掉了 batch 或序列长度：共有 B·S 个 token，每个需要 2·dIn·dOut 次浮点运算' },
      fn: (B, S, dIn, dOut) => (S > 1 ? 2 * B * dIn * dOut : null) },
  ],
  outputBytes: [
    { hint: { en: 'this is in bits; there are 8 bits in a byte (float32 is 4 bytes per element)',
              zh: '这是比特数；1 字节等于 8 比特（float32 每个元素 4 字节）' },
      fn: (B, S, dOut, dtype) => 8 * B * S * dOut * BYTES[dtype] },
    { hint: { en: 'the element size depends on dtype: 4 bytes for float32, 2 for float16 and bfloat16, 1 for int8',
              zh: '元素大小取决于 dtype：float32 为 4 字节，float16 和 bfloat16 为 2 字节，int8 为 1 字节' },
      fn: (B, S, dOut, dtype) => (dtype === 'float32' ? null : 4 * B * S * dOut) },
    { hint: { en: 'this is the number of elements; multiply by the bytes per element of dtype',
              zh: '这是元素个数；还要乘以 dtype 每个元素的字节数' },
      fn: (B, S, dOut) => B * S * dOut },
  ],
};
