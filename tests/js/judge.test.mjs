// The judge's pieces that need no worker: comparison, seeded generation, reading a solution's source,
// and loading exercises (schema errors name the file and the field).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareValues, isClose } from '../../web/judge/core/compare.js';
import { createRng } from '../../web/judge/core/rng.js';
import { init } from 'tensorpad';
import { tensorArg, encodeResult, countUpTo } from '../../web/judge/core/values.js';
import { inspectSolution } from '../../web/judge/core/source.js';
import { loadExercise, loadExercises, ExerciseError, EXERCISES_DIR } from '../../web/content/exercises.js';
import { formatText, toResultsJson } from '../../web/judge/core/format.js';

const T = (nested) => tensorArg(nested);

describe('compareValues(got, want, tol)', () => {
  test('reports a wrong shape before comparing values', () => {
    const want = T([[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4, 5]]);
    const got = tensorArg(new Array(20).fill(0), [5, 4]);
    const r = compareValues(got, want, { atol: 1e-3, rtol: 1e-3 });
    assert.equal(r.pass, false);
    assert.match(r.message, /^expected shape \[4, 5\], got \[5, 4\]/);
  });

  test('passes within atol + rtol·|want| and fails just outside', () => {
    assert.equal(compareValues([1.0011], [1], { atol: 1e-3, rtol: 1e-3 }).pass, true);    // allowed 2e-3
    assert.equal(compareValues([1.0021], [1], { atol: 1e-3, rtol: 1e-3 }).pass, false);
    assert.equal(compareValues(100.05, 100, { atol: 0, rtol: 1e-3 }).pass, true);         // allowed 0.1
    assert.equal(compareValues(100.2, 100, { atol: 0, rtol: 1e-3 }).pass, false);
  });

  test('names the first element out of tolerance with its absolute and relative error, and how many are', () => {
    const r = compareValues([[1, 2], [3, 4.5]], [[1, 2.5], [3, 4]], { atol: 1e-3, rtol: 0 });
    assert.equal(r.pass, false);
    assert.deepEqual(r.mismatch.index, [0, 1]);
    assert.equal(r.mismatch.got, 2);
    assert.equal(r.mismatch.want, 2.5);
    assert.ok(Math.abs(r.mismatch.abs - 0.5) < 1e-12);
    assert.ok(Math.abs(r.mismatch.rel - 0.2) < 1e-12);
    assert.match(r.message, /^value at \[0, 1\]: got 2, want 2\.5 \(abs error 0\.5, rel error 0\.2/);
    assert.match(r.message, /2 of 4 values out of tolerance$/);
    assert.doesNotMatch(r.message, /4\.5/, 'the other values are not shown');
  });

  test('fails on NaN where a number was expected, even with a huge tolerance', () => {
    assert.match(compareValues(NaN, 1, { atol: 1e9 }).message, /got NaN/);
    const r = compareValues([0, NaN, 2], [0, 1, 2], { atol: 1e9, rtol: 1 });
    assert.equal(r.pass, false);
    assert.match(r.message, /value at \[1\]: got NaN, want 1/);
  });

  test('accepts a tensor, a nested array or a typed array for the same values', () => {
    const want = T([[1, 2], [3, 4]]);
    assert.equal(compareValues([[1, 2], [3, 4]], want).pass, true);
    assert.equal(compareValues(tensorArg(Float32Array.of(1, 2, 3, 4), [2, 2]), want).pass, true);
    assert.equal(compareValues(encodeResult(Float64Array.of(1, 2)), [1, 2]).pass, true);
  });

  test('treats a 0-d tensor as a number but not a one-element array', () => {
    assert.equal(compareValues(tensorArg([3], []), 3).pass, true);
    assert.match(compareValues([3], 3).message, /expected a number, got an array of shape \[1\]/);
  });

  test('explains non-numeric answers', () => {
    assert.match(compareValues(encodeResult(undefined), 3).message, /expected a number, got undefined/);
    assert.match(compareValues(encodeResult(Promise.resolve(1)), 3).message, /Promise/);
    assert.match(compareValues([[1, 2], [3]], T([[1, 2], [3, 4]])).message, /ragged/);
    assert.match(compareValues(3, [1, 2, 3]).message, /expected an array or a tensor of shape \[3\], got a number/);
    assert.match(compareValues(encodeResult({ shape: [2], strides: [1] }), [[2, 4], [4, 1]]).message,
      /^expected an array or a tensor of shape \[2, 2\], got an object with keys \{shape, strides\}/);
    // countUpTo stops once past its limit: a runaway answer costs limit + 1 steps, not its size.
    assert.equal(countUpTo([[1, 2], [3, 4], 5], 100), 5);
    const counted = countUpTo(new Array(4e6).fill([1, 2]), 10);
    assert.ok(counted > 10 && counted <= 12, `counted ${counted}`);
    assert.match(compareValues(encodeResult(new Array(5000).fill(0), 0, 4096), [1, 2]).message, /more than 4096 numbers, too large to compare/);
  });

  test('insists on an integer where an integer is expected', () => {
    assert.match(compareValues(2.5, 2, { kind: 'integer', atol: 1 }).message, /expected an integer, got 2\.5/);
    assert.equal(compareValues(131072, 131072, { kind: 'integer' }).pass, true);
  });

  test('matches infinities exactly', () => {
    assert.equal(compareValues([Infinity, -Infinity], [Infinity, -Infinity]).pass, true);
    assert.equal(compareValues([Infinity], [-Infinity], { atol: 1 }).pass, false);
  });
});

describe('isClose(got, want, tol): the JS copy of the core\'s tolerance rule', () => {
  test('agrees with tp.isclose on every pair of special and ordinary values, with and without equalNan', async () => {
    const tp = await init();
    // float32 values, so the core (float32) and the copy (doubles) see the same numbers
    const values = [0, -0, 1, -1, 1.5, 1 + 2 ** -20, 1e-30, 3e38, -3e38, 1e-45, NaN, Infinity, -Infinity, 100, 100.0009765625]
      .map(Math.fround);
    const tols = [{ atol: 0, rtol: 0 }, { atol: 1e-3, rtol: 0 }, { atol: 0, rtol: 1e-5 }, { atol: Infinity, rtol: 0 }, { atol: 0, rtol: Infinity }];
    const a = values.flatMap((x) => values.map(() => x));
    const b = values.flatMap(() => values);
    let compared = 0;
    for (const tol of tols) {
      for (const equalNan of [false, true]) {
        const core = tp.tidy(() => tp.isclose(tp.tensor(a), tp.tensor(b), { ...tol, equalNan }).toArray());
        a.forEach((x, i) => {
          assert.equal(isClose(x, b[i], { ...tol, equalNan }), core[i],
            `isClose(${x}, ${b[i]}, atol ${tol.atol}, rtol ${tol.rtol}, equalNan ${equalNan})`);
          compared++;
        });
      }
    }
    assert.equal(compared, values.length ** 2 * tols.length * 2);
  });

  test('the judge passes NaN for NaN and nothing else for NaN', () => {
    assert.equal(compareValues(NaN, NaN).pass, true);
    assert.equal(compareValues(0, NaN, { atol: Infinity }).pass, false);
    assert.equal(compareValues(NaN, 0, { atol: Infinity }).pass, false);
    assert.equal(compareValues(T([1, NaN]), T([1, NaN])).pass, true);
  });
});

describe('createRng(seed, label)', () => {
  test('gives the same stream for the same seed and label, another for another seed', () => {
    const a = createRng(7, 'x');
    const b = createRng(7, 'x');
    const c = createRng(8, 'x');
    const sa = Array.from({ length: 5 }, () => a.next());
    assert.deepEqual(sa, Array.from({ length: 5 }, () => b.next()));
    assert.notDeepEqual(sa, Array.from({ length: 5 }, () => c.next()));
  });

  test('builds matrices with the singular values asked for, with the core', async () => {
    const tp = await init();
    const rng = createRng(3, '', tp);
    const Q = rng.orthonormal(6, 4);
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) {
        const dot = Q.reduce((acc, row) => acc + row[i] * row[j], 0);
        assert.ok(Math.abs(dot - (i === j ? 1 : 0)) < 1e-6);
      }
    }
    const W = rng.withSpectrum(5, 3, [3, 2, 1]);
    const fro2 = W.flat().reduce((a, x) => a + x * x, 0);
    assert.ok(Math.abs(fro2 - 14) < 1e-4);   // ‖W‖_F² = Σσ²
  });
});

describe('inspectSolution(source, required)', () => {
  test('reports a syntax error with its line and a caret', () => {
    const r = inspectSolution('export function f(x) {\n  return (x + 1;\n}\n', ['f'], 'sol.js');
    assert.equal(r.ok, false);
    assert.equal(r.kind, 'syntax');
    assert.equal(r.line, 2);
    assert.match(r.message, /^sol\.js:2:\d+: SyntaxError/);
    assert.match(r.message, /2 \|   return \(x \+ 1;/);
  });

  test('names the required function that is not exported', () => {
    const r = inspectSolution('export function f() {}\nfunction g() {}\n', ['f', 'g', 'h'], 'sol.js');
    assert.equal(r.kind, 'missing-export');
    assert.deepEqual(r.missing, ['g', 'h']);
    assert.match(r.message, /does not export `g`, `h`/);
    assert.match(r.message, /g is declared but not exported/);
    const cjs = inspectSolution('module.exports = { f: () => 1 };\n', ['f'], 'sol.js');
    assert.match(cjs.message, /does not export `f`.*module\.exports is CommonJS, which the judge does not read: write `export function …`/);
  });

  test('takes plain top-level declarations as the exports, as typed in a notebook cell', () => {
    const r = inspectSolution('function f() { return 1 }\nconst { g } = { g: () => 2 };\nlet helper = 3;\n', ['f', 'g']);
    assert.equal(r.ok, true);
    assert.deepEqual(r.exported, ['f', 'g', 'helper']);
  });

  test('reads destructured exports: export const { a, b } = …', () => {
    assert.equal(inspectSolution('export const { f, g } = { f: () => 1, g: () => 2 };', ['f', 'g']).ok, true);
  });

  test('accepts export lists, renamed exports and export *', () => {
    assert.equal(inspectSolution('const a = 1; export { a as f };', ['f']).ok, true);
    assert.equal(inspectSolution("export * from './x.js';", ['f']).ok, true);
  });
});

describe('exercises on disk', () => {
  test('exactly the five exercises of the judge issue exist with the exports other issues rely on', () => {
    const byId = Object.fromEntries(loadExercises().map((e) => [e.id, e.functions.map((f) => f.name)]));
    const expected = {
      'lora-params': ['loraParams', 'loraFraction'],
      'low-rank-approx': ['lowRankApprox', 'truncationError'],
      'energy-curve': ['energyCurve', 'directionsFor'],
      'rotation-error': ['fakeQuant', 'rotatedW8A8Error'],
      'causal-attention': ['causalAttention'],
    };
    for (const [id, fns] of Object.entries(expected)) assert.deepEqual(byId[id], fns, id);
  });

  test('every exercise has a statement and a title in Chinese and in English', () => {
    for (const e of loadExercises()) {
      for (const lang of ['zh', 'en']) {
        assert.ok(e.title[lang].length > 2, `${e.id} title.${lang}`);
        assert.ok(e.statement[lang].length > 200, `${e.id} statement.${lang}`);
      }
      assert.match(e.statement.zh, /[\u4e00-\u9fff]/, `${e.id} statement.zh is Chinese`);
    }
  });

  // A copy of lora-params with one thing broken, loaded from a scratch root.
  function broken(edit) {
    const root = mkdtempSync(join(tmpdir(), 'tp-exercises-'));
    cpSync(join(EXERCISES_DIR, 'lora-params'), join(root, 'lora-params'), { recursive: true });
    const file = join(root, 'lora-params', 'exercise.json');
    writeFileSync(file, edit(readFileSync(file, 'utf8')));
    return () => loadExercise('lora-params', root);
  }
  const throwsField = (load, field, re) => assert.throws(load, (err) => {
    assert.ok(err instanceof ExerciseError);
    assert.match(err.message, /lora-params\/exercise\.json/);
    assert.equal(err.field, field);
    if (re) assert.match(err.message, re);
    return true;
  });

  test('a malformed exercise.json is an error naming the file and the field', () => {
    throwsField(broken((t) => { const j = JSON.parse(t); j.functions[1].atol = 'tiny'; return JSON.stringify(j); }),
      'functions[1].atol', /must be number/);
    throwsField(broken((t) => { const j = JSON.parse(t); delete j.statement.zh; return JSON.stringify(j); }),
      'statement.zh', /is missing/);
    throwsField(broken((t) => { const j = JSON.parse(t); j.dificulty = 'easy'; return JSON.stringify(j); }),
      'dificulty', /not allowed/);
    throwsField(broken((t) => { const j = JSON.parse(t); j.difficulty = 'trivial'; return JSON.stringify(j); }),
      'difficulty', /one of "easy", "medium", "hard"/);
    throwsField(broken((t) => { const j = JSON.parse(t); j.examples[0].fn = 'loraParam'; return JSON.stringify(j); }),
      'examples[0].fn', /not one of loraParams, loraFraction/);
    throwsField(broken((t) => { const j = JSON.parse(t); j.id = 'lora'; return JSON.stringify(j); }), 'id');
    // invalid JSON: where, as line:column of the file (not "at position 1234")
    assert.throws(broken((t) => t.slice(0, -5)), (err) => /exercise\.json:\d+:\d+: is not valid JSON: /.test(err.message) && !/position/.test(err.message));
    assert.throws(broken((t) => t.replace('"difficulty": "easy",', '"difficulty": "easy"')), /exercise\.json:\d+:3: is not valid JSON: Expected ',' or '\}' after property value$/);
    throwsField(broken((t) => { const j = JSON.parse(t); j.examples[0].name = { en: 'q_proj' }; return JSON.stringify(j); }),
      'examples[0].name.zh', /is missing/);
  });

  test('a bilingual starter needs both languages, holding the same code apart from comments', () => {
    const starter = (edit) => broken((t) => { const j = JSON.parse(t); edit(j); return JSON.stringify(j); });
    throwsField(starter((j) => { delete j.starter.zh; }), 'starter.zh', /is missing/);
    throwsField(starter((j) => { j.starter.zh = ''; }), 'starter.zh', /fewer than 1 characters/);
    throwsField(starter((j) => { j.starter.zh = j.starter.zh.replace('function loraFraction(', 'function loraFrac('); }),
      'starter.zh', /same code as starter\.en, differing in comments only: `loraFrac` on line \d+ where starter\.en has `loraFraction`/);
    throwsField(starter((j) => { j.starter.zh = j.starter.zh.replace(/\n}\n$/, '\n'); }), 'starter.zh', /the end where starter\.en has `}`/);
    // other comments and another layout are fine, and so is one string for both languages
    assert.doesNotThrow(starter((j) => { j.starter.zh = `// 另一段注释\n\n${j.starter.en.replace(/\/\/.*$/gm, '// 注释')}`; }));
    assert.equal(typeof starter((j) => { j.starter = j.starter.en; })().starter, 'string');
  });

  test('an unknown id is an error that lists the known ones', () => {
    assert.throws(() => loadExercise('no-such-exercise'), /unknown exercise "no-such-exercise" \(known: .*lora-params/);
  });
});

describe('presenting a result', () => {
  const result = {
    exerciseId: 'x', seed: 1, status: 'fail', passed: 1, failed: 1, output: '',
    cases: [
      { name: 'example 1: f(1)', status: 'pass', message: '', output: '' },
      { name: 'hidden 1: f(2)', status: 'fail', message: 'value: got 3, want 4\nhint: off by one', output: '3 passed, 0 failed\n' },
    ],
  };

  test('one line per case, details indented, and the summary as the last line', () => {
    const lines = formatText(result).split('\n');
    assert.equal(lines[0], '✓ example 1: f(1)');
    assert.equal(lines[1], '✗ hidden 1: f(2) — value: got 3, want 4');
    assert.equal(lines[2], '    hint: off by one');
    assert.equal(lines[3], '    │ 3 passed, 0 failed');   // a solution's output never looks like the summary
    assert.equal(lines.at(-1), '1 passed, 1 failed');
  });

  test('results.json has the shape of Exercism\'s version 3', () => {
    const j = toResultsJson(result);
    assert.equal(j.version, 3);
    assert.equal(j.status, 'fail');
    assert.deepEqual(Object.keys(j.tests[0]).sort(), ['message', 'name', 'output', 'status', 'test_code']);
    assert.equal(j.tests[0].message, null);
    assert.equal(j.tests[1].status, 'fail');
    assert.equal(j.tests[1].test_code, 'f(2)');
  });
});
