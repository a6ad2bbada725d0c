// Wrong: forgets to clip, returns grads[i] unchanged.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of grad-clip (trusted; runs in the judge's oracle worker, tp is a global).

// All gradients together are one long vector; its Euclidean length.
export function globalNorm(grads) {
  let sq = 0;
  for (const g of grads) sq += g.square().sum().item();
  return Math.sqrt(sq);
}

// One common factor for every gradient keeps the update's direction.
function clipGradient__ref(grads, i, maxNorm) {
  const c = Math.min(1, maxNorm / globalNorm(grads));
  return grads[i].mul(c);
}

// ---- mutation ----
// Wrong: forgets to clip, returns grads[i] unchanged.
export function clipGradient(grads, i, maxNorm) { return grads[i]; }
