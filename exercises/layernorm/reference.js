// Reference solution of layernorm (trusted; runs in the judge's oracle worker, tp is a global).

// x is (..., H): each token is normalized with its own mean and biased variance.
export function layerNorm(x, gamma, beta, eps) {
  const mu = x.mean(-1, { keepdim: true });
  const centered = x.sub(mu);
  const variance = centered.square().mean(-1, { keepdim: true });
  return centered.div(variance.add(eps).sqrt()).mul(gamma).add(beta);
}

// x is (N, H): each channel is normalized over the N tokens of the batch.
export function batchNorm(x, eps) {
  const mu = x.mean(0, { keepdim: true });
  const centered = x.sub(mu);
  const variance = centered.square().mean(0, { keepdim: true });
  return centered.div(variance.add(eps).sqrt());
}
