// The Node runner's limits and isolation, on the lora-params exercise with small limits so each
// test takes about a second.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeSource, judgeFile } from '../../web/judge/node/runner.js';
import { exitCodeOf } from '../../web/judge/core/judge.js';
import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const exercise = loadExercise('lora-params');
const cache = new Map();
const judge = (source, opts = {}) => judgeSource(exercise, source, { cache, ...opts });
const RIGHT = 'export const loraParams = (o, i, r) => r * (o + i);\nexport const loraFraction = (o, i, r) => r * (o + i) / (o * i);\n';

describe('judge limits and isolation (worker_threads)', () => {
  test('the overall time limit stops a solution that is slow on every case', async () => {
    const slow = `function wait(ms) { const t = Date.now(); while (Date.now() - t < ms) {} }
export function loraParams(o, i, r) { wait(300); return r * (o + i); }
export function loraFraction(o, i, r) { wait(300); return r * (o + i) / (o * i); }`;
    const t0 = Date.now();
    const r = await judge(slow, { limits: { perCaseMs: 1000, totalMs: 1500 } });
    assert.ok(Date.now() - t0 < 8000);
    assert.equal(r.status, 'fail');
    assert.ok(r.passed >= 2 && r.passed <= 5, `passed ${r.passed}`);
    assert.ok(r.cases.some((c) => /all cases together took more than 1500 ms/.test(c.message)));
    assert.ok(r.cases.some((c) => /^not run: /.test(c.message)));
  });

  test('an answer of millions of numbers is refused in the worker, not copied and compared', async () => {
    // A runaway answer used to cost ~1.5 s per case outside the time limits (19 s for one solution).
    const huge = `export const loraParams = () => new Array(4e6).fill(1);
export const loraFraction = () => tp.zeros([2000, 2000]);`;
    const t0 = Date.now();
    const r = await judge(huge);
    assert.ok(Date.now() - t0 < 8000, `took ${Date.now() - t0} ms`);
    assert.equal(r.passed, 0);
    for (const c of r.cases) assert.match(c.message, /^expected a number, got an answer of more than 4096 numbers, too large to compare/);
  });

  test('an endless loop while loading is one time-limit error that cannot be judged, not a hang', async () => {
    const r = await judge(`while (true) {}\n${RIGHT}`, { limits: { perCaseMs: 500 } });
    assert.equal(r.status, 'error');
    assert.equal(r.errorKind, 'time');
    assert.match(r.message, /^time limit exceeded while loading the solution \(500 ms\)$/);
    assert.deepEqual(r.cases, []);
    assert.equal(exitCodeOf(r), 2);
  });

  test('a module that fails to load is one error naming the reason, not one per case', async () => {
    const r = await judge(`import { count } from 'no-such-package-for-tensorpad';\n${RIGHT}`);
    assert.equal(r.status, 'error');
    assert.equal(r.errorKind, 'load');
    assert.match(r.message, /^loading solution\.js failed: .*no-such-package-for-tensorpad/);
    assert.deepEqual(r.cases, []);
    assert.equal(exitCodeOf(r), 2);
    const thrown = await judge(`throw new RangeError('broken at load');\n${RIGHT}`);
    assert.equal(thrown.errorKind, 'load');
    assert.match(thrown.message, /^loading solution\.js failed: RangeError: broken at load/);
    assert.deepEqual(thrown.cases, []);
  });

  test('memory is bounded: a solution that allocates without end fails its case', async () => {
    const hog = 'export function loraParams() { const a = []; for (;;) a.push(new Array(1e5).fill(1)); }\n' +
      'export const loraFraction = () => 0;';
    const r = await judge(hog, { limits: { perCaseMs: 10000 } });
    assert.equal(r.status, 'fail');
    assert.match(r.cases[0].message, /memory limit exceeded: JS heap over its 256 MB limit/);
  });

  test('an async solution is awaited; dividing a Promise gives NaN, which fails', async () => {
    assert.equal((await judge(RIGHT.replace('(o, i, r) =>', 'async (o, i, r) =>'))).status, 'pass');
    const lazy = `async function count(o, i, r) { return r * (o + i); }
export function loraParams(o, i, r) { return count(o, i, r); }
export function loraFraction(o, i, r) { return count(o, i, r) / (o * i); }`;
    const r = await judge(lazy);
    assert.ok(r.cases.some((c) => /got NaN|expected a number/.test(c.message)), r.cases.map((c) => c.message).join('\n'));
  });

  test('console output goes to the case, not to the judge\'s terminal', async () => {
    const chatty = RIGHT.replace('export const loraParams = (o, i, r) => r * (o + i);',
      'export const loraParams = (o, i, r) => { console.log("checking", o, i, r); return r * (o + i); };');
    const r = await judge(chatty);
    assert.equal(r.status, 'pass');
    assert.match(r.cases[0].output, /^checking 4096 4096 16\n$/);
  });

  test('a solution that replaces tp or posts to the judge cannot pass', async () => {
    const sneaky = `import { parentPort } from 'node:worker_threads';
globalThis.tp = { tensor: () => { throw new Error('gone'); } };
export function loraParams() { parentPort.postMessage({ type: 'done' }); return 0; }
export function loraFraction() { parentPort.postMessage({ type: 'case-end', id: 0, value: 131072 }); return 0; }`;
    const r = await judge(sneaky);
    assert.equal(r.status, 'fail');
    assert.equal(r.passed, 0);
  });

  test('the same seed gives the same cases and verdicts; the reference passes on every seed tried', async () => {
    const a = await judge(RIGHT, { seed: 42 });
    const b = await judge(RIGHT, { seed: 42 });
    assert.deepEqual(a.cases.map((c) => c.name), b.cases.map((c) => c.name));
    for (const seed of [7, 8, 9]) assert.equal((await judge(RIGHT, { seed })).status, 'pass');
  });

  test('a solution file may import its own helpers by relative path, and writes nothing in its folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-solution-'));
    writeFileSync(join(dir, 'count.js'), 'export const count = (o, i, r) => r * (o + i);\n');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'solution.js'), "import { count } from './count.js';\nexport const loraParams = count;\n" +
      'export const loraFraction = (o, i, r) => count(o, i, r) / (o * i);\n');
    // nothing is ever written in the submission's folder (it may be read-only): watched while judging
    const { watch } = await import('node:fs');
    const written = [];
    const watcher = watch(dir, (event, name) => written.push(`${event} ${name}`));
    const r = await judgeFile(exercise, join(dir, 'solution.js'), { cache });
    await new Promise((res) => setTimeout(res, 100));
    watcher.close();
    assert.equal(r.status, 'pass', r.message);
    assert.deepEqual(written, []);
    assert.deepEqual(readdirSync(dir).sort(), ['count.js', 'package.json', 'solution.js']);
  });
});

describe('tensorpad check catches broken exercises', () => {
  // A copy of lora-params with one file changed, checked from a scratch root.
  async function checkBroken(edit) {
    const { cpSync, readFileSync } = await import('node:fs');
    const { checkExercise } = await import('../../web/judge/node/check.js');
    const { EXERCISES_DIR } = await import('../../web/content/exercises.js');
    const root = mkdtempSync(join(tmpdir(), 'tp-check-'));
    cpSync(join(EXERCISES_DIR, 'lora-params'), join(root, 'lora-params'), { recursive: true });
    const file = (f) => join(root, 'lora-params', f);
    edit({ read: (f) => readFileSync(file(f), 'utf8'), write: (f, text) => writeFileSync(file(f), text) });
    return checkExercise('lora-params', { root });
  }
  const failed = (results) => results.filter((r) => !r.ok).map((r) => `${r.name} — ${r.message}`);

  test('the unchanged exercise passes every check', async () => {
    assert.deepEqual(failed(await checkBroken(() => {})), []);
  });

  test('a starter that already passes is reported', async () => {
    const f = failed(await checkBroken(({ read, write }) => {
      const j = JSON.parse(read('exercise.json'));
      j.starter = read('reference.js');
      write('exercise.json', JSON.stringify(j));
    }));
    assert.ok(f.some((m) => /starter code fails — the starter code passes every case/.test(m)), f.join('\n'));
  });

  test('a generator that is not deterministic, and an import in cases.js, are reported', async () => {
    const f = failed(await checkBroken(({ read, write }) => {
      const noisy = read('cases.js').replace('let dOut = real ? rng.pick(WIDTHS) : rng.int(3, 6000);',
        'let dOut = real ? rng.pick(WIDTHS) : rng.int(3, 6000) + Math.floor(Math.random() * 1000);');
      assert.notEqual(noisy, read('cases.js'));
      write('cases.js', noisy);
    }));
    assert.ok(f.some((m) => /gave different cases on two runs/.test(m)), f.join('\n'));
    const g = failed(await checkBroken(({ read, write }) => write('cases.js', `import { x } from './x.js';\n${read('cases.js')}`)));
    assert.ok(g.some((m) => /cases\.js line 1: import from "\.\/x\.js"; it must be self-contained/.test(m)), g.join('\n'));
    const h = failed(await checkBroken(({ read, write }) => write('cases.js', `${read('cases.js')}\nexport const later = () => import('./x.js');\n`)));
    assert.ok(h.some((m) => /cases\.js line \d+: import\(\); it must be self-contained/.test(m)), h.join('\n'));
  });

  test('a hint must be a non-empty string, or { en, zh } with both written', async () => {
    const edit = (from, to) => ({ read, write }) => {
      const text = read('cases.js').replace(from, to);
      assert.notEqual(text, read('cases.js'));
      write('cases.js', text);
    };
    const f = failed(await checkBroken(edit(/zh: '这是 r·dOut·dIn[^']*' \}/, "zh: '' }")));
    assert.ok(f.some((m) => /hints are strings or \{ en, zh \} — cases\.js: mistakes\.loraParams\[0\]\.hint needs a non-empty zh/.test(m)), f.join('\n'));
    const oneLanguage = await checkBroken(edit(/\{ en: ('this is r·dOut·dIn[^']*'),\s*zh: '[^']*' \}/, '$1'));
    assert.deepEqual(failed(oneLanguage), []);
    assert.ok(oneLanguage.some((r) => /hints are strings or \{ en, zh \}/.test(r.name)));
  });

  test('an example whose printed answer disagrees with the reference is reported', async () => {
    const f = failed(await checkBroken(({ read, write }) => {
      const j = JSON.parse(read('exercise.json'));
      j.examples[0].expected = 131073;
      write('exercise.json', JSON.stringify(j));
    }));
    assert.ok(f.some((m) => /examples\[0\]\.expected disagrees with the reference/.test(m)), f.join('\n'));
  });
});
