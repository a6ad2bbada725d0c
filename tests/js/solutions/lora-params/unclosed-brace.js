export function loraParams(dOut, dIn, r) {
  return r * (dOut + dIn);

export function loraFraction(dOut, dIn, r) {
  return loraParams(dOut, dIn, r) / (dOut * dIn);
}
