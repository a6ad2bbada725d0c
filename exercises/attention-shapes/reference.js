// Reference solution of attention-shapes (trusted; runs in the judge's oracle worker, tp is a global).

// x is (B, S, H) with H = heads·Dh; head h owns channels h·Dh … (h+1)·Dh − 1 of each token.
export function splitHeads(x, heads) {
  const [B, S, H] = x.shape;
  return x.reshape([B, S, heads, H / heads]).transpose(1, 2);   // (B, Nh, S, Dh)
}

// x is (B, Nh, S, Dh) → (B, S, Nh·Dh): move the head axis back next to Dh, then join them.
export function mergeHeads(x) {
  const [B, Nh, S, Dh] = x.shape;
  return x.transpose(1, 2).reshape([B, S, Nh * Dh]);
}

// Q is (B, Nh, Sq, Dh), K is (B, Nh, Sk, Dh) → (B, Nh, Sq, Sk), scaled by the head width.
export function headScores(Q, K) {
  const Dh = Q.shape[3];
  return Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Dh));
}
