// Wrong: reshapes straight to the target shape in both directions, without moving the head axis.
export function splitHeads(x, heads) {
  const [B, S, H] = x.shape;
  return x.reshape([B, heads, S, H / heads]);
}
export function mergeHeads(x) {
  const [B, Nh, S, Dh] = x.shape;
  return x.reshape([B, S, Nh * Dh]);
}
export function headScores(Q, K) {
  return Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Q.shape[3]));
}
