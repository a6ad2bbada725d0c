// Reference solution of power-iteration (trusted; runs in the judge's oracle worker, tp is a global).
// A is (m, n); power iteration on AᵀA (n, n) converges to the top right singular vector v1.
// Lengths with x.norm(): the exercise forbids tp.linalg (svdvals or norm(A, 2) would answer in one call).

export function topRightVector(A) {
  const n = A.shape[1];
  const AtA = A.T.matmul(A);
  // a start with components along every direction (a plain ones vector could be orthogonal to v1)
  let x = tp.tensor(Array.from({ length: n }, (_, i) => 1 + 0.37 * Math.sin(1 + 2.1 * i)));
  for (let it = 0; it < 300; it++) {
    const y = AtA.matmul(x);
    x = y.div(y.norm().item());
  }
  return x;
}

export function spectralNorm(A) {
  return A.matmul(topRightVector(A)).norm().item();   // ‖A v1‖ = σ1
}
