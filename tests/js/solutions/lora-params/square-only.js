// Wrong: assumes W is square (2·r·dIn), and reports a percentage.
export function loraParams(dOut, dIn, r) {
  return 2 * r * dIn;
}
export function loraFraction(dOut, dIn, r) {
  return (100 * r * (dOut + dIn)) / (dOut * dIn);
}
