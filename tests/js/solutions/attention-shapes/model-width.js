// Wrong: scales every head's scores by the model width √(Nh·Dh) instead of √Dh, and splits H as [Dh, Nh].
export function splitHeads(x, heads) {
  const [B, S, H] = x.shape;
  return x.reshape([B, S, H / heads, heads]).permute(0, 3, 1, 2);
}
export function mergeHeads(x) {
  const [B, Nh, S, Dh] = x.shape;
  return x.transpose(1, 2).reshape([B, S, Nh * Dh]);
}
export function headScores(Q, K) {
  const [, Nh, , Dh] = Q.shape;
  return Q.matmul(K.transpose(-2, -1)).div(Math.sqrt(Nh * Dh));
}
