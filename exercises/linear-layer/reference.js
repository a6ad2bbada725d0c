// Reference solution of linear-layer (trusted; runs in the judge's oracle worker, tp is a global).

// X is (B, S, dIn), W is (dIn, dOut), b is (dOut): each token row times W, plus b.
export function linearLayer(X, W, b) {
  return X.matmul(W).add(b);
}

// (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2); b1 is (m), W2 is (m, p).
export function composedBias(b1, W2, b2) {
  return b1.matmul(W2).add(b2);
}
