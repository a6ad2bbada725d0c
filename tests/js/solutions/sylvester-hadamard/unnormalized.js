// Wrong: returns the ±1 matrix without dividing by √n.
function pm1(n) {
  let H = [[1]];
  while (H.length < n) H = [...H.map((r) => [...r, ...r]), ...H.map((r) => [...r, ...r.map((v) => -v)])];
  return tp.tensor(H);
}
export function hadamard(n) { return pm1(n); }
export function hadamardRotate(x) { return x.matmul(pm1(x.shape[1])); }
