// Right, with plain loops over JS arrays (a row at a time, max subtracted for stability).
export function causalAttention(Q, K, V) {
  const q = Q.toArray(), k = K.toArray(), v = V.toArray();
  const d = q[0].length;
  return q.map((qi, i) => {
    const scores = k.slice(0, i + 1).map((kj) => kj.reduce((a, x, t) => a + x * qi[t], 0) / Math.sqrt(d));
    const top = Math.max(...scores);
    const w = scores.map((s) => Math.exp(s - top));
    const total = w.reduce((a, b) => a + b, 0);
    return v[0].map((_, c) => w.reduce((a, wj, j) => a + (wj / total) * v[j][c], 0));
  });
}
