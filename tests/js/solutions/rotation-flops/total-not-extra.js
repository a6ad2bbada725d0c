// Wrong: onlineRotationFlops is right; rotationOverhead gives the whole cost over the projections
// (1 + the overhead) instead of the extra alone.
export function onlineRotationFlops(tokens, d, b) { return tokens * (d / b) * 2 * b * b; }
export function rotationOverhead(d, outs) {
  const p = outs.reduce((s, o) => s + 2 * d * o, 0);
  return (2 * d * d + p) / p;
}
