// Wrong: forgets the relative part of the tolerance, and the square root of the error ratio.
export function allClose(a, b, atol, rtol) {
  return a.sub(b).abs().amax().item() <= atol;
}
export function relError(a, b) {
  return a.sub(b).square().sum().item() / b.square().sum().item();
}
