// Wrong: returns the answers of the public examples whatever the input.
export function loraParams(dOut, dIn, r) {
  return dOut === 4096 ? 131072 : 294912;
}
export function loraFraction() {
  return 0.0078125;
}
