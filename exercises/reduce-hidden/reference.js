// Reference solution of reduce-hidden (trusted; runs in the judge's oracle worker, tp is a global).
// x is (B, S, H).

export function tokenNorms(x) {
  return x.square().sum(-1).sqrt();   // reduce H: one length per token, (B, S)
}

export function meanToken(x) {
  return x.mean(1);                   // reduce S: one vector per sequence, (B, H)
}
