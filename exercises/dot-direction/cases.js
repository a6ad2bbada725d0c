// Hidden cases of dot-direction. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, name? }]

const vec = (rng, d, s = 1) => Array.from({ length: d }, () => Math.round(rng.normal() * s * 1e3) / 1e3);
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let i = 0; i < 4; i++) {
    const d = rng.int(2, 8);
    cases.push({ fn: 'readAlong', args: [tensorArg(vec(rng, d)), tensorArg(vec(rng, d, rng.uniform(0.2, 5)))] });
  }
  for (let i = 0; i < 3; i++) {
    const d = rng.int(2, 8);
    cases.push({ fn: 'cosine', args: [tensorArg(vec(rng, d, rng.uniform(0.5, 3))), tensorArg(vec(rng, d, rng.uniform(0.5, 3)))] });
  }
  for (let i = 0; i < 4; i++) {
    // keys: one well aligned but short, one long but less aligned (it wins on the dot product), others random
    const d = rng.int(3, 6);
    const n = rng.int(3, 6);
    const q = vec(rng, d);
    for (let tries = 0; tries < 50; tries++) {
      const K = Array.from({ length: n }, () => vec(rng, d));
      const aligned = q.map((x) => Math.round((x + 0.1 * rng.normal()) * 0.3 * 1e3) / 1e3);
      const long = q.map((x) => Math.round((x + 1.2 * rng.normal()) * 3 * 1e3) / 1e3);
      const [ia, il] = rng.shuffle([...Array(n).keys()]).slice(0, 2);
      K[ia] = aligned;
      K[il] = long;
      const scores = K.map((k) => dot(q, k));
      const cos = K.map((k) => dot(q, k) / norm(k));
      const best = scores.indexOf(Math.max(...scores));
      const bestCos = cos.indexOf(Math.max(...cos));
      const sorted = [...scores].sort((a, b) => b - a);
      if (best !== bestCos && sorted[0] - sorted[1] > 0.05 * Math.abs(sorted[0])) {
        cases.push({ fn: 'bestKey', args: [tensorArg(q), tensorArg(K)] });
        break;
      }
    }
  }
  // one key points away from q and is longer than the best one: its score is the most negative, larger in
  // magnitude than the best positive score (and the longest key is a third one, nearly orthogonal to q)
  for (let i = 0; i < 2; i++) cases.push({ fn: 'bestKey', args: antiAligned(rng).map((t) => tensorArg(t)), label: { en: 'a key pointing away', zh: '一个反向的键' } });
  return cases;
}

function antiAligned(rng) {
  const r3 = (x) => Math.round(x * 1e3) / 1e3;
  for (let tries = 0; tries < 50; tries++) {
    const d = rng.int(3, 6);
    const n = rng.int(4, 6);
    const q = vec(rng, d);
    if (norm(q) < 0.5) continue;
    const qq = dot(q, q);
    const K = Array.from({ length: n }, () => vec(rng, d, 0.2));
    const [ig, ia, io] = rng.shuffle([...Array(n).keys()]).slice(0, 3);
    K[ig] = q.map((x) => r3(x * rng.uniform(0.8, 1.2) + 0.1 * rng.normal()));         // the best: aligned, about as long as q
    K[ia] = q.map((x) => r3(-x * rng.uniform(2.5, 3.5) + 0.1 * rng.normal()));        // points away, ~3× as long
    const w = vec(rng, d);
    const c = dot(w, q) / qq;
    const o = w.map((x, j) => x - c * q[j]);
    const g = 6 * norm(q) / norm(o);
    K[io] = o.map((x) => r3(x * g));                                                 // the longest: nearly orthogonal to q
    const s = K.map((k) => dot(q, k));
    const best = s.indexOf(Math.max(...s));
    const abs = s.map(Math.abs);
    const len = K.map(norm);
    const cos = K.map((k, j) => s[j] / len[j]);
    const sorted = [...s].sort((a, b) => b - a);
    if (best === ig && abs.indexOf(Math.max(...abs)) === ia && len.indexOf(Math.max(...len)) === io
        && cos.indexOf(Math.max(...cos)) === ig && sorted[0] - sorted[1] > 0.1 * Math.abs(sorted[0])) return [q, K];
  }
  return [[1, 2, -1], [[0.1, 0.2, 0], [1.1, 1.9, -0.8], [-3, -6.2, 2.9], [8, -2, 4]]];
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const d = (a, b) => tp.matmul(a, b).item();
const l = (a) => tp.linalg.norm(a).item();
export const mistakes = {
  readAlong: [
    { hint: { en: 'u is not normalized: divide u·h by ‖u‖ (here u is not a unit vector)',
              zh: 'u 没有归一化：u·h 要除以 ‖u‖（这里 u 不是单位向量）' },
      fn: (h, u) => d(u, h) },
    { hint: { en: 'this divides by ‖u‖²: that is the coefficient of the projection vector, not its length; divide by ‖u‖',
              zh: '这里除以了 ‖u‖²：那是投影向量的系数，不是投影的长度；应除以 ‖u‖' },
      fn: (h, u) => d(u, h) / l(u) ** 2 },
    { hint: { en: 'this divides by ‖h‖; the reading is along u, so divide by the length of u',
              zh: '这里除以了 ‖h‖；读数是沿 u 方向的，所以应除以 u 的长度' },
      fn: (h, u) => d(u, h) / l(h) },
  ],
  cosine: [
    { hint: { en: 'the lengths are squared: divide by ‖a‖‖b‖, not by ‖a‖²‖b‖²',
              zh: '长度被平方了：应除以 ‖a‖‖b‖，而不是 ‖a‖²‖b‖²' },
      fn: (a, b) => d(a, b) / (l(a) ** 2 * l(b) ** 2) },
    { hint: { en: 'this divides by one length only; the cosine divides by both, ‖a‖‖b‖',
              zh: '这里只除以了一个长度；余弦要同时除以两者：‖a‖‖b‖' },
      fn: (a, b) => d(a, b) / l(a) },
  ],
  bestKey: [
    { hint: { en: 'this picks the largest cosine; the attention score is the raw dot product, which also rewards a long key',
              zh: '这里选的是余弦最大的；注意力分数是原始点积，键越长分数也越高' },
      fn: (q, K) => { const c = K.toArray().map((k) => d(q, tp.tensor(k)) / l(tp.tensor(k))); return c.indexOf(Math.max(...c)); } },
    { hint: { en: 'this picks the longest key; the score is q·k, alignment times length',
              zh: '这里选的是最长的键；分数是 q·k，即方向一致程度乘以长度' },
      fn: (q, K) => { const n = K.toArray().map((k) => Math.hypot(...k)); return n.indexOf(Math.max(...n)); } },
    { hint: { en: 'this picks the largest |q·k|: a key pointing away from q has a large negative score, which attention weights least; take the largest q·k, sign included',
              zh: '这里选的是 |q·k| 最大的；方向与 q 相反的键分数是很大的负数，注意力给它的权重最小；应取带符号的 q·k 最大者' },
      fn: (q, K) => { const s = K.matmul(q).toArray().map(Math.abs); return s.indexOf(Math.max(...s)); } },
    { hint: { en: 'this picks the smallest score q·k (the key most opposite to q); the best match has the largest',
              zh: '这里选的是分数 q·k 最小的（与 q 最相反的键）；最匹配的是分数最大的' },
      fn: (q, K) => { const s = K.matmul(q).toArray(); return s.indexOf(Math.min(...s)); } },
    { hint: { en: 'this is the best score itself; return its index, the row of K with the largest q·k (0 is the first key)',
              zh: '这是最高分本身；应返回它的下标，即 q·k 最大的那一行（第一个键是 0）' },
      fn: (q, K) => Math.max(...K.matmul(q).toArray()) },
    { hint: { en: 'off by one: indices start at 0',
              zh: '差了一位：索引从 0 开始' },
      fn: (q, K) => { const s = K.matmul(q).toArray(); return s.indexOf(Math.max(...s)) + 1; } },
  ],
};
