// The notebook in Chromium against the built site: chapters in both languages, run all, the REPL
// scope, persistence across reloads, interrupting an endless loop, widgets, exports — and no request
// leaving the origin, no console error. Prints measured load/run times and bytes transferred.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { root, dist, useSiteAndBrowser, openPage, cell, typeInto, editorText, waitForState, waitIdle } from './helpers.mjs';

let srv, browser;
const CHAPTER = 'demo';
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

// Each test gets a fresh context (fresh storage) and checks the invariants at the end.
async function withPage(fn, { context: existing } = {}) {
  const context = existing ?? await browser.newContext({ acceptDownloads: true });
  const { page, log } = await openPage(context, srv.base);
  try {
    await fn(page, log, context);
    assert.deepEqual(log.foreign, [], 'no request may leave the origin');
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    if (!existing) await context.close();
  }
}

const url = (lang) => `${srv.base}?chapter=${CHAPTER}&lang=${lang}`;

test('the index lists the chapters and links to them in the reader\'s language', async () => {
  await withPage(async (page) => {
    await page.goto(`${srv.base}?lang=zh`);
    const link = page.locator(`[data-testid=chapter-list] a[data-chapter=${CHAPTER}]`);
    await link.waitFor();
    assert.equal(await link.textContent(), '笔记本导览');
    assert.match(await link.getAttribute('href'), /lang=zh/);
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);
    const csp = await page.locator('meta[http-equiv=Content-Security-Policy]').getAttribute('content');
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
  });
});

test('a chapter loads in both languages; run all finishes with no cell error', async () => {
  const metrics = {};
  for (const lang of ['en', 'zh']) {
    await withPage(async (page) => {
      const before = { ...srv.stats, byPath: { ...srv.stats.byPath } };
      await page.goto(url(lang));
      await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
      const mark = (name) => page.evaluate((n) => Math.round(performance.getEntriesByName(n)[0]?.startTime ?? NaN), name);
      if (lang === 'en') metrics.firstCellMs = await mark('tensorpad:cells-rendered');
      // The cell worker boots while the chapter is fetched and rendered, not after.
      assert.ok(await mark('tensorpad:worker-started') < await mark('tensorpad:cells-rendered'), 'the worker starts before the cells render');
      assert.equal(await page.locator('h1').textContent(), lang === 'en' ? 'A tour of the notebook' : '笔记本导览');
      assert.equal(await page.locator('html').getAttribute('lang'), lang === 'en' ? 'en' : 'zh-CN');
      assert.ok(await page.locator('.katex').count() > 3, 'formulas are rendered with KaTeX');
      await page.locator('[data-testid=kernel-status]').filter({ hasText: lang === 'en' ? 'Ready' : '就绪' }).waitFor();
      if (lang === 'en') metrics.engineReadyMs = await mark('tensorpad:engine-ready');
      const t0 = Date.now();
      await page.click('[data-testid=run-all]');
      await waitIdle(page);
      if (lang === 'en') metrics.runAllMs = Date.now() - t0;
      const errors = await page.locator('[data-testid=cell-error]').allTextContents();
      assert.deepEqual(errors, []);
      const states = await page.locator('[data-testid=cell]').evaluateAll((cs) => cs.map((c) => c.dataset.state));
      assert.ok(states.every((s) => s === 'done'), `states: ${states}`);
      const first = cell(page, 'c1').locator('[data-testid=cell-output]');
      assert.match(await first.textContent(), /tensor\(\[\[3\.\],\s*\[7\.\]\]\)/);
      // A plot is drawn once its module has loaded, which may be after its cell is done.
      await page.waitForFunction(() => document.querySelectorAll('figure.out-plot svg').length >= 3, null, { timeout: 30000 });
      assert.equal(await page.locator('figure.out-plot:has(svg)').count(), 3, 'three plots are drawn as SVG');
      assert.match(await page.locator('.out-plot').first().getAttribute('aria-label'), /sin|Line/);
      assert.equal(await page.locator('.out-table').count(), 1);
      if (lang === 'en') {
        await page.waitForTimeout(300);
        // Counted by our server: response bodies as sent (gzip for text, the .wasm as is), fresh cache.
        metrics.transferredBytes = srv.stats.bytes - before.bytes;
        metrics.responses = srv.stats.responses - before.responses;
        metrics.wasmBytes = Object.entries(srv.stats.byPath).filter(([p]) => p.endsWith('.wasm')).reduce((s, [p, b]) => s + b - (before.byPath[p] ?? 0), 0);
      }
    });
  }
  console.log(`  measured: first cell rendered ${metrics.firstCellMs} ms after navigation, engine ready ${metrics.engineReadyMs} ms, ` +
    `run all ${metrics.runAllMs} ms, transferred ${(metrics.transferredBytes / 1024).toFixed(0)} KiB in ${metrics.responses} responses (gzip; WASM ${(metrics.wasmBytes / 1024).toFixed(0)} KiB)`);
  fs.mkdirSync(path.join(root, 'tests', 'browser', 'results'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tests', 'browser', 'results', 'notebook-metrics.json'), JSON.stringify(metrics, null, 2));
});

test('the Chinese page can draw its text with the shipped CJK font, from its own origin', async () => {
  await withPage(async (page) => {
    await page.goto(url('zh'));
    // Asked for by name, as a reader without a system CJK font would get it: served, allowed by the
    // CSP (a refusal is a console error) and decodable, with the glyphs the chapter uses.
    const got = await page.evaluate(async () => {
      const faces = await document.fonts.load('16px "Tensorpad CJK"', '矩阵的奇异值');
      return { statuses: faces.map((f) => f.status), has: document.fonts.check('16px "Tensorpad CJK"', '矩阵的奇异值') };
    });
    assert.deepEqual(got.statuses, ['loaded']);
    assert.equal(got.has, true);
  });
});

test('the language switch keeps the reader\'s place', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await cell(page, 'c5').scrollIntoViewIfNeeded();
    await page.evaluate(() => document.getElementById('cell-c5').scrollIntoView({ block: 'start' }));
    await Promise.all([page.waitForURL(/lang=zh/), page.click('[data-testid=lang-switch]')]);
    await page.locator('[data-testid=cell]').first().waitFor();
    const hash = new URL(page.url()).hash;
    assert.match(hash, /^#(b\d+|cell-c5)$/);
    const visible = await page.evaluate((h) => {
      const r = document.getElementById(h.slice(1)).getBoundingClientRect();
      return r.bottom > 0 && r.top < innerHeight;
    }, hash);
    assert.ok(visible, 'the block the reader was at is on screen in the other language');
    assert.equal(await page.locator('h1').textContent(), '笔记本导览');
  });
});

test('a name redefined in a cell is seen by later cells after a re-run', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await typeInto(page, 'c6', 'const z = 1;\nz * 10');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c6');
    assert.equal((await cell(page, 'c6').locator('[data-testid=cell-output]').textContent()).trim(), '10');
    await typeInto(page, 'c6', 'const z = 2;\nfunction twice(v) { return 2 * v }\nz * 10');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.querySelector('[data-cell-id=c6] [data-testid=cell-output]').textContent.trim() === '20');
    await page.click('details.details > summary');
    await typeInto(page, 'c7', 'twice(z) + 0.5');
    await page.keyboard.press('Shift+Enter');
    await waitForState(page, 'c7');
    assert.equal((await cell(page, 'c7').locator('[data-testid=cell-output]').textContent()).trim(), '4.5');
    await typeInto(page, 'c7', 'nope.x');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c7', ['error']);
    assert.match(await cell(page, 'c7').locator('[data-testid=cell-error]').textContent(), /ReferenceError: nope is not defined \(line 1\)/);
  });
});

test('an edit survives a reload, and reset restores the author\'s cell', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await typeInto(page, 'c2', '// my edit\n1 + 1');
    await page.reload();
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.equal(await editorText(page, 'c2'), '// my edit\n1 + 1');
    // Other languages keep their own cells.
    await page.goto(url('zh'));
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.match(await editorText(page, 'c2'), /A 的形状/);
    await page.goto(url('en'));
    await cell(page, 'c2').locator('[data-testid=cell-reset]').click();
    assert.match(await editorText(page, 'c2'), /^print\('A has shape'/);
    await page.reload();
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.match(await editorText(page, 'c2'), /^print\('A has shape'/);
    assert.equal(await cell(page, 'c2').locator('[data-testid=cell-reset]').isHidden(), true);
  });
});

test('two tabs of a chapter keep each other\'s edits: each tab writes only its own changes over what is stored', async () => {
  await withPage(async (page, log, context) => {
    await page.goto(url('en'));
    const { page: other } = await openPage(context, srv.base);
    await other.goto(url('en'));
    await other.locator('[data-testid=cell] .cm-editor').first().waitFor();
    await typeInto(page, 'c2', '// edited in tab 1\n1');
    await page.waitForTimeout(500); // tab 1 has written (typing saves within 200 ms)
    await typeInto(other, 'c3', '// edited in tab 2\n2'); // tab 2 opened before tab 1's edit
    await other.waitForTimeout(500);
    await page.reload();
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.equal(await editorText(page, 'c2'), '// edited in tab 1\n1');
    assert.equal(await editorText(page, 'c3'), '// edited in tab 2\n2');
    await other.close();
  });
});

test('the sticky header keeps its height whatever the status says, so a run does not restyle the whole page', async () => {
  // A taller header changes --header-h, which every element of the chapter inherits: one change
  // restyled ~60,000 nodes of the real chapter (~130 ms), on every cell run a widget drag triggers.
  await withPage(async (page) => {
    for (const width of [1100, 860, 640]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(url('en'));
      await waitIdle(page);
      const height = () => page.evaluate(async () => [await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
        document.querySelector('.chapter-header').getBoundingClientRect().height,
        getComputedStyle(document.documentElement).getPropertyValue('--header-h')].slice(1));
      const ready = await height();
      for (const text of ['Running cell 129…', '正在运行单元格 129…', 'No cell is running; nothing to interrupt']) {
        await page.evaluate((t) => { document.querySelector('[data-testid=kernel-status]').textContent = t; }, text);
        assert.deepEqual(await height(), ready, `width ${width}, status "${text}"`);
      }
    }
  });
});

test('an author\'s change to an edited cell is offered as an update', async () => {
  await withPage(async (page) => {
    await page.goto(srv.base);
    await page.evaluate(() => localStorage.setItem('tensorpad:v1:chapter:demo', JSON.stringify({
      v: 1, exercises: {}, cells: { en: { c2: { source: 'old edit', base: '00000000' } } },
    })));
    await page.goto(url('en'));
    const take = cell(page, 'c2').locator('[data-testid=cell-take-update]');
    await take.waitFor();
    assert.equal(await editorText(page, 'c2'), 'old edit');
    await take.click();
    assert.match(await editorText(page, 'c2'), /^print\('A has shape'/);
  });
});

test('corrupt storage gives a notice and the author\'s cells, never a broken page', async () => {
  await withPage(async (page) => {
    await page.goto(srv.base);
    await page.evaluate(() => localStorage.setItem('tensorpad:v1:chapter:demo', '{not json'));
    await page.goto(url('en'));
    await page.locator('[data-testid=notice]').filter({ hasText: 'could not be read' }).waitFor();
    assert.match(await editorText(page, 'c1'), /^const A = tp\.tensor/);
    await typeInto(page, 'c1', 'const fresh = 1;');
    await page.reload();
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.equal(await editorText(page, 'c1'), 'const fresh = 1;');
  });
});

test('interrupt stops while(true){} within a second; the next cell then runs', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    await typeInto(page, 'c5', 'while (true) {}');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c5', ['running']);
    await page.waitForTimeout(300);
    // Timed in the page: from the click event to the cell leaving "running", then to a fresh engine.
    const timing = page.evaluate(() => new Promise((resolve) => {
      const c5 = document.querySelector('[data-cell-id=c5]');
      let clicked = 0;
      document.querySelector('[data-testid=interrupt]').addEventListener('click', () => { clicked = performance.now(); }, { capture: true, once: true });
      new MutationObserver((_, obs) => {
        if (clicked && c5.dataset.state !== 'running') {
          obs.disconnect();
          resolve(performance.now() - clicked);
        }
      }).observe(c5, { attributes: true });
    }));
    const t0 = Date.now();
    await page.click('[data-testid=interrupt]');
    const stopMs = Math.round(await timing);
    await waitForState(page, 'c5', ['error'], 1000);
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    const freshMs = Date.now() - t0;
    assert.ok(stopMs < 1000, `stopped in ${stopMs} ms`);
    // The cell says "Interrupted" once, then what happened (this page is crossOriginIsolated: the worker
    // and its variables live on; tests/browser/interrupt.test.mjs covers the page that is not).
    assert.equal(await cell(page, 'c5').locator('[data-testid=cell-error]').textContent(),
      'Interrupted: the cell stopped here; variables are kept.');
    assert.match(await page.locator('[data-testid=notice]').allTextContents().then((t) => t.join(' ')), /variable are kept/i);
    // The text typed before the interrupt is still there, and saved.
    assert.equal(await editorText(page, 'c5'), 'while (true) {}');
    await cell(page, 'c6').locator('[data-testid=cell-run]').click();
    await waitForState(page, 'c6', ['done']);
    // Earlier cells' state is kept: their outputs are not stale and nothing asks for a re-run.
    assert.equal(await cell(page, 'c4').getAttribute('data-state'), 'done');
    assert.equal(await page.locator('[data-testid=rerun-above]').count(), 0);
    console.log(`  measured: interrupt stopped the cell ${stopMs} ms after the click; engine ready after ${freshMs} ms`);
  });
});

test('an interrupted cell says so once, in the reader\'s language; so does a tensor\'s shape', async () => {
  await withPage(async (page) => {
    await page.goto(url('zh'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: '就绪' }).waitFor();
    await typeInto(page, 'c1', 'while (true) {}');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['running']);
    await page.click('[data-testid=interrupt]');
    await waitForState(page, 'c1', ['error'], 2000);
    const text = await cell(page, 'c1').locator('[data-testid=cell-error]').textContent();
    assert.equal(text, '已中断: 单元在这里停止；变量都还在。');
    assert.equal(text.split('已中断').length, 2, `"已中断" appears once: ${text}`);
    // The fresh engine runs the cell again; a tensor's shape caption is in Chinese too.
    await typeInto(page, 'c1', 'tp.zeros([2, 3])');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['done']);
    assert.equal(await cell(page, 'c1').locator('.out-shape').textContent(), '形状 [2, 3]');
  });
});

test('the page shell follows the reader\'s language: skip link, and noscript in both', async () => {
  await withPage(async (page) => {
    for (const [lang, skip] of [['zh', '跳到正文'], ['en', 'Skip to content']]) {
      await page.goto(url(lang));
      await page.locator('[data-testid=cell]').first().waitFor();
      assert.equal(await page.locator('.skip-link').textContent(), skip);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang === 'zh' ? 'zh-CN' : 'en');
    }
    // Without JavaScript the language is unknown: the notice is given in both, each marked with its language.
    const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    assert.match(shell, /<noscript><p lang="en">Tensorpad needs JavaScript[^<]*<\/p><p lang="zh-CN">Tensorpad 需要 JavaScript[^<]*<\/p><\/noscript>/);
  });
});

test('an exercise title keeps its difficulty badge beside its first line, wide or narrow', async () => {
  for (const width of [1000, 420]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await withPage(async (page) => {
      await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
      await page.waitForFunction(() => {
        const all = document.querySelectorAll('[data-testid=exercise]');
        return all.length > 0 && document.querySelectorAll('[data-testid=exercise] .judge-title .judge-difficulty').length === all.length;
      }, null, { timeout: 30000 });
      const titles = await page.locator('[data-testid=exercise] .judge-title').evaluateAll((hs) => hs.map((h2) => {
        const badge = h2.querySelector('.judge-difficulty');
        const line = parseFloat(getComputedStyle(h2).lineHeight);
        const top = h2.getBoundingClientRect().top;
        const b = badge?.getBoundingClientRect();
        return { id: h2.closest('[data-exercise-id]').dataset.exerciseId, line, badgeTop: b ? b.top - top : null, badgeBottom: b ? b.bottom - top : null, right: b ? h2.getBoundingClientRect().right - b.right : null };
      }));
      assert.ok(titles.length >= 30, `${titles.length} exercises`);
      for (const t of titles) {
        assert.ok(t.badgeTop !== null, `${t.id} has a badge`);
        assert.ok(t.badgeBottom <= t.line, `${width}px: the ${t.id} badge sits on the title's first line (${JSON.stringify(t)})`);
        assert.ok(t.right >= -0.5, `${width}px: the ${t.id} badge stays inside the title`);
      }
    }, { context });
    await context.close();
  }
});

// A page in a context of its own, with `init` run before the page's scripts.
async function withInitScript(init, fn) {
  const context = await browser.newContext();
  await context.addInitScript(init);
  try {
    await withPage(fn, { context });
  } finally {
    await context.close();
  }
}

// After a dead worker was replaced: the fresh engine gets ready, the code of the cell that killed it is
// kept, and c6 (6 * 7) runs on the new worker.
async function expectFreshEngine(page, killer, source) {
  await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor({ timeout: 10000 });
  assert.equal(await editorText(page, killer), source, 'the code is kept');
  await cell(page, 'c6').locator('[data-testid=cell-run]').click();
  await waitForState(page, 'c6', ['done']);
  assert.equal((await cell(page, 'c6').locator('[data-testid=cell-output]').textContent()).trim(), '42');
}

test('without Web Locks, a worker that stops idle (a cell calling self.close()) is found by the ping sent with the next run', async () => {
  // Heartbeats long enough that none is likely to fall between the two runs: the ping sent with the run
  // is what finds the dead worker. The page sees no Web Locks (as in an insecure context), so pings are
  // the only watch.
  await withInitScript(() => {
    globalThis.__TENSORPAD_HEARTBEAT_MS__ = 2000;
    Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });
  }, async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c6', '6 * 7');
    await typeInto(page, 'c5', 'self.close(); 1');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c5', ['done', 'error']);
    // The next run goes to the dead worker at once: the ping sent ahead of it goes unanswered (no
    // error event comes), so after 3 heartbeats a fresh engine replaces it and the run is settled.
    await cell(page, 'c6').locator('[data-testid=cell-run]').click();
    await page.locator('[data-testid=notice]').filter({ hasText: 'stopped responding' }).waitFor({ timeout: 15000 });
    await waitForState(page, 'c6', ['error'], 15000);
    await expectFreshEngine(page, 'c5', 'self.close(); 1');
  });
});

test('a worker that ends in the middle of a run is noticed at once through its Web Lock and replaced', async () => {
  // Heartbeats of a minute, and none is ever sent during a run: only the lock can notice this death.
  await withInitScript(() => { globalThis.__TENSORPAD_HEARTBEAT_MS__ = 60000; }, async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c6', '6 * 7');
    // close() ends the worker once the current task returns; the run itself never finishes.
    const source = 'self.close(); await new Promise(() => {})';
    await typeInto(page, 'c5', source);
    const t0 = Date.now();
    await page.keyboard.press('Control+Enter');
    await page.locator('[data-testid=notice]').filter({ hasText: 'stopped responding' }).waitFor({ timeout: 10000 });
    const noticedMs = Date.now() - t0;
    await waitForState(page, 'c5', ['error'], 10000);
    await expectFreshEngine(page, 'c5', source);
    console.log(`  measured: the death was noticed ${noticedMs} ms after the run started`);
  });
});

test('a slider widget re-runs the cells that read its value', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    const out = cell(page, 'c5').locator('[data-testid=cell-output]');
    assert.match(await out.textContent(), /k = 3/);
    const slider = page.locator('[data-testid=widget-slider]');
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => /k = 5/.test(document.querySelector('[data-cell-id=c5] [data-testid=cell-output]').textContent));
    assert.match(await out.textContent(), /7\.416/);
    await page.locator('[data-testid=widget-readout]').filter({ hasText: '7.4162' }).waitFor();
  });
});

test('Export .ipynb downloads a notebook valid against nbformat 4.5', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ipynb]')]);
    const nb = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    const schema = JSON.parse(fs.readFileSync(path.join(root, 'tests/browser/fixtures/nbformat.v4.5.schema.json'), 'utf8'));
    delete schema.$schema;
    const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
    assert.ok(validate(nb), JSON.stringify(validate.errors, null, 1));
    assert.equal(nb.nbformat, 4);
    const code = nb.cells.filter((c) => c.cell_type === 'code');
    // A :::details block is one collapsed Markdown cell: its code cells are fenced inside it.
    assert.equal(code.length, await page.locator('main [data-testid=cell]:not(details [data-testid=cell])').count());
    assert.ok(code[2].outputs.some((o) => o.data?.['image/svg+xml']?.startsWith('<svg')), 'plots are exported as SVG');
    const [md] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-md]')]);
    assert.match(fs.readFileSync(await md.path(), 'utf8'), /^---\nid: demo\n[\s\S]*```js\nconst A = tp\.tensor/);
  });
});

test('every action is reachable by keyboard; Shift+Enter runs and moves to the next cell', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // back to chapters
    await page.keyboard.press('Tab'); // contents (the viewport has no room for them beside the text)
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'toc-open');
    await page.keyboard.press('Tab'); // colour theme
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'theme-select');
    await page.keyboard.press('Tab'); // language switch
    await page.keyboard.press('Tab'); // run all
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'run-all');
    await cell(page, 'c1').locator('.cm-content').click();
    await page.keyboard.press('Shift+Enter');
    await waitForState(page, 'c1', ['done']);
    assert.equal(await page.evaluate(() => document.activeElement.closest('[data-testid=cell]')?.dataset.cellId), 'c2');
    // Tab indents inside the editor, Shift+Tab takes it back; Esc then Tab leaves it (no keyboard trap).
    const c2 = await editorText(page, 'c2');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('[data-cell-id=c2] .cm-editor')), true, 'Tab stays in the editor');
    assert.equal(await editorText(page, 'c2'), c2.replace(/^/, '  '), 'Tab indents the line');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await editorText(page, 'c2'), c2, 'Shift+Tab takes the indent back');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('.cm-editor')), false, 'Esc then Tab leaves the editor');
    const unlabelled = await page.$$eval('button', (bs) => bs.filter((b) => !(b.getAttribute('aria-label') || b.textContent.trim())).length);
    assert.equal(unlabelled, 0, 'every button has a label');
  });
});

test('full storage gives a notice; the edit stays on the page', async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key.startsWith('tensorpad:v1:chapter:')) throw new DOMException('quota', 'QuotaExceededError');
      return original.call(this, key, value);
    };
  });
  try {
    await withPage(async (page) => {
      await page.goto(url('en'));
      await typeInto(page, 'c1', 'const kept = 1;');
      await page.locator('[data-testid=notice]').filter({ hasText: 'storage is full' }).waitFor();
      assert.equal(await editorText(page, 'c1'), 'const kept = 1;');
    }, { context });
  } finally {
    await context.close();
  }
});

test('Restart clears every name; re-running the cells above brings them back', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    await page.click('[data-testid=restart]');
    assert.equal(await cell(page, 'c1').getAttribute('data-state'), 'idle');
    // Outputs kept from the old worker say so in words (not only by a dashed edge).
    assert.equal(await cell(page, 'c1').locator('[data-testid=cell-status]').textContent(), 'output from before the restart');
    await page.click('details.details > summary');
    await typeInto(page, 'c7', 'typeof A');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c7', ['done']);
    assert.equal((await cell(page, 'c7').locator('[data-testid=cell-output]').textContent()).trim(), '"undefined"');
    await page.click('[data-testid=rerun-above]');
    await waitIdle(page);
    await typeInto(page, 'c7', 'A.shape');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.querySelector('[data-cell-id=c7] [data-testid=cell-output]').textContent.trim() === '[2, 2]');
  });
});

test('a print shows while its cell is still running, and stays when the cell is interrupted', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c1', 'print("start");\nprint("again");\nwhile (true) {}');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(() => document.querySelector('[data-cell-id=c1] [data-testid=cell-output]')?.textContent.includes('again'), null, { timeout: 5000 });
    assert.equal(await cell(page, 'c1').getAttribute('data-state'), 'running');
    await page.click('[data-testid=interrupt]');
    await waitForState(page, 'c1', ['error'], 2000);
    const out = await cell(page, 'c1').locator('[data-testid=cell-output]').textContent();
    assert.match(out, /^start\nagain\n?Interrupted: /);
  });
});

test('a name another cell defines, used before that cell ran, gets a hint naming the cell', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await cell(page, 'c2').locator('[data-testid=cell-run]').click();
    await waitForState(page, 'c2', ['error']);
    assert.match(await cell(page, 'c2').locator('[data-testid=cell-error]').textContent(), /^ReferenceError: A is not defined/);
    assert.equal(await cell(page, 'c2').locator('[data-testid=cell-hint]').textContent(),
      'A is defined by cell 1: run that cell first (the cells share one scope, which Interrupt and Restart empty), or Run all.');
    // A name no cell defines gets no hint.
    await typeInto(page, 'c2', 'nowhereDefined + 1');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c2', ['error']);
    assert.equal(await cell(page, 'c2').locator('[data-testid=cell-hint]').count(), 0);
  });
});

test('Run all that stops at a failing cell says so in the status line; Shift+Enter on a Run button moves on', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c2', 'throw new Error("stop here")');
    await page.click('[data-testid=run-all]');
    await waitForState(page, 'c2', ['error']);
    await page.locator('[data-testid=kernel-status]').filter({ hasText: /^Stopped at cell 2, which failed; the \d+ cells after it did not run$/ }).waitFor({ timeout: 5000 });
    assert.equal(await cell(page, 'c3').getAttribute('data-state'), 'idle');
    await cell(page, 'c1').locator('[data-testid=cell-run]').focus();
    await page.keyboard.press('Shift+Enter');
    await waitForState(page, 'c1', ['done']);
    assert.ok(await cell(page, 'c2').evaluate((el) => el.contains(document.activeElement)), 'focus moved to the next cell');
  });
});

test('running out of tensor memory offers a Restart, which frees every tensor', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c1', 'globalThis.keep = [];\nfor (let i = 0; i < 100000; i++) keep.push(tp.zeros([1024, 1024]));');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['error'], 60000);
    assert.match(await cell(page, 'c1').locator('[data-testid=cell-error]').textContent(), /live tensors hold \d+ MB/);
    const notice = page.locator('[data-testid=notice]').filter({ hasText: 'The tensor engine is out of memory' });
    await notice.getByRole('button', { name: 'Restart' }).click();
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor();
    await typeInto(page, 'c1', 'tp.memory().tensors');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['done']);
    assert.equal((await cell(page, 'c1').locator('[data-testid=cell-output]').textContent()).trim(), '0');
  });
});
