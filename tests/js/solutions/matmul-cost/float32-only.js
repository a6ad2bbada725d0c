// Wrong: forgets the batch in the flops, and assumes 4 bytes per element whatever the dtype.
export function linearFlops(B, S, dIn, dOut) { return 2 * S * dIn * dOut; }
export function outputBytes(B, S, dOut, dtype) { return 4 * B * S * dOut; }
