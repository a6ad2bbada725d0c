// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function bilinearForm(Wq, Wk) {
  return Wq.matmul(Wk.T);
}
export function formRank(Wq, Wk) {
  return tp.linalg.matrixRank(bilinearForm(Wq, Wk));
}
