// Hidden cases of allclose-by-hand. No imports: the page loads this file from a Blob URL.
// generate({ seed, rng, tensorArg }) → [{ fn, args, label? }], titled "hidden <n> (<label>)" by the judge

// A reference b and a result a = b + δ with each |δ_i| a chosen fraction f_i of the allowed error.
// kind 'inside': all f in ±[0.3, 0.9], with negative references and the rtol part near its limit;
// 'outside': one element at f = 1.3; 'only by |a|': one element at f = 1.05 whose δ has b's sign, which
// passes only if the relative part wrongly uses |a| (rtol large enough for that to matter).
function pair(rng, kind) {
  const shape = rng.bool() ? [rng.int(3, 12)] : [rng.int(2, 4), rng.int(2, 5)];
  const n = shape.reduce((x, y) => x * y, 1);
  const scale = rng.pick([0.01, 1, 100]);
  const rtol = kind === 'only by |a|' ? rng.pick([0.1, 0.2]) : rng.pick([1e-3, 1e-2, 0.1]);
  const atol = scale * rtol * rng.pick([0.01, 0.1, 1]);
  const b = Array.from({ length: n }, () => Math.fround(rng.normal() * scale));
  const a = b.map((bi) => {
    const f = rng.uniform(0.3, 0.9) * (rng.bool() ? 1 : -1);
    return bi + f * (atol + rtol * Math.abs(bi));
  });
  const j = rng.int(0, n - 1);
  if (kind === 'outside') a[j] = b[j] + 1.3 * (rng.bool() ? 1 : -1) * (atol + rtol * Math.abs(b[j]));
  if (kind === 'only by |a|') a[j] = b[j] + 1.05 * Math.sign(b[j] || 1) * (atol + rtol * Math.abs(b[j]));
  const nest = (v) => (shape.length === 1 ? v : Array.from({ length: shape[0] }, (_, r) => v.slice(r * shape[1], (r + 1) * shape[1])));
  return { a: nest(a.map(Math.fround)), b: nest(b), atol, rtol };
}

const KIND_LABELS = {
  inside: { en: 'inside', zh: '在容差内' },
  outside: { en: 'outside', zh: '超出容差' },
  'only by |a|': { en: 'only by |a|', zh: '只有按 |a| 才通过' },
  equal: { en: 'a equals b', zh: 'a 与 b 相等' },
};

export function generate({ rng, tensorArg }) {
  const cases = [];
  const kinds = rng.shuffle(['inside', 'inside', 'outside', 'outside', 'only by |a|', 'inside', 'outside']);
  for (const kind of kinds) {
    const { a, b, atol, rtol } = pair(rng, kind);
    cases.push({ fn: 'allClose', args: [tensorArg(a), tensorArg(b), atol, rtol], label: KIND_LABELS[kind] });
  }
  // a result equal to the reference: every element passes, whatever the tolerances
  // (positive, so that no wrong tolerance turns negative: only an answer of false fails here)
  const { b, atol, rtol } = pair(rng, 'inside');
  const pos = b.map((v) => (Array.isArray(v) ? v.map(Math.abs) : Math.abs(v)));
  cases.push({ fn: 'allClose', args: [tensorArg(pos), tensorArg(pos), atol, rtol], label: KIND_LABELS.equal });
  for (let i = 0; i < 4; i++) {
    const m = rng.int(2, 5);
    const n = rng.int(2, 6);
    const b = rng.matrix(m, n, rng.pick([0.1, 1, 10]));
    const a = b.map((row) => row.map((v) => v + rng.normal() * rng.pick([0.01, 0.1]) * Math.abs(v) + 1e-3 * rng.normal()));
    cases.push({ fn: 'relError', args: [tensorArg(a), tensorArg(b)] });
  }
  return cases;
}

// ---- recognised mistakes ----
function closeWith(a, b, allowed) {
  const x = a.data();
  const y = b.data();
  return y.every((yi, i) => Math.abs(x[i] - yi) <= allowed(x[i], yi));
}
const sq = (t) => t.data().reduce((s, v) => s + v * v, 0);

export const mistakes = {
  allClose: [
    { hint: { en: 'the relative part uses |a| (the result); it must use |b|, the reference: atol + rtol·|b|',
              zh: '相对项用了 |a|（计算结果）；应该用参考值的 |b|：atol + rtol·|b|' },
      fn: (a, b, atol, rtol) => closeWith(a, b, (x) => atol + rtol * Math.abs(x)) },
    { hint: { en: 'rtol is ignored: the allowed error is atol + rtol·|b|, which grows with the reference',
              zh: '忽略了 rtol：允许的误差是 atol + rtol·|b|，会随参考值增大' },
      fn: (a, b, atol) => closeWith(a, b, () => atol) },
    { hint: { en: 'the absolute value of the reference is missing: for a negative b, rtol·b lowers the tolerance; use rtol·|b|',
              zh: '参考值少了绝对值：b 为负时 rtol·b 会把容差变小；应该用 rtol·|b|' },
      fn: (a, b, atol, rtol) => closeWith(a, b, (x, y) => atol + rtol * y) },
    { hint: { en: 'the difference needs an absolute value: |a − b|, or a result below the reference always passes',
              zh: '差值要取绝对值 |a − b|，否则比参考值小的结果总能通过' },
      fn: (a, b, atol, rtol) => closeWith(a, b, (x, y) => atol + rtol * Math.abs(y) + Math.max(0, y - x) * 2) },
    { hint: { en: 'this is true as soon as ONE element is close; allClose needs EVERY element within atol + rtol·|b| (every, not some)',
              zh: '这里只要有一个元素足够接近就返回 true；allClose 要求每一个元素都满足 atol + rtol·|b|（every，而不是 some）' },
      fn: (a, b, atol, rtol) => { const x = a.data(); return b.data().some((y, i) => Math.abs(x[i] - y) <= atol + rtol * Math.abs(y)); } },
    { hint: { en: 'this compares the largest difference with one tolerance, atol + rtol·max|b|; the tolerance is per element, atol + rtol·|b_i|, so where b is small the allowed error is small too',
              zh: '这里拿最大的差值和同一个容差 atol + rtol·max|b| 比较；容差是逐元素的 atol + rtol·|b_i|，b 小的地方允许的误差也小' },
      fn: (a, b, atol, rtol) => { const x = a.data(), y = b.data(); let d = 0, m = 0; y.forEach((v, i) => { d = Math.max(d, Math.abs(x[i] - v)); m = Math.max(m, Math.abs(v)); }); return d <= atol + rtol * m; } },
    { hint: { en: 'this answers false, yet every element is within atol + rtol·|b| (one hidden case even has a = b): return true when no element fails',
              zh: '这里返回了 false，但每个元素都在 atol + rtol·|b| 之内（有个隐藏用例甚至 a = b）：没有元素超出容差时应返回 true' },
      fn: () => false },
  ],
  relError: [
    { hint: { en: 'this divides by ‖a‖, the result; divide by the norm of the reference ‖b‖',
              zh: '这里除以的是计算结果的 ‖a‖；应除以参考值的范数 ‖b‖' },
      fn: (a, b) => Math.sqrt(sq(a.sub(b)) / sq(a)) },
    { hint: { en: 'a square root is missing: this is ‖a − b‖² / ‖b‖²',
              zh: '少了开平方：这是 ‖a − b‖² / ‖b‖²' },
      fn: (a, b) => sq(a.sub(b)) / sq(b) },
    { hint: { en: 'this sums absolute values (the 1-norm); the relative error uses the 2-norm: √Σ(a − b)² / √Σb²',
              zh: '这里求的是绝对值之和（1-范数）；相对误差用的是 2-范数：√Σ(a − b)² / √Σb²' },
      fn: (a, b) => a.sub(b).abs().sum().item() / b.abs().sum().item() },
    { hint: { en: 'this is the absolute error ‖a − b‖; divide it by ‖b‖',
              zh: '这是绝对误差 ‖a − b‖；还要除以 ‖b‖' },
      fn: (a, b) => Math.sqrt(sq(a.sub(b))) },
  ],
};
