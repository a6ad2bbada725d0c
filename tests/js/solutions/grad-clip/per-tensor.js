// Wrong: adds up the norms of the tensors, and clips each tensor by its own norm.
const norm = (g) => g.square().sum().sqrt().item();
export function globalNorm(grads) { return grads.reduce((s, g) => s + norm(g), 0); }
export function clipGradient(grads, i, maxNorm) { return grads[i].mul(Math.min(1, maxNorm / norm(grads[i]))); }
