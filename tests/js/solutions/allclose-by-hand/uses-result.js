// Wrong: scales the relative tolerance by the result |a| and divides the error by the result's norm.
export function allClose(a, b, atol, rtol) {
  const diff = a.sub(b).abs();
  return diff.sub(a.abs().mul(rtol).add(atol)).amax().item() <= 0;
}
export function relError(a, b) {
  return a.sub(b).square().sum().sqrt().item() / a.square().sum().sqrt().item();
}
