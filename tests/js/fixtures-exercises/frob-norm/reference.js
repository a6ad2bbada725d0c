// Reference of frob-norm, the exercise tests/js/judge-check.test.mjs breaks one thing at a time.
export function frobNorm(A) {
  return A.square().sum().sqrt().item();
}
