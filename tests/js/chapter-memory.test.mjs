// The chapter's cells free their temporaries as they go (tp.tidy), as the chapter tells readers to:
// WebAssembly memory never shrinks, so what a run leaves for the garbage collector stays in the page's
// heap at its peak. Run in Node with finalizers off, every tensor a cell leaves unreachable stays
// counted, so what is alive after each cell, minus what its scope can reach, is that garbage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { init } from 'tensorpad';
import { parseChapter } from '../../web/content/chapter.mjs';
import { runCell, createScope } from '../../web/runtime/cells.js';
import { plot } from '../../web/runtime/plot.js';
import { html, table } from '../../web/runtime/display.js';

const MB = 1 << 20;
// A cell may leave a little behind (a printed scalar's tensor, a small intermediate), not a matrix.
const GARBAGE_PER_CELL = 2 * MB;

test('no chapter cell leaves more than 2 MB of unreachable tensors behind, in either language', async () => {
  const tp = await init({ fresh: true, finalizers: false });
  Object.assign(globalThis, { tp, print: () => {}, display: () => {}, plot, html, table });
  const reachableBytes = (scope) => {
    const seen = new Set();
    const walk = (v, depth) => {
      if (depth > 6 || v === null || typeof v !== 'object') return;
      if (tp.isTensor(v)) { seen.add(v); return; }
      if (seen.has(v)) return;
      seen.add(v);
      for (const x of Array.isArray(v) ? v : Object.values(v)) walk(x, depth + 1);
    };
    for (const v of Object.values(scope)) walk(v, 0);
    let bytes = 0;
    for (const v of seen) if (tp.isTensor(v) && !v.isDisposed) bytes += 4 * v.shape.reduce((a, b) => a * b, 1);
    return bytes;
  };
  for (const lang of ['en', 'zh']) {
    const file = new URL(`../../web/chapters/linear-algebra/${lang}.md`, import.meta.url);
    const { blocks } = parseChapter(fs.readFileSync(file, 'utf8'), { file: file.pathname, lang });
    const scope = createScope();
    let ran = 0;
    for (const cell of blocks.filter((b) => b.type === 'cell')) {
      const before = tp.memory().bytes - reachableBytes(scope);
      const r = await runCell(cell.source, scope, { cellId: cell.id });
      if (r.error) continue; // a cell that needs the page (a widget's value) is the browser tests' to run
      ran++;
      const garbage = tp.memory().bytes - reachableBytes(scope) - before;
      assert.ok(garbage <= GARBAGE_PER_CELL, `${lang} cell ${cell.id} left ${(garbage / MB).toFixed(1)} MB unreachable`);
    }
    assert.ok(ran >= 40, `${lang}: only ${ran} cells ran in Node`);
  }
});
