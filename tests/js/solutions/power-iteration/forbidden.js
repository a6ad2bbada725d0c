// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function spectralNorm(A) {
  return tp.linalg.svdvals(A).toArray()[0];
}
export function topRightVector(A) {
  return tp.linalg.svd(A).Vh.select(0, 0);
}
