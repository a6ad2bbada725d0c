// Wrong: splitHeads and mergeHeads are right, but headScores scales by √S (the number of queries), not √Dh.
export function splitHeads(x, heads) {
  const [B, S, H] = x.shape;
  return x.reshape([B, S, heads, H / heads]).transpose(1, 2);
}
export function mergeHeads(x) {
  const [B, Nh, S, Dh] = x.shape;
  return x.transpose(1, 2).reshape([B, S, Nh * Dh]);
}
export function headScores(Q, K) {
  return Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Q.shape[2]));
}
