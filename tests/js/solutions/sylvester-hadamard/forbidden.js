// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function hadamard(n) {
  return tp.linalg.hadamard(n);
}
export function hadamardRotate(x) {
  return x.matmul(tp.linalg.hadamard(x.shape[1]));
}
