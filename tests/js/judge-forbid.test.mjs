// Exercises whose point is to build the thing refuse the library call that does it: the solution's tp lacks
// the forbidden paths, and the hint names the call and its line, in English and in Chinese; the CLI says
// the same. The static pass reads calls however they are spelled, and ignores comments and strings.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listExerciseIds, loadExercise } from '../../web/content/exercises.js';
import { judgeFile, judgeSource } from '../../web/judge/node/runner.js';
import { findForbiddenCalls, restrictTp, forbiddenBy } from '../../web/judge/core/forbid.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'web/judge/node/cli.js');
const SOLUTIONS = join(ROOT, 'tests/js/solutions');
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the static pass over a solution', () => {
  const rules = { forbid: ['tp.nn.scaledDotProductAttention', 'tp.linalg', 'Tensor.prototype.matmul'], allow: ['tp.linalg.norm'] };

  test('names each forbidden call with its line, however it is spelled', () => {
    const src = [
      '// tp.linalg.svd in a comment does not count, nor "tp.linalg.qr" in a string',
      'export function f(Q, K, V) {',
      '  const a = tp.nn.scaledDotProductAttention(Q, K, V);',
      '  const { svd, norm } = tp.linalg;',
      "  const s = tp['linalg'].svdvals(Q);",
      '  tp.linalg.norm(Q);',
      '  return Q.matmul(K) + tp.matmul(Q, K) + "tp.linalg.qr";',
      '}',
    ].join('\n');
    assert.deepEqual(findForbiddenCalls(src, rules).map(({ path, line }) => `${path}@${line}`),
      ['tp.nn.scaledDotProductAttention@3', 'tp.linalg.svd@4', 'tp.linalg.svdvals@5', 'Tensor.prototype.matmul@7']);
  });

  test('a namespace forbids what is inside it, except what allow names', () => {
    assert.equal(forbiddenBy('tp.linalg.svd', rules), 'tp.linalg');
    assert.equal(forbiddenBy('tp.linalg.norm', rules), null);
    assert.equal(forbiddenBy('tp.nn.relu', rules), null);
    assert.equal(forbiddenBy('tp.matmul', rules), null);
  });

  test("the solution's tp lacks the forbidden paths and keeps the rest", () => {
    class T { matmul() {} add() {} dispose() {} }
    const tp = { zeros: () => new T(), matmul() {}, nn: { scaledDotProductAttention() {}, relu() {} }, linalg: { svd() {}, norm() {} } };
    const r = restrictTp(tp, rules);
    assert.deepEqual(Object.keys(r.nn), ['relu']);
    assert.deepEqual(Object.keys(r.linalg), ['norm']);
    assert.equal(typeof r.matmul, 'function');
    assert.equal('matmul' in T.prototype, false);
    assert.equal(typeof tp.nn.scaledDotProductAttention, 'function', 'the trusted tp is untouched');
  });
});

const withForbid = listExerciseIds().map((id) => loadExercise(id)).filter((e) => e.forbid?.length);

test('the exercises that ask to build a library function forbid it (16 of them)', () => {
  assert.ok(withForbid.length >= 16, withForbid.map((e) => e.id).join(', '));
  for (const e of withForbid) assert.ok(existsSync(join(SOLUTIONS, e.id, 'forbidden.js')), `${e.id}: no forbidden.js`);
});

describe('a solution that calls the forbidden function', () => {
  for (const exercise of withForbid) {
    for (const lang of ['en', 'zh']) {
      test(`${exercise.id} (${lang}): fails, and the hint names the call and its line`, async () => {
        const r = await judgeFile(exercise, join(SOLUTIONS, exercise.id, 'forbidden.js'), { lang, seed: 3 });
        assert.notEqual(r.status, 'pass');
        const text = [r.message ?? '', ...r.cases.filter((c) => c.status !== 'pass').map((c) => c.message)].join('\n');
        const named = lang === 'en' ? /`(tp\.[\w.]+|Tensor\.prototype\.\w+)` \(line (\d+)\) is not available in this exercise/
          : /本题不能用 `(tp\.[\w.]+|Tensor\.prototype\.\w+)`（第 (\d+) 行）/;
        const m = named.exec(text);
        assert.ok(m, text);
        assert.ok(exercise.forbid.some((f) => m[1] === f || m[1].startsWith(`${f}.`)), `${m[1]} is not in ${exercise.forbid}`);
      });
    }
  }

  test('is refused at run time too, where the static pass cannot see the name', async () => {
    const exercise = loadExercise('causal-attention');
    const r = await judgeSource(exercise, [
      "const ns = 'n' + 'n';",
      'export function causalAttention(Q, K, V) {',
      "  return tp[ns]['scaled' + 'DotProductAttention'](Q, K, V, { causal: true });",
      '}',
    ].join('\n'), { seed: 3 });
    assert.equal(r.status, 'fail');
    assert.ok(r.cases.every((c) => c.status !== 'pass'));
    assert.match(r.cases[0].message, /is not a function/);
  });

  test('the CLI prints the hint and exits 1', async () => {
    const { code, stdout } = await new Promise((resolve) => execFile(process.execPath,
      [CLI, 'judge', 'causal-attention', join(SOLUTIONS, 'causal-attention', 'forbidden.js')], { cwd: ROOT },
      (err, out) => resolve({ code: err ? err.code : 0, stdout: out })));
    assert.equal(code, 1);
    assert.match(stdout, new RegExp(esc('`tp.nn.scaledDotProductAttention` (line 3) is not available in this exercise')));
  });
});
