// One exercise's suite through the real judge (worker_threads, tp in each worker), shared by the test
// files of the exercises: the reference passes for several seeds, the starter fails, hidden cases follow
// the seed, every other correct solution passes, and each wrong solution fails with a message that
// matches what the learner got wrong.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadExercise } from '../../web/judge/exercises.js';
import { judgeFile, judgeSource, nodeEnv } from '../../web/judge/node-runner.js';
import { generateCases } from '../../web/judge/judge.js';

const SOLUTIONS = fileURLToPath(new URL('./solutions/', import.meta.url));

// wrong: [[file, regex a failure message must match], ...]; correct: [file, ...]; extra(exercise) adds tests.
export function describeExercise(id, { wrong, correct = [], extra } = {}) {
  describe(`exercise ${id}`, () => {
    const exercise = loadExercise(id);
    const cache = new Map();
    const judge = (file) => judgeFile(exercise, join(SOLUTIONS, id, file), { cache });

    test('the reference passes every case for several seeds', async () => {
      const source = readFileSync(join(exercise.dir, 'reference.js'), 'utf8');
      for (const seed of [1, 2, 3]) {
        const r = await judgeSource(exercise, source, { seed, cache, filename: 'reference.js' });
        const bad = r.cases.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.message}`);
        assert.equal(r.status, 'pass', `seed ${seed}: ${r.message ?? ''} ${bad.join('\n')}`);
        assert.ok(r.cases.filter((c) => c.kind === 'hidden').length >= 3);
      }
    });

    test('the starter code loads and fails', async () => {
      const r = await judgeSource(exercise, exercise.starter, { cache, filename: 'starter.js' });
      assert.equal(r.status, 'fail', r.message);
      assert.equal(r.passed, 0);
    });

    test('hidden cases change with the seed and repeat for the same seed', async () => {
      const env = nodeEnv();
      const hidden = async (seed) => JSON.stringify((await generateCases({ exercise, seed, env }))
        .filter((c) => c.kind === 'hidden').map((c) => c.args));
      const a = await hidden(5);
      assert.equal(a, await hidden(5));
      assert.notEqual(a, await hidden(6));
    });

    for (const file of correct) {
      test(`another correct way (${file}) passes`, async () => {
        const r = await judge(file);
        const bad = r.cases.filter((c) => c.status !== 'pass').map((c) => `${c.name}: ${c.message}`);
        assert.equal(r.status, 'pass', bad.join('\n'));
      });
    }

    assert.ok(new Set(wrong.map(([file]) => file)).size >= 2, `${id} needs at least two wrong solutions`);
    for (const [file, re] of wrong) {
      test(`${file} fails and the message says ${re.source.slice(0, 60)}`, async () => {
        const r = await judge(file);
        assert.equal(r.status, 'fail', r.message);
        assert.ok(r.failed > 0);
        const messages = r.cases.filter((c) => c.status !== 'pass').map((c) => `${c.name} — ${c.message}`);
        assert.ok(messages.some((m) => re.test(m)), `no failure matches ${re}:\n${messages.join('\n')}`);
      });
    }
    extra?.(exercise);
  });
}
