// Wrong: divides by the norm of the quantized product instead of ‖XWᵀ‖.
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of rotation-error (trusted; runs in the judge's oracle worker, tp is a global).

// x is (rows, cols); symmetric quantization to signed `bits`-bit integers and back.
export function fakeQuant(x, bits, perRow) {
  const qmax = 2 ** (bits - 1) - 1;
  const amax = perRow ? x.abs().amax(1, { keepdim: true }) : x.abs().amax();
  // A row (or tensor) of zeros has scale 0; a tiny floor keeps it at zero instead of 0/0.
  const scale = amax.div(qmax).clamp(1e-30, Infinity);
  return x.div(scale).round().clamp(-qmax - 1, qmax).mul(scale);   // round() is half to even
}

// X is (tokens, d), W is (out, d), Q is (d, d) orthogonal. XWᵀ = (XQ)(WQ)ᵀ exactly, but the
// rotated operands have smaller outliers, so quantizing them loses less.
function rotatedW8A8Error__ref(X, W, Q) {
  const Y = X.matmul(W.T);
  const Xq = fakeQuant(X.matmul(Q), 8, false);   // activations: one scale for the tensor
  const Wq = fakeQuant(W.matmul(Q), 8, true);    // weights: one scale per output row
  const err = tp.linalg.norm(Xq.matmul(Wq.T).sub(Y)).item();
  return err / tp.linalg.norm(Y).item();
}

// ---- mutation ----
// Wrong: divides by the norm of the quantized product instead of ‖XWᵀ‖.
export function rotatedW8A8Error(X, W, Q) {
  const Y = X.matmul(W.T); const Yq = fakeQuant(X.matmul(Q), 8, false).matmul(fakeQuant(W.matmul(Q), 8, true).T);
  return tp.linalg.norm(Yq.sub(Y)).item() / tp.linalg.norm(Yq).item();
}
