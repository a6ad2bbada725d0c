// Wrong: tokenNorms is right; meanToken sums over the tokens but divides by H instead of S.
export function tokenNorms(x) { return x.square().sum(-1).sqrt(); }
export function meanToken(x) { return x.sum(1).div(x.shape[2]); }
