// loraFraction is forgotten.
export function loraParams(dOut, dIn, r) {
  return r * (dOut + dIn);
}
