// Wrong: both reductions run over the other axis (S for the norms, H for the mean).
export function tokenNorms(x) { return x.square().sum(1).sqrt(); }
export function meanToken(x) { return x.mean(-1); }
