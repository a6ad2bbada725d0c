// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function matmulByDots(A, B) {
  return A.matmul(B);
}
export function matmulByColumns(A, B) {
  return tp.matmul(A, B);
}
export function matmulByOuter(A, B) {
  return A.matmul(B);
}
