// Reference solution of rotation-flops (trusted; runs in the judge's oracle worker).

// d/b blocks, each a (1, b)·(b, b) product per token: 2b² flops, so 2·d·b per token in all.
export function onlineRotationFlops(tokens, d, b) {
  return tokens * (d / b) * 2 * b * b;
}

// One full rotation (2d² per token) against the projections d → outs[i] (2·d·outs[i] each).
export function rotationOverhead(d, outs) {
  const projections = outs.reduce((sum, o) => sum + 2 * d * o, 0);
  return (2 * d * d) / projections;
}
