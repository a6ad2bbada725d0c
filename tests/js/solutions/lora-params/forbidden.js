// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function loraParams(dOut, dIn, r) {
  return tp.lora.params(dOut, dIn, r);
}
export function loraFraction(dOut, dIn, r) {
  return loraParams(dOut, dIn, r) / (dOut * dIn);
}
