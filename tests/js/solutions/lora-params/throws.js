export function loraParams(dOut, dIn, r) {
  if (r > 0) throw new RangeError(`rank ${r} is not supported`);
  return 0;
}
export function loraFraction(dOut, dIn, r) {
  return loraParams(dOut, dIn, r) / (dOut * dIn);
}
