// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function allClose(a, b, atol, rtol) {
  return tp.allclose(a, b, { atol, rtol });
}
export function relError(a, b) {
  return tp.quant.relError(a, b);
}
