// The page's guess at which cell defines a name (web/src/declares.js), for the hint under a ReferenceError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declaresName } from '../../web/src/declares.js';

test('a top-level const, let, var, function or class declares its name, destructured or one of several', () => {
  for (const [source, name] of [
    ['const fmt = (x) => x', 'fmt'], ['// helpers\nfunction fmt(a) {}', 'fmt'], ['async function* gen() {}', 'gen'],
    ['const { a, fmt } = o', 'fmt'], ['const { a: fmt } = o', 'fmt'], ['const [p, q] = f()', 'q'], ['let a = 1, b = 2', 'b'],
    ['var x$ = 1', 'x$'], ['const 矩阵 = tp.eye(2)', '矩阵'], ['class Foo {}', 'Foo'], ['export const W = 1', 'W'], ['let pending', 'pending'],
  ]) assert.ok(declaresName(source, name), `${JSON.stringify(source)} declares ${name}`);
});

test('a use, a longer name, an object key, an argument or an indented (inner) declaration does not', () => {
  for (const [source, name] of [
    ['let x = fmt(1)', 'fmt'], ['const fmtx = 1', 'fmt'], ['const 矩阵A = 1', '矩阵'], ['const x = { fmt: 1 }', 'fmt'],
    ['const y = f(a, fmt)', 'fmt'], ['  const fmt = 1', 'fmt'], ['print(fmt)', 'fmt'],
  ]) assert.ok(!declaresName(source, name), `${JSON.stringify(source)} does not declare ${name}`);
});
