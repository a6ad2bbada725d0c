// The one evaluator of solutions (web/runtime/module.js): strict ES module semantics, the same in the page
// and the CLI. Here its rules on their own, then the CLI's verdicts on the shared sources
// (tests/js/evaluator-sources.mjs); tests/browser/judge.test.mjs gives the same sources to the page.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evaluateModule, moduleShape, locateError, ModuleSyntaxError } from '../../web/runtime/module.js';
import { loadExercise } from '../../web/content/exercises.js';
import { judgeSource, judgeFile } from '../../web/judge/node/runner.js';
import { EVALUATOR_SOURCES, messagesOf } from './evaluator-sources.mjs';

describe('evaluateModule(source) reads a solution as a strict ES module', () => {
  test('the exports are the exported names, in a null-prototype object', async () => {
    const m = await evaluateModule('export function f() { return 1 }\nfunction g() {}\nexport const { a, b: [c] } = { a: 2, b: [3] };\n');
    assert.deepEqual(Object.keys(m).sort(), ['a', 'c', 'f']);
    assert.equal(Object.getPrototypeOf(m), null);
    assert.equal(m.f(), 1);
    assert.equal(m.c, 3);
  });

  test('a source with no export exports its top-level declarations', async () => {
    const m = await evaluateModule('function f() { return 1 }\nconst { g } = { g: 2 };\nclass K {}\n');
    assert.deepEqual(Object.keys(m).sort(), ['K', 'f', 'g']);
    assert.deepEqual(moduleShape('function f() {}\n').exports, ['f']);
    assert.equal(moduleShape('function f() {}\n').explicit, false);
  });

  test('renamed exports, export default, export * and an export named __proto__ are read as a module reads them', async () => {
    const m = await evaluateModule("const a = 1;\nexport { a as b, a as __proto__ };\nexport default 7;\nexport * from 'node:path';\n");
    assert.equal(m.b, 1);
    assert.equal(m.default, 7);
    assert.equal(typeof m.join, 'function');
    assert.ok(Object.hasOwn(m, '__proto__'));
    assert.equal(Object.getPrototypeOf(m), null);
  });

  test('assigning to an undeclared variable throws ReferenceError, at the top level and in a function', async () => {
    await assert.rejects(evaluateModule('total = 1;\n'), { name: 'ReferenceError', message: 'total is not defined' });
    const m = await evaluateModule('export function f() {\n  total = 1;\n}\n', { file: 'sol.js' });
    let err;
    try { m.f(); } catch (e) { err = e; }
    assert.equal(err.name, 'ReferenceError');
    assert.deepEqual(locateError(err, 'sol.js'), { line: 2, column: 9 });
    assert.equal(globalThis.total, undefined);
  });

  test('top-level names stay private: a top-level var is not a global', async () => {
    await evaluateModule('var leaked = 1;\nexport const f = () => leaked;\n');
    assert.equal('leaked' in globalThis, false);
  });

  test('top-level await runs before the exports are returned', async () => {
    const m = await evaluateModule('const v = await new Promise((r) => setTimeout(() => r(5), 1));\nexport const f = () => v;\n');
    assert.equal(m.f(), 5);
  });

  test('a syntax error is a ModuleSyntaxError with its line and column, strict-mode errors included', async () => {
    await assert.rejects(evaluateModule('export function f(x) {\n  return (x + 1;\n}\n'),
      (e) => e instanceof ModuleSyntaxError && e.name === 'SyntaxError' && e.line === 2 && e.column === 16);
    await assert.rejects(evaluateModule('with (Math) {}\n'), (e) => e instanceof ModuleSyntaxError && /'with' in strict mode/.test(e.message));
    await assert.rejects(evaluateModule('const n = 017;\n'), (e) => e instanceof ModuleSyntaxError && e.line === 1);
  });

  test('relative imports resolve against baseUrl, and import.meta.url is baseUrl', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-evaluator-'));
    try {
      writeFileSync(join(dir, 'helper.mjs'), 'export const two = 2;\n');
      const baseUrl = pathToFileURL(join(dir, 'solution.js')).href;
      const m = await evaluateModule("import {\n  two\n} from './helper.mjs';\nexport const f = () => two;\nexport const url = import.meta.url;\nexport function g() {\n  throw new Error('x');\n}\n",
        { file: 'solution.js', baseUrl });
      assert.equal(m.f(), 2);
      assert.equal(m.url, baseUrl);
      let err;
      try { m.g(); } catch (e) { err = e; }
      assert.deepEqual(locateError(err, 'solution.js'), { line: 7, column: 9 }, 'a multi-line import keeps the lines after it');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a package that is not installed is named, and the evaluator\'s own file is not', async () => {
    await assert.rejects(evaluateModule("import { x } from 'no-such-package-for-tensorpad';\n", { file: 'sol.js' }),
      (e) => /no-such-package-for-tensorpad/.test(e.message) && !/module\.js/.test(e.message));
  });
});

describe('the CLI\'s judge gives each evaluator source its verdict', () => {
  const exercise = loadExercise('lora-params');
  for (const s of EVALUATOR_SOURCES) {
    test(`${s.name}: ${s.status}${s.errorKind ? ` (${s.errorKind})` : ''}`, async () => {
      const r = await judgeSource(exercise, s.source);
      assert.equal(r.status, s.status, `${r.message ?? ''}${messagesOf(r).join('\n')}`);
      if (s.errorKind) assert.equal(r.errorKind, s.errorKind);
      if (s.message) assert.match(messagesOf(r)[0], s.message);
      if (s.status === 'fail') assert.ok(r.cases.every((c) => c.status === 'error'), 'every case throws');
    });
  }

  test('a solution file importing a helper beside it loads it, and nothing is written next to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tp-judge-helper-'));
    try {
      writeFileSync(join(dir, 'count.js'), 'export const count = (dOut, dIn, r) => r * (dOut + dIn);\n');
      writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
      const file = join(dir, 'solution.js');
      writeFileSync(file, "import { count } from './count.js';\nexport const loraParams = count;\n" +
        'export const loraFraction = (dOut, dIn, r) => count(dOut, dIn, r) / (dOut * dIn);\n');
      const { readdirSync } = await import('node:fs');
      const before = readdirSync(dir).sort();
      const r = await judgeFile(exercise, file);
      assert.equal(r.status, 'pass', r.message);
      assert.deepEqual(readdirSync(dir).sort(), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
