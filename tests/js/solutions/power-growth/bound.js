// Wrong: uses the bound ρʲ‖v‖ instead of multiplying v by A, and takes the last (largest signed) eigenvalue.
export function spectralRadius(A) {
  const lam = tp.linalg.eigvalsh(A).toArray();
  return lam[lam.length - 1];
}
export function powerNorms(A, v, k) {
  const rho = Math.max(...tp.linalg.eigvalsh(A).toArray().map(Math.abs));
  const n0 = tp.linalg.norm(v).item();
  return Array.from({ length: k + 1 }, (_, j) => n0 * rho ** j);
}
