// Wrong: multiplies by Wᵀ (the torch nn.Linear layout, not this one), and adds the biases without passing b1 through W2.
export function linearLayer(X, W, b) { return X.matmul(W.T).add(b); }
export function composedBias(b1, W2, b2) { return b1.add(b2); }
