// Reference solution of matmul-cost (trusted; runs in the judge's oracle worker).
// X is (B, S, dIn), W is (dIn, dOut), Y is (B, S, dOut).

const BYTES = { float32: 4, float16: 2, bfloat16: 2, int8: 1 };

export function linearFlops(B, S, dIn, dOut) {
  return 2 * B * S * dIn * dOut;   // one multiply and one add per term of every dot product
}

export function outputBytes(B, S, dOut, dtype) {
  return B * S * dOut * BYTES[dtype];
}
