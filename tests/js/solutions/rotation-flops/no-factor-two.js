// Wrong: counts one flop per multiply-add in the rotation, and returns the ratio the other way round.
export function onlineRotationFlops(tokens, d, b) { return tokens * (d / b) * b * b; }
export function rotationOverhead(d, outs) {
  return outs.reduce((s, o) => s + 2 * d * o, 0) / (2 * d * d);
}
