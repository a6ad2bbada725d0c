// The five exercises through the real judge (worker_threads, tp in each worker): references pass,
// starters fail, and the mistakes learners make fail with a message that points at the mistake.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeSource } from '../../web/judge/node/runner.js';
import { describeExercise } from './exercise-suite.mjs';

const WRONG = {
  'lora-params': [
    ['product.js', /r·dOut·dIn: B \(dOut×r\) and A \(r×dIn\) are two separate matrices/],
    ['square-only.js', /counts the same side twice/],
    ['square-only.js', /percentage; return the fraction/],
    ['hardcoded.js', /hidden \d+: loraParams\(dOut=\d+, dIn=\d+, r=\d+\) — value: got \d+, want \d+/],
  ],
  'low-rank-approx': [
    ['off-by-one.js', /your answer has rank (\d+) but a rank-\d+ approximation was asked for/],
    ['off-by-one.js', /off by one: the tail starts at σ_\{k\+1\}/],
    ['no-sqrt.js', /squared error Σ_\{i>k\} σ_i²: take the square root/],
    ['spectral.js', /σ_\{k\+1\} alone \(the spectral-norm error\)/],
    ['spectral.js', /singular values are missing/],
    ['hardcoded.js', /expected shape \[\d+, \d+\], got \[2, 2\]/],
  ],
  'energy-curve': [
    ['no-square.js', /uses σ_i where the energy is σ_i²/],
    ['off-by-one.js', /off by one: this counts the entries below frac/],
    ['not-cumulative.js', /the curve is cumulative/],
  ],
  'rotation-error': [
    ['per-tensor.js', /one scale for the whole tensor where perRow asks for one scale per row/],
    ['per-tensor.js', /weights should be quantized per row/],
    ['unsigned-qmax.js', /qmax is 2\^\(bits−1\) − 1/],
    ['no-rotation.js', /without rotating them; quantize XQ and WQ/],
    ['math-round.js', /round half to even/],
    ['divide-by-quantized-norm.js', /this divides by ‖Ŷ‖_F, the quantized product; the relative error divides by the exact ‖XWᵀ‖_F/],
  ],
  'causal-attention': [
    ['no-mask.js', /no causal mask/],
    ['no-scale.js', /not scaled: divide QKᵀ by √d/],
    ['wrong-axis.js', /softmax runs over the wrong axis/],
    ['hardcoded.js', /expected shape \[\d+, \d+\], got \[1, 3\]/],
  ],
};
const CORRECT = {
  'lora-params': ['correct-plain.js'],
  'low-rank-approx': ['correct-outer.js'],
  'causal-attention': ['correct-loops.js'],
  'rotation-error': ['correct-js.js'],
  'energy-curve': ['correct-js.js'],
};

for (const id of Object.keys(WRONG)) describeExercise(id, { wrong: WRONG[id], correct: CORRECT[id] });

// An answer that is not unique (any unit vector orthogonal to v) is judged by the exercise's invariant
// check in the oracle worker: another valid answer passes, an invalid one fails with the check's message.
describe('an exercise judged by invariants', () => {
  const root = mkdtempSync(join(tmpdir(), 'tp-invariant-'));
  mkdirSync(join(root, 'ortho'));
  writeFileSync(join(root, 'ortho', 'exercise.json'), JSON.stringify({
    id: 'ortho', title: { zh: '正交单位向量', en: 'An orthogonal unit vector' },
    statement: { zh: '返回与 v 正交的单位向量。', en: 'Return a unit vector orthogonal to v.' },
    difficulty: 'easy',
    functions: [{ name: 'orthoUnit', params: ['v'], signature: 'orthoUnit(v: Tensor[n]) → Tensor[n]', returns: 'tensor',
      atol: 1e-5, rtol: 1e-4, compare: 'invariant' }],
    starter: 'export function orthoUnit(v) {}\n', timeLimitMs: { perCase: 2000 },
    examples: [{ fn: 'orthoUnit', args: [{ $tensor: [1, 0, 0] }] }],
  }));
  // reference: e1-based Gram–Schmidt; cases: random vectors; check: unit norm and orthogonality
  writeFileSync(join(root, 'ortho', 'reference.js'), `export function orthoUnit(v) {
  const x = v.toArray(); const n = x.length; const i = Math.abs(x[0]) < 0.9 ? 0 : 1;
  const e = Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
  const vv = x.reduce((a, b) => a + b * b, 0); const d = x[i] / vv;
  const u = e.map((ej, j) => ej - d * x[j]); const norm = Math.hypot(...u);
  return tp.tensor(u.map((uj) => uj / norm));
}
`);
  writeFileSync(join(root, 'ortho', 'cases.js'), `export function generate({ rng, tensorArg }) {
  return Array.from({ length: 4 }, () => ({ fn: 'orthoUnit', args: [tensorArg(Array.from({ length: rng.int(2, 6) }, () => rng.normal()))] }));
}
export const checks = {
  orthoUnit({ args: [v], got }) {
    const u = tp.isTensor(got) ? got : tp.tensor(got);
    const norm = tp.linalg.norm(u).item();
    if (Math.abs(norm - 1) > 1e-4) return 'not a unit vector: its norm is ' + norm.toFixed(4);
    const dot = u.mul(v).sum().item();
    if (Math.abs(dot) > 1e-4 * tp.linalg.norm(v).item()) return 'not orthogonal to v: u·v = ' + dot.toFixed(4);
    return null;
  },
};
`);
  const exercise = loadExercise('ortho', root);
  // the negated reference is another right answer everywhere, and differs from it elementwise
  const negated = `export function orthoUnit(v) {
  const x = v.toArray(); const n = x.length; const i = Math.abs(x[0]) < 0.9 ? 0 : 1;
  const e = Array.from({ length: n }, (_, j) => (j === i ? 1 : 0));
  const vv = x.reduce((a, b) => a + b * b, 0); const d = x[i] / vv;
  const u = e.map((ej, j) => ej - d * x[j]); const norm = Math.hypot(...u);
  return u.map((uj) => -uj / norm);
}`;

  test('another valid answer passes through the check', async () => {
    const r = await judgeSource(exercise, negated);
    assert.equal(r.status, 'pass', r.cases.map((c) => c.message).join('\n'));
  });

  test('an invalid answer of the right shape fails with the check\'s message', async () => {
    const r = await judgeSource(exercise, 'export const orthoUnit = (v) => v;');
    assert.equal(r.status, 'fail');
    assert.ok(r.cases.every((c) => /not a unit vector|not orthogonal to v/.test(c.message)), r.cases.map((c) => c.message).join('\n'));
  });

  test('a wrong shape fails before the check runs', async () => {
    const r = await judgeSource(exercise, 'export const orthoUnit = (v) => [1];');
    assert.ok(r.cases.some((c) => /^expected shape \[\d\], got \[1\]/.test(c.message)));
  });
});
