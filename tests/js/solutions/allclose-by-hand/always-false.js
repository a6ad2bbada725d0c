// Wrong: always false.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of allclose-by-hand (trusted; runs in the judge's oracle worker, tp is a global).

// |a − b| ≤ atol + rtol·|b| everywhere; b is the reference, so the relative part scales with |b|.
function allClose__ref(a, b, atol, rtol) {
  const x = a.data();
  const y = b.data();
  for (let i = 0; i < y.length; i++) {
    if (!(Math.abs(x[i] - y[i]) <= atol + rtol * Math.abs(y[i]))) return false;
  }
  return true;
}

export function relError(a, b) {
  const x = a.data();
  const y = b.data();
  let num = 0;
  let den = 0;
  for (let i = 0; i < y.length; i++) {
    num += (x[i] - y[i]) ** 2;
    den += y[i] ** 2;
  }
  return Math.sqrt(num / den);
}

// ---- mutation ----
// Wrong: always false.
export function allClose(a, b, atol, rtol) { return false; }
