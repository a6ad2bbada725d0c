// Wrong: Norm(x) = x / (rms(x) + eps).
// ---- unmutated reference functions below, mutated ones appended ----
// Reference solution of pre-post-norm (trusted; runs in the judge's oracle worker, tp is a global).
// H is (n, d), W is (d, d); Norm is RMSNorm without a weight over each row.

const norm = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).add(eps).sqrt());

function preNormBlock__ref(H, W, eps) {
  return H.add(norm(H, eps).matmul(W));    // the sublayer reads a normalized copy; the stream is not normalized
}

function postNormBlock__ref(H, W, eps) {
  return norm(H.add(H.matmul(W)), eps);    // add first, then squeeze the stream back
}

// ---- mutation ----
// Wrong: Norm(x) = x / (rms(x) + eps).
const nrm = (x, eps) => x.div(x.square().mean(-1, { keepdim: true }).sqrt().add(eps));
export function preNormBlock(H, W, eps) { return H.add(nrm(H, eps).matmul(W)); }
export function postNormBlock(H, W, eps) { return nrm(H.add(H.matmul(W)), eps); }
