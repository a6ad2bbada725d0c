// Wrong: counts one flop per term (no factor 2) and returns bits instead of bytes.
const BITS = { float32: 32, float16: 16, bfloat16: 16, int8: 8 };
export function linearFlops(B, S, dIn, dOut) { return B * S * dIn * dOut; }
export function outputBytes(B, S, dOut, dtype) { return B * S * dOut * BITS[dtype]; }
