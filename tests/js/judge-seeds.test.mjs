// Hidden cases follow a seed drawn per run: the CLI reports it (`"seed": N` in --json), `--seed N` reproduces
// that run, and a lookup table of one run's answers fails the next. A failure never prints the expected
// value of a hidden tensor case: its shape, the first differing index and the two values there.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExercise } from '../../web/content/exercises.js';
import { nodeEnv, judgeSource } from '../../web/judge/node/runner.js';
import { generateCases } from '../../web/judge/core/judge.js';
import { drawSeed, MAX_SEED } from '../../web/judge/core/seed.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const SOL = (id, file) => join(ROOT, 'tests/js/solutions', id, file);

const run = (...args) => new Promise((resolve) => execFile(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: 60000 },
  (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr })));

test('drawSeed gives integers in [1, 2^31 − 1] that differ from draw to draw', () => {
  const seeds = Array.from({ length: 50 }, drawSeed);
  for (const s of seeds) assert.ok(Number.isInteger(s) && s >= 1 && s <= MAX_SEED, String(s));
  assert.ok(new Set(seeds).size > 45);
});

describe('the CLI seed', () => {
  test('defaults to a new random seed per run, reported by --json', async () => {
    const [a, b] = await Promise.all([1, 2].map(() => run('judge', 'lora-params', SOL('lora-params', 'product.js'), '--json')));
    const [ja, jb] = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
    assert.ok(Number.isInteger(ja.seed) && Number.isInteger(jb.seed));
    assert.notEqual(ja.seed, jb.seed);
  });

  test('--seed N reproduces a run exactly, and a failing text output names the seed', async () => {
    const first = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', 'product.js'), '--json')).stdout);
    const again = JSON.parse((await run('judge', 'lora-params', SOL('lora-params', 'product.js'), '--json', '--seed', String(first.seed))).stdout);
    assert.deepEqual(again.tests, first.tests);
    // a failing run names its seed just above "N passed, N failed", which stays the last line
    const text = await run('judge', 'lora-params', SOL('lora-params', 'product.js'));
    const seed = /--seed (\d+)/.exec(text.stdout.trimEnd().split('\n').at(-2))?.[1];
    assert.ok(seed, text.stdout);
    assert.match(text.stdout.trimEnd().split('\n').at(-1), /^\d+ passed, \d+ failed$/);
  });
});

test("a lookup table built from one run's hidden cases fails on the next seed", async () => {
  const exercise = loadExercise('lora-params');
  const env = nodeEnv();
  const seed = 11;
  const cases = await generateCases({ exercise, seed, env });
  const table = {};
  for (const c of cases) (table[c.fn] ??= {})[JSON.stringify(c.args)] = c.expected;
  const source = `const T = ${JSON.stringify(table)};
export const loraParams = (...a) => T.loraParams[JSON.stringify(a)] ?? 0;
export const loraFraction = (...a) => T.loraFraction[JSON.stringify(a)] ?? 0;`;
  assert.equal((await judgeSource(exercise, source, { seed })).status, 'pass', 'the table answers the run it was built from');
  const next = await judgeSource(exercise, source, { seed: seed + 1 });
  assert.equal(next.status, 'fail');
  assert.ok(next.cases.filter((c) => c.kind === 'hidden').some((c) => c.status === 'fail'));
});

test('a failing hidden tensor case shows shapes, the first differing index and its values, not the expected tensor', async () => {
  const exercise = loadExercise('causal-attention');
  const dir = mkdtempSync(join(tmpdir(), 'tp-seeds-'));
  try {
    // right everywhere but one element of each answer
    writeFileSync(join(dir, 'off.js'), `export function causalAttention(Q, K, V) {
  const [n, d] = Q.shape;
  const s = Q.matmul(K.T).div(Math.sqrt(d)).toArray().map((row, i) => row.map((x, j) => (j > i ? -Infinity : x)));
  const out = tp.softmax(tp.tensor(s), -1).matmul(V).toArray();
  out[n - 1][0] += 1;
  return out;
}`);
    const { judgeFile } = await import('../../web/judge/node/runner.js');
    const r = await judgeFile(exercise, join(dir, 'off.js'), { seed: 4 });
    const hidden = r.cases.filter((c) => c.kind === 'hidden' && c.status === 'fail');
    assert.ok(hidden.length > 0);
    for (const c of hidden) {
      assert.match(c.message, /^value at \[\d+, 0\]: got -?[\d.e-]+, want -?[\d.e-]+/);
      assert.doesNotMatch(c.message, /\[\[|\],\s*\[/, 'no nested array of expected values');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
