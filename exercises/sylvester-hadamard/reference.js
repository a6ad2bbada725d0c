// Reference solution of sylvester-hadamard (trusted; runs in the judge's oracle worker, tp is a global).

// H_{2n} = [[H_n, H_n], [H_n, −H_n]]; Q = H_n / √n is orthogonal.
export function hadamard(n) {
  let H = [[1]];
  while (H.length < n) {
    H = [...H.map((row) => [...row, ...row]), ...H.map((row) => [...row, ...row.map((v) => -v)])];
  }
  return tp.tensor(H).div(Math.sqrt(n));
}

// x is (t, n): each token (row) is rotated, x Q.
export function hadamardRotate(x) {
  return x.matmul(hadamard(x.shape[1]));
}
