// Wrong: the squared length (no square root), and a sum over the tokens instead of their mean.
export function tokenNorms(x) { return x.square().sum(-1); }
export function meanToken(x) { return x.sum(1); }
