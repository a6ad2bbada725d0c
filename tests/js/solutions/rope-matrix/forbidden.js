// Wrong for this exercise: it calls the library function that does the whole job, which the exercise forbids.
export function ropeMatrix(pos, dim, theta) {
  return tp.nn.ropeMatrix(pos, dim, { theta });
}
export function ropeScore(q, k, m, n, theta) {
  return tp.nn.applyRope(q, [m], { theta }).mul(tp.nn.applyRope(k, [n], { theta })).sum().item();
}
