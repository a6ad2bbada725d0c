// Wrong: one tolerance from the largest |b| for every element; relError sums absolute values (a 1-norm).
export function allClose(a, b, atol, rtol) {
  return a.sub(b).abs().amax().item() <= atol + rtol * b.abs().amax().item();
}
export function relError(a, b) { return a.sub(b).abs().sum().item() / b.abs().sum().item(); }
