// Where a solution imports from (web/judge/core/imports.js), read once for the page (which refuses any
// import) and the CLI's sandbox (which grants read access to the files named, inside the solution's folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importsIn } from '../../web/judge/core/imports.js';
import { importClosure } from '../../web/judge/node/imports.js';

test('importsIn lists declarations, re-exports and import() by line, with the literal each names', () => {
  const source = [
    "import { a } from './a.js';",
    'export const x = 1;',
    "export * from './b.js';",
    "const m = await import('./c.js');",
    "const n = await import('./' + name);",
  ].join('\n');
  assert.deepEqual(importsIn(source), [
    { line: 1, what: 'import from "./a.js"', specifier: './a.js' },
    { line: 3, what: 'import from "./b.js"', specifier: './b.js' },
    { line: 4, what: 'import()', specifier: './c.js' },
    { line: 5, what: 'import()', specifier: null },
  ]);
});

test('importsIn of a source that does not parse is empty (the judge reports the syntax error)', () => {
  assert.deepEqual(importsIn('import {'), []);
});

test('importClosure follows literal relative imports inside the folder and skips what names no file there', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tp-imports-'));
  try {
    writeFileSync(join(dir, 'helper.js'), "export { b } from './deep.js';");
    writeFileSync(join(dir, 'deep.js'), 'export const b = 2;');
    const source = "import './helper.js'; import '../outside.js'; import './%E0%A4%A.js'; import 'node:fs';";
    assert.deepEqual(importClosure(join(dir, 'solution.js'), source).sort(), ['deep.js', 'helper.js']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
