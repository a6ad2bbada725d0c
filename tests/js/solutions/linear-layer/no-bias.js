// Wrong: forgets the bias of the layer, and of the composition keeps only b1·W2.
export function linearLayer(X, W, b) { return X.matmul(W); }
export function composedBias(b1, W2, b2) { return b1.matmul(W2); }
