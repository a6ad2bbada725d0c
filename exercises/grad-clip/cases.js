// Hidden cases of grad-clip. No imports: the page loads this file from a Blob URL;
// tp is a global in the oracle worker that runs it.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

function gradients(rng) {
  return Array.from({ length: rng.int(2, 5) }, () => {
    const scale = rng.pick([0.01, 0.1, 1, 10]);
    if (rng.bool(0.3)) return Array.from({ length: rng.int(2, 8) }, () => Math.round(rng.normal() * scale * 1e4) / 1e4);
    return rng.matrix(rng.int(1, 4), rng.int(2, 5), scale);
  });
}
const norm = (gs) => Math.sqrt(gs.flat(2).reduce((s, v) => s + v * v, 0));

const CLIPPED = { en: 'clipped', zh: '需要裁剪' };
const NOT_CLIPPED = { en: 'no clipping needed', zh: '无需裁剪' };

export function generate({ rng, tensorArg }) {
  const cases = [];
  for (let c = 0; c < 10; c++) {
    const gs = gradients(rng);
    const total = norm(gs);
    // most cases need clipping (maxNorm well below the norm), some do not (well above)
    const maxNorm = Math.round(total * (c % 3 === 2 ? rng.uniform(1.5, 3) : rng.uniform(0.1, 0.7)) * 1e4) / 1e4 || 1e-3;
    const args = gs.map((g) => tensorArg(g));
    cases.push(c % 2 === 0
      ? { fn: 'globalNorm', args: [args] }
      : { fn: 'clipGradient', args: [args, rng.int(0, gs.length - 1), maxNorm], label: c % 3 === 2 ? NOT_CLIPPED : CLIPPED });
  }
  // a spike: one entry of grads[i] far larger than the rest, and maxNorm below it, so clipping by value (clamping
  // each entry to ±maxNorm) changes that entry but does not give the clipped-by-norm gradient
  for (let c = 0; c < 2; c++) {
    const gs = gradients(rng);
    const i = rng.int(0, gs.length - 1);
    const flat = gs[i].flat();
    const j = rng.int(0, flat.length - 1);
    const spike = Math.round((rng.bool() ? 1 : -1) * rng.uniform(20, 50) * Math.max(1, ...flat.map(Math.abs)) * 1e4) / 1e4;
    if (Array.isArray(gs[i][0])) gs[i][Math.floor(j / gs[i][0].length)][j % gs[i][0].length] = spike;
    else gs[i][j] = spike;
    const maxNorm = Math.round(Math.abs(spike) * rng.uniform(0.2, 0.5) * 1e4) / 1e4;
    cases.push({ fn: 'clipGradient', args: [gs.map((g) => tensorArg(g)), i, maxNorm], label: CLIPPED });
  }
  return cases;
}

// ---- recognised mistakes (evaluated with tp in the oracle worker) ----
const sq = (g) => g.square().sum().item();
const total = (gs) => Math.sqrt(gs.reduce((s, g) => s + sq(g), 0));
// The same with each tensor's mean square in place of its sum (a root-mean-square, not a norm).
const rmsTotal = (gs) => Math.sqrt(gs.reduce((s, g) => s + sq(g) / g.numel, 0));
export const mistakes = {
  globalNorm: [
    { hint: { en: 'this is the squared norm Σ g²: take the square root',
              zh: '这是范数的平方 Σ g²：要开平方' },
      fn: (gs) => gs.reduce((s, g) => s + sq(g), 0) },
    { hint: { en: 'this adds the norms of the tensors; the global norm is √(Σ of all squares) = √(Σ_p ‖g_p‖²)',
              zh: '这里把各张量的范数相加了；全局范数是所有元素平方和的平方根：√(Σ_p ‖g_p‖²)' },
      fn: (gs) => gs.reduce((s, g) => s + Math.sqrt(sq(g)), 0) },
    { hint: { en: 'this averages the squares of each tensor (a mean, not a sum); the global norm sums every square: √(Σ_p Σ g²), larger than this',
              zh: '这里对每个张量的平方取了平均（mean 而不是 sum）；全局范数要把所有平方加起来：√(Σ_p Σ g²)，比这个值大' },
      fn: (gs) => rmsTotal(gs) },
    { hint: { en: 'this is the largest single norm; all gradients together form one vector: √(Σ_p ‖g_p‖²)',
              zh: '这是单个张量中最大的范数；所有梯度合起来看作一个向量：√(Σ_p ‖g_p‖²)' },
      fn: (gs) => Math.max(...gs.map((g) => Math.sqrt(sq(g)))) },
  ],
  clipGradient: [
    { hint: { en: 'this returns grads[i] unchanged: when ‖g‖ > maxNorm every gradient is scaled by maxNorm / ‖g‖',
              zh: '这里原样返回了 grads[i]：‖g‖ > maxNorm 时，每个梯度都要乘以 maxNorm / ‖g‖' },
      fn: (gs, i) => gs[i] },
    { hint: { en: 'this clips each tensor by its own norm; use one factor for all, from the global norm √(Σ_p ‖g_p‖²)',
              zh: '这里每个张量按各自的范数裁剪；应对所有张量使用同一个系数，由全局范数 √(Σ_p ‖g_p‖²) 算出' },
      fn: (gs, i, maxNorm) => gs[i].mul(Math.min(1, maxNorm / Math.sqrt(sq(gs[i])))) },
    { hint: { en: 'small gradients are scaled UP: the factor is min(1, maxNorm / ‖g‖), so nothing changes when ‖g‖ ≤ maxNorm',
              zh: '小梯度被放大了：系数是 min(1, maxNorm / ‖g‖)，‖g‖ ≤ maxNorm 时应保持不变' },
      fn: (gs, i, maxNorm) => gs[i].mul(maxNorm / total(gs)) },
    { hint: { en: 'the factor comes from a norm that averages the squares; use the global norm √(Σ_p Σ g²): the mean makes it too small, so the gradients are clipped too little or not at all',
              zh: '系数来自对平方取平均的“范数”；应使用全局范数 √(Σ_p Σ g²)：取平均会让它偏小，于是梯度裁剪得太少，甚至没有裁剪' },
      fn: (gs, i, maxNorm) => gs[i].mul(Math.min(1, maxNorm / rmsTotal(gs))) },
    { hint: { en: 'the factor uses the squared norm; divide maxNorm by √(Σ g²)',
              zh: '系数里用了范数的平方；应是 maxNorm 除以 √(Σ g²)' },
      fn: (gs, i, maxNorm) => gs[i].mul(Math.min(1, maxNorm / total(gs) ** 2)) },
    { hint: { en: 'this sets every entry to ±maxNorm at most (clipping by value); clip by norm: multiply by min(1, maxNorm / ‖g‖)',
              zh: '这里把每个元素限制在 ±maxNorm 之内（按值裁剪）；应按范数裁剪：乘以 min(1, maxNorm / ‖g‖)' },
      fn: (gs, i, maxNorm) => gs[i].clamp(-maxNorm, maxNorm) },
  ],
};
