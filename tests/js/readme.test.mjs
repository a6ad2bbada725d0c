// The README's API example runs as written and prints what its comments say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

test("the README's first js example runs and ends with the matmul error it shows", async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(readme)[1];
  // Run it as a module inside the repository, so that 'tensorpad' resolves to this package.
  const dir = mkdtempSync(join(fileURLToPath(new URL('.', import.meta.url)), '.readme-'));
  const file = join(dir, 'example.mjs');
  const logs = [];
  const saved = console.log;
  console.log = (...a) => logs.push(a.join(' '));
  try {
    writeFileSync(file, code);
    await assert.rejects(import(file), {
      name: 'TensorpadError',
      message: 'matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)',
    });
  } finally {
    console.log = saved;
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(logs[0], 'true');
  assert.match(logs[1], /^tensor\(\[/);
});
