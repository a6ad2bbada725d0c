// web/runtime/export.js: the exported .ipynb keeps the reader's cells where they were, the reader's
// exercise answers, one collapsed block per :::details, the chapter's version; and an export opens again
// (fromIpynb) as the same cells. A Python notebook is refused by name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { loadChapters } from '../../web/build.mjs';
import { toIpynb, fromIpynb } from '../../web/runtime/export.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const schema = JSON.parse(fs.readFileSync(path.join(root, 'tests/browser/fixtures/nbformat.v4.5.schema.json'), 'utf8'));
delete schema.$schema;
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const { chapters } = loadChapters();
const chapter = (id, lang) => chapters.find((c) => c.id === id && c.lang === lang);

test('reader cells are exported after the block they follow, marked as the reader\'s, and the notebook validates', () => {
  const demo = chapter('demo', 'en');
  const c2 = demo.blocks.find((b) => b.id === 'c2');
  const reader = {
    top: [{ id: 'r0', type: 'md', source: '# My notes' }],
    after: new Map([[c2, [{ id: 'r1', type: 'code', source: 'A.shape', outputs: [{ kind: 'text', text: '[2, 2]' }], count: 3 }, { id: 'r2', type: 'md', source: 'so *that* is it' }]]]),
  };
  const nb = toIpynb(demo, { reader, version: 'abc123' });
  assert.ok(validate(nb), JSON.stringify(validate.errors, null, 1));
  const ids = nb.cells.map((c) => c.id);
  assert.equal(ids[0], 'r0');
  assert.deepEqual(ids.slice(ids.indexOf('c2'), ids.indexOf('c2') + 3), ['c2', 'r1', 'r2']);
  assert.deepEqual(nb.cells.find((c) => c.id === 'r1').metadata, { tensorpad: { reader: true } });
  assert.equal(nb.cells.find((c) => c.id === 'r1').execution_count, 3);
  assert.deepEqual(nb.metadata.tensorpad, { chapter: 'demo', lang: 'en', title: demo.title, version: 'abc123' });
});

test('an exercise is exported as its statement and a code cell with the reader\'s answer (else the starter)', () => {
  const la = chapter('linear-algebra', 'zh');
  const [first, second] = la.blocks.filter((b) => b.type === 'exercise');
  const nb = toIpynb(la, { exercises: { [first.id]: 'export function mine() {}' } });
  assert.ok(validate(nb), JSON.stringify(validate.errors, null, 1));
  const answer = nb.cells.find((c) => c.id === `exercise-${first.id}`);
  assert.equal(answer.cell_type, 'code');
  assert.equal(answer.source, 'export function mine() {}');
  const statement = nb.cells[nb.cells.indexOf(answer) - 1];
  assert.equal(statement.cell_type, 'markdown');
  assert.match(statement.source, new RegExp(`^\\*\\*练习: .*\`${first.id}\``));
  assert.ok(statement.source.includes(first.exercise.statement.zh.slice(0, 20)), 'the statement in the chapter\'s language');
  assert.equal(nb.cells.find((c) => c.id === `exercise-${second.id}`).source, second.exercise.starter.zh);
});

test('a :::details block is one collapsed Markdown cell, its code fenced inside', () => {
  const demo = chapter('demo', 'en');
  const nb = toIpynb(demo);
  const details = nb.cells.filter((c) => c.cell_type === 'markdown' && c.source.includes('<details>'));
  assert.ok(details.length >= 1);
  for (const d of details) assert.match(d.source, /^<details><summary>[^]*<\/details>$/);
  assert.ok(!nb.cells.some((c) => c.source.trim() === '</details>'), 'no cell holds a lone </details>');
});

test('an export opens again as the same cells, in order', () => {
  const demo = chapter('demo', 'zh');
  const c1 = demo.blocks.find((b) => b.id === 'c1');
  const nb = toIpynb(demo, { sources: { c1: 'const edited = 1;' }, reader: { after: new Map([[c1, [{ id: 'r1', type: 'code', source: 'edited + 1' }]]]) } });
  const back = fromIpynb(JSON.stringify(nb));
  assert.deepEqual(back.cells, nb.cells.map((c) => ({ type: c.cell_type === 'code' ? 'code' : 'md', source: c.source })));
  assert.equal(back.meta.chapter, 'demo');
  assert.equal(back.cells[back.cells.findIndex((c) => c.source === 'const edited = 1;') + 1].source, 'edited + 1');
});

test('any nbformat 4 JavaScript notebook opens (sources as lists of lines); Python and broken files are refused by name', () => {
  const js = { nbformat: 4, nbformat_minor: 2, metadata: { kernelspec: { language: 'javascript' } }, cells: [{ cell_type: 'code', source: ['const a = 1;\n', 'a'] }, { cell_type: 'markdown', source: ['# T'] }] };
  assert.deepEqual(fromIpynb(js).cells, [{ type: 'code', source: 'const a = 1;\na' }, { type: 'md', source: '# T' }]);
  const refused = (nb) => { try { fromIpynb(nb); } catch (e) { return [e.reason, e.message]; } return null; };
  const [reason, message] = refused({ ...js, metadata: { kernelspec: { language: 'python' } } });
  assert.equal(reason, 'python');
  assert.match(message, /Python notebook/);
  assert.equal(refused('{oops')[0], 'not-json');
  assert.equal(refused({ cells: 'x' })[0], 'not-notebook');
  assert.equal(refused({ ...js, nbformat: 3 })[0], 'not-notebook');
  assert.equal(refused({ ...js, metadata: { language_info: { name: 'R' } } })[0], 'language');
});
