// Reference of row-means, an exercise written in English only (tests of one-language authoring).
export function rowMeans(A) {
  return A.mean(-1);
}
