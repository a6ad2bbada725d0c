// Wrong: charges every rotation as a full d×d matrix, and compares with the first projection only.
export function onlineRotationFlops(tokens, d, b) { return 2 * tokens * d * d; }
export function rotationOverhead(d, outs) { return (2 * d * d) / (2 * d * outs[0]); }
