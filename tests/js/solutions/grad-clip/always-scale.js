// Wrong: the squared norm (no square root), and a factor maxNorm/‖g‖ applied even when it is above 1.
export function globalNorm(grads) { return grads.reduce((s, g) => s + g.square().sum().item(), 0); }
export function clipGradient(grads, i, maxNorm) {
  const n = Math.sqrt(grads.reduce((s, g) => s + g.square().sum().item(), 0));
  return grads[i].mul(maxNorm / n);
}
