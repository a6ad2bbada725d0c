// One exercise's suite through the real judge (worker_threads, tp in each worker), shared by the test
// files of the exercises: the reference passes for several seeds, the starter fails, hidden cases follow
// the seed, every other correct solution passes, and each wrong solution fails with a message that
// matches what the learner got wrong; judged for a Chinese reader, the first wrong solution gets the
// same verdicts with the Chinese of the same hints.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeFile, judgeSource, nodeEnv } from '../../web/judge/node/runner.js';
import { generateCases } from '../../web/judge/core/judge.js';
import { localized } from '../../web/judge/core/messages.js';

const SOLUTIONS = fileURLToPath(new URL('./solutions/', import.meta.url));
// Words that only untranslated text would put in a Chinese case title (formulas and code names may stay).
const ENGLISH_WORDS = /\b(hidden|example|of|the|and|by|with|to|in|on|for|per|blocks?|clipped|clipping|scaled|unscaled|contiguous|sliced|fresh|transposed|permuted|slice|growing|decaying|negative|random|identity|inside|outside|only|one|two|three|its|where|what|error|rank|position|base)\b/;

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
      const r = await judgeSource(exercise, localized(exercise.starter, 'en'), { cache, filename: 'starter.js' });
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
    const [firstWrong] = wrong[0];
    test(`for a Chinese reader, ${firstWrong} fails the same cases with the Chinese of the same hints`, async () => {
      const { mistakes = {} } = await import(pathToFileURL(join(exercise.dir, 'cases.js')).href);
      const zhOf = new Map(Object.values(mistakes).flat().map((m) => [localized(m.hint, 'en'), localized(m.hint, 'zh')]));
      const en = await judge(firstWrong);
      const zh = await judgeFile(exercise, join(SOLUTIONS, id, firstWrong), { cache, lang: 'zh' });
      assert.equal(zh.lang, 'zh');
      assert.deepEqual(zh.cases.map((c) => c.status), en.cases.map((c) => c.status));
      en.cases.forEach((c, i) => {
        for (const [hintEn, hintZh] of zhOf) {
          if (c.message.includes(hintEn)) assert.ok(zh.cases[i].message.includes(hintZh), `${c.name}: no "${hintZh}" in\n${zh.cases[i].message}`);
          assert.ok(hintEn === hintZh || !zh.cases[i].message.includes(hintEn), `${c.name}: English hint in\n${zh.cases[i].message}`);
        }
        if (c.status !== 'pass') assert.match(zh.cases[i].message, /[\u4e00-\u9fff]/, `${c.name}: ${zh.cases[i].message}`);
        // the case's title too: "隐藏用例 3（d=4，块大小 2）：f(…)", with no English word left
        const title = zh.cases[i].name.slice(0, zh.cases[i].name.lastIndexOf(`：${c.fn}(`));
        assert.doesNotMatch(title, ENGLISH_WORDS, `${c.name} → ${title}`);
      });
    });
    extra?.(exercise);
  });
}
