// Wrong: returns only the update (α/r)·BA, and multiplies by α instead of α/r on the forward path.
export function loraMerge(W, A, B, alpha) { return B.matmul(A).mul(alpha / A.shape[0]); }
export function loraForward(x, W, A, B, alpha) { return x.matmul(W.T).add(x.matmul(A.T).matmul(B.T).mul(alpha)); }
