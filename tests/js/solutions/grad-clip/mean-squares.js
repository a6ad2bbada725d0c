// Wrong: the "global norm" averages each tensor's squares instead of summing them, so it comes out too small.
export function globalNorm(grads) { return Math.sqrt(grads.reduce((s, g) => s + g.square().mean().item(), 0)); }
export function clipGradient(grads, i, maxNorm) {
  const n = globalNorm(grads);
  return n > maxNorm ? grads[i].mul(maxNorm / n) : grads[i];
}
