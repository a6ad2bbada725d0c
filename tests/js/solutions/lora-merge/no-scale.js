// Wrong: forgets the α/r scaling in both functions.
export function loraMerge(W, A, B, alpha) { return W.add(B.matmul(A)); }
export function loraForward(x, W, A, B, alpha) { return x.matmul(W.T).add(x.matmul(A.T).matmul(B.T)); }
