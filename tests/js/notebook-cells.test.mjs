// The REPL core of the notebook (web/runtime/cells.js), in Node: the same code the page's worker runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCell, createScope, transformCell, cellReads } from '../../web/runtime/cells.js';
import { toOutput, inspect } from '../../web/runtime/display.js';
import { plot } from '../../web/runtime/plot.js';

const run = async (scope, source, cellId = 'x') => {
  const r = await runCell(source, scope, { cellId });
  if (r.error) throw r.error;
  return r.value;
};

test('runCell returns the value of the last expression', async () => {
  const s = createScope();
  assert.equal(await run(s, '1 + 2'), 3);
  assert.equal(await run(s, 'const a = 2;\na * 21;'), 42);
  assert.equal(await run(s, 'const b = 1;'), undefined);
});

test('top-level const, let, var, function and class are visible to later cells', async () => {
  const s = createScope();
  await run(s, 'const a = 1;\nlet b = 2;\nvar c = 3;\nfunction f(x) { return x * 10 }\nclass K { get v() { return 7 } }', 'c1');
  assert.equal(await run(s, 'a + b + c + f(1) + new K().v', 'c2'), 23);
});

test('re-running a cell redefines its names, even const', async () => {
  const s = createScope();
  await run(s, 'const a = 1;');
  await run(s, 'const a = 5;');
  assert.equal(await run(s, 'a'), 5);
  await run(s, 'class K {}');
  await run(s, 'class K { static n = 2 }');
  assert.equal(await run(s, 'K.n'), 2);
});

test('a function from an earlier cell sees names defined and redefined later', async () => {
  const s = createScope();
  await run(s, 'function f() { return g() + 1 }');
  await run(s, 'function g() { return 10 }');
  assert.equal(await run(s, 'f()'), 11);
  await run(s, 'function g() { return 20 }');
  assert.equal(await run(s, 'f()'), 21);
});

test('functions are hoisted within their cell', async () => {
  const s = createScope();
  assert.equal(await run(s, 'const r = h(2);\nfunction h(x) { return x + 1 }\nr'), 3);
});

test('destructuring declarations bind every name', async () => {
  const s = createScope();
  await run(s, 'const { a, b: [c, ...d], e = 4 } = { a: 1, b: [2, 3, 5] };\nlet u, w = 9;');
  assert.deepEqual(await run(s, '[a, c, d, e, u, w]'), [1, 2, [3, 5], 4, undefined, 9]);
});

test('top-level await works and a returned promise is awaited', async () => {
  const s = createScope();
  assert.equal(await run(s, 'const v = await Promise.resolve(4);\nv * 2'), 8);
  assert.equal(await run(s, 'Promise.resolve("later")'), 'later');
});

test('export is accepted, so a solution module runs unchanged as a cell', async () => {
  const s = createScope();
  await run(s, 'export function loraParams(o, i, r) { return r * (o + i) }\nexport const k = 3;\nexport default 9;');
  assert.equal(s.loraParams(4, 4, 2), 16);
  assert.equal(s.k, 3);
  assert.equal(s.default, 9);
});

test('globals in the scope object are visible, e.g. tp', async () => {
  const s = createScope({ tp: { answer: 42 } });
  assert.equal(await run(s, 'tp.answer'), 42);
});

test('names of Object.prototype do not leak into the scope', async () => {
  const s = createScope();
  await run(s, 'const hasOwnProperty = 1;');
  assert.equal(await run(s, 'hasOwnProperty'), 1);
  assert.equal(Object.getPrototypeOf(s), null);
});

test('a runtime error carries its message and the line in the cell', async () => {
  const s = createScope();
  const r = await runCell('const a = 1;\n\nnull.x;', s, { cellId: 'e1' });
  assert.equal(r.error.name, 'TypeError');
  assert.match(r.error.message, /null/);
  assert.equal(r.error.line, 3);
  assert.equal(r.error.file, 'cell-e1.js');
});

test('an error thrown in a function from another cell names that cell and line', async () => {
  const s = createScope();
  await run(s, '// helper\nfunction boom() {\n  throw new Error("boom");\n}', 'h');
  const r = await runCell('boom()', s, { cellId: 'caller' });
  assert.equal(r.error.message, 'boom');
  assert.equal(r.error.file, 'cell-h.js');
  assert.equal(r.error.line, 3);
});

test('a syntax error is reported with its line and column, not thrown', async () => {
  const r = await runCell('const a = 1;\nlet = = 2;', createScope(), { cellId: 's' });
  assert.equal(r.error.name, 'SyntaxError');
  assert.equal(r.error.line, 2);
  assert.ok(r.error.column >= 1);
});

test('non-Error throws are reported too', async () => {
  const r = await runCell('throw "plain";', createScope());
  assert.match(r.error.message, /plain/);
});

test('the transform keeps line numbers', () => {
  const src = 'const a = 1;\nfunction f() {}\nclass C {}\nlet b;\na';
  assert.equal(transformCell(src).code.split('\n').length, src.split('\n').length + 1);
});

test('cellReads lists names a cell reads but does not declare', () => {
  assert.deepEqual(cellReads('const v = tp.arange(1, k + 1);\nprint(v.shape.length)').sort(), ['k', 'print', 'tp']);
  assert.deepEqual(cellReads('syntax error here ('), []);
});

test('imports become dynamic imports bound in the scope', async () => {
  const s = createScope();
  await run(s, "import { strictEqual as eq } from 'node:assert';\nimport * as path from 'node:path';");
  assert.equal(typeof s.eq, 'function');
  assert.equal(s.path.basename('/a/b.txt'), 'b.txt');
});

test('toOutput turns values into the outputs the page renders', () => {
  assert.equal(toOutput(undefined), null);
  assert.deepEqual(toOutput('hi'), { kind: 'text', text: '"hi"' });
  assert.deepEqual(toOutput('hi', { raw: true }), { kind: 'text', text: 'hi' });
  const t = toOutput([{ a: 1, b: 'x' }, { a: 2 }]);
  assert.equal(t.kind, 'table');
  assert.deepEqual(t.columns, ['a', 'b']);
  assert.deepEqual(t.rows, [[1, 'x'], [2, '']]);
  const fake = { shape: [2], toArray: () => [1, 2], toString: () => 'tensor([1., 2.])' };
  assert.deepEqual(toOutput(fake), { kind: 'tensor', text: 'tensor([1., 2.])', shape: [2] });
  assert.equal(toOutput(plot.line([1, 2, 3])).kind, 'plot');
});

test('plot helpers describe data as plain arrays', () => {
  const spec = toOutput(plot.heatmap([[1, 2], [3, 4]])).spec;
  assert.deepEqual(spec.data, { rows: 2, cols: 2, values: [1, 2, 3, 4] });
  const line = toOutput(plot.line([0, 1], [[1, 2], [3, 4]], { labels: ['a', 'b'] })).spec;
  assert.equal(line.data.series.length, 2);
  assert.deepEqual(line.data.series[1], { x: [0, 1], y: [3, 4], name: 'b' });
  assert.deepEqual(toOutput(plot.bar({ a: 1, b: 2 })).spec.data, { labels: ['a', 'b'], values: [1, 2] });
  assert.equal(toOutput(plot.histogram([[1, 2], [3]])).spec.data.values.length, 3);
  assert.throws(() => plot.heatmap([1, 2]), /2-D/);
});

test('inspect prints nested values compactly', () => {
  assert.equal(inspect({ a: [1, 'x'], b: null }), '{ a: [1, "x"], b: null }');
  const c = {};
  c.self = c;
  assert.equal(inspect(c), '{ self: [Circular] }');
  assert.equal(inspect(new Float32Array([1, 2])), 'Float32Array(2) [1, 2]');
});

test('an error\'s column is the reader\'s column, not the rewritten code\'s', async () => {
  const cases = [
    // [cell, the text the error is at]
    ['const a = 1; const b = null; b.x', 'x'],
    ['let s = 0;\n  const o = undefined, p = 2;   o.foo()', 'foo'],
    ['function f() { return 1 }\nconst q = 5; q()', 'q()'],
    ['const z = 1; throw new Error("here")', 'new Error'],
  ];
  for (const [source, at] of cases) {
    const r = await runCell(source, createScope(), { cellId: 'cols' });
    assert.ok(r.error, source);
    const line = source.split('\n')[r.error.line - 1];
    assert.equal(r.error.column, line.lastIndexOf(at) + 1, `${JSON.stringify(source)}: column ${r.error.column} should point at "${at}"`);
  }
});

test('an interruptible cell stops at its next loop iteration or await once its check throws; the scope keeps what it had', async () => {
  const { Interrupted } = await import('../../web/runtime/cells.js');
  const scope = createScope();
  // The flag as the page sets it from another thread: here, after a number of checks.
  let stop = false;
  let calls = 0;
  const check = (v) => { if (stop || ++calls > 100000) throw new Interrupted(); return v; };
  assert.equal((await runCell('const before = 41;', scope, { check })).error, undefined);
  // An endless loop (awaiting now and then), a loop without braces, and one in a function.
  const r = await runCell('let i = 0;\nconst spin = () => { for (;;) i++ };\nwhile (true) { i++; if (i % 1000 === 0) await null; }', scope, { check });
  assert.deepEqual(Object.keys(r).sort(), ['declared', 'interrupted', 'reads']);
  assert.equal(r.interrupted, true);
  assert.equal(scope.before, 41, 'a variable from before the loop survives');
  assert.ok(scope.i > 0, 'and the loop\'s own counter too');
  // The function defined in the cell is instrumented as well.
  calls = 0;
  const again = await runCell('spin()', scope, { check });
  assert.equal(again.interrupted, true);
  calls = 0;
  assert.equal((await runCell('before + 1', scope, { check })).value, 42);
});

test('instrumentation keeps every cell\'s meaning: values, await results, declarations, errors\' columns', async () => {
  const check = (v) => v;
  const cases = [
    ['let s = 0; for (let i = 0; i < 5; i++) s += i; s', 10],
    ['let t = 0; for (const x of [1, 2]) for (const y of [3, 4]) t += x * y; t', 21],
    ['let n = 0; do n++; while (n < 3)\nn', 3],
    ['const v = await Promise.resolve(7)\nv', 7],
    ['await await Promise.resolve(Promise.resolve(8))', 8],
    ['let w = 0; while (w < 2) w = await Promise.resolve(w + 1)\nw', 2],
    ['const o = { a: 1, b: 2 }; let k = \'\'; for (const key in o) k += key; k', 'ab'],
  ];
  for (const [source, value] of cases) {
    const r = await runCell(source, createScope(), { check });
    assert.equal(r.error, undefined, `${source}: ${r.error?.message}`);
    assert.equal(r.value, value, source);
  }
  const r = await runCell('for (let i = 0; i < 1; i++) { const q = null; q.x }', createScope(), { check });
  assert.equal(r.error.column, 'for (let i = 0; i < 1; i++) { const q = null; q.x }'.lastIndexOf('x') + 1);
});
