export function loraParams(dOut, dIn, r) {
  let n = 0;
  while (true) n += r;
}
export function loraFraction() {
  return 0;
}
