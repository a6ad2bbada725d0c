// Reference solution of power-growth (trusted; runs in the judge's oracle worker, tp is a global).

// A is (n, n), v is (n): ‖A^j v‖ for j = 0 … k by repeated matrix-vector products.
export function powerNorms(A, v, k) {
  const norms = [tp.linalg.norm(v).item()];
  let x = v;
  for (let j = 1; j <= k; j++) {
    x = A.matmul(x);
    norms.push(tp.linalg.norm(x).item());
  }
  return norms;
}

export function spectralRadius(A) {
  return Math.max(...tp.linalg.eigvalsh(A).toArray().map(Math.abs));
}
