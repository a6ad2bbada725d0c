// Deterministic benchmark inputs: uniform values in [-0.5, 0.5) from a seed, and their 16-bit weight bits.

/** Fills array with values in [-0.5, 0.5) from a linear congruential generator seeded by seed. */
export function randomFill(array, seed) {
  let s = seed >>> 0;
  for (let i = 0; i < array.length; ++i) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    array[i] = s / 4294967296 - 0.5;
  }
}

/**
 * float32 -> bfloat16 / float16 bits, truncating (random benchmark weights need no rounding): kind is 'bf16'
 * or 'f16'; values too small for f16 flush to 0, too large saturate to infinity.
 */
export function toHalfBits(values, kind) {
  const out = new Uint16Array(values.length);
  const u = new Uint32Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; ++i) {
    const b = u[i];
    if (kind === 'bf16') { out[i] = b >>> 16; continue; }
    const sign = (b >>> 16) & 0x8000, e = ((b >>> 23) & 0xff) - 112, mant = (b >>> 13) & 0x3ff;
    out[i] = e <= 0 ? sign : e >= 31 ? sign | 0x7c00 : sign | (e << 10) | mant;
  }
  return out;
}
