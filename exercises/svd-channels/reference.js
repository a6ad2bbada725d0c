// Reference solution of svd-channels (trusted; runs in the judge's oracle worker, tp is a global).

// U is (m, r), S is (r), Vh is (r, n), x is (n): read r numbers, scale each, write along the u_i.
export function applyChannels(U, S, Vh, x) {
  const read = Vh.matmul(x);          // v_i · x for every channel, (r)
  return U.matmul(read.mul(S));       // Σ_i u_i σ_i (v_i · x), (m)
}

export function topChannels(A, x, k) {
  const { U, S, Vh } = tp.linalg.svd(A);
  return applyChannels(U.narrow(1, 0, k), S.narrow(0, 0, k), Vh.narrow(0, 0, k), x);
}
