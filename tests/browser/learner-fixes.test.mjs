// What a learner tripped over, fixed and kept fixed in Chromium: a cell's html() cannot restyle the page,
// a wide table scrolls with a cue, code everywhere (exercise editors too) has the CJK font stack, a finger
// on a figure scrolls the page, and a Restart clears the notice that asked for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, withSitePage, engineReady, runCell as run, cell } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });
const url = (lang, chapter = 'demo') => `${srv.base}?chapter=${chapter}&lang=${lang}`;

const withPage = (fn, contextOptions = {}) => withSitePage(browser, srv.base, (page) => fn(page), { contextOptions });

test('a <style> in a cell\'s html() output styles that output only, never the page', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await engineReady(page);
    const before = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('h1')).color]);
    await run(page, 'c1', 'html`<style>body { background: rgb(255, 0, 0) } h1, p { color: rgb(0, 255, 0) }</style><p id="mine">styled here</p>`');
    const out = cell(page, 'c1').locator('[data-testid=out-html]');
    assert.equal(await out.locator('#mine').textContent(), 'styled here', 'the output is shown (in its shadow root)');
    assert.equal(await out.locator('#mine').evaluate((p) => getComputedStyle(p).color), 'rgb(0, 255, 0)', 'its style applies inside');
    const after = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('h1')).color]);
    assert.deepEqual(after, before);
  });
});

test('on a phone, a table wider than the page scrolls sideways with a shadow cue, and a finger on a figure scrolls the page', async () => {
  await withPage(async (page) => {
    await page.goto(url('zh'));
    await engineReady(page, 'zh');
    await run(page, 'c1', 'table([Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`column ${i}`, i * 1000]))])');
    const wrap = cell(page, 'c1').locator('.out-table-wrap');
    const m = await wrap.evaluate((el) => ({ sw: el.scrollWidth, cw: el.clientWidth, bg: getComputedStyle(el).backgroundImage, ox: getComputedStyle(el).overflowX }));
    assert.ok(m.sw > m.cw, `the table is wider than its box (${m.sw} > ${m.cw})`);
    assert.equal(m.ox, 'auto');
    assert.match(m.bg, /radial-gradient.*radial-gradient/, 'edge shadows say there is more to see');
    const widget = page.locator('[data-widget=attention-flow] svg').first();
    await widget.waitFor();
    // pan-y (or, where a figure scrolls sideways on a phone, pan-x pan-y): never none.
    assert.match(await widget.evaluate((el) => getComputedStyle(el).touchAction), /^(pan-x )?pan-y$/);
    // The attention-flow figure fits a phone: its mixed vector c (the last column) is on screen.
    await page.waitForFunction(() => document.querySelector('[data-testid=widget-attention-flow]')?.dataset.state === 'ready', null, { timeout: 60000 });
    const fit = await page.locator('[data-testid=attention-flow-svg]').evaluate((svg) => {
      const right = Math.max(...[...svg.querySelectorAll('rect[data-value]')].map((r) => r.getBoundingClientRect().right));
      return { right, width: document.documentElement.clientWidth, scrolls: svg.parentElement.scrollWidth > svg.parentElement.clientWidth };
    });
    assert.ok(fit.right <= fit.width, `c's last cell ends at ${fit.right}px of ${fit.width}`);
    assert.equal(fit.scrolls, false);
    const handle = page.locator('.tpw-handle').first();
    await handle.waitFor();
    assert.equal(await handle.evaluate((el) => getComputedStyle(el).touchAction), 'none', 'a handle keeps the drag');
  }, { viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
});

test('code, outputs, exercise editors and verdicts use the font stack with the shipped CJK subset', { timeout: 180000 }, async () => {
  await withPage(async (page) => {
    await page.goto(url('zh', 'linear-algebra'));
    const editor = page.locator('[data-testid=exercise] .cm-scroller').first();
    await editor.waitFor({ timeout: 120000 });
    // Editors (a static copy until they near the viewport, then CodeMirror), code, and an exercise's verdict,
    // case list, buttons and title: each one's stack ends with the shipped subset.
    const exercise = page.locator('[data-testid=exercise]').first();
    for (const el of [editor, page.locator('[data-testid=cell] .cm-scroller').first(), exercise.locator('code').first(),
      exercise.locator('[data-testid=judge-verdict]'), exercise.locator('[data-testid=judge-cases]'), exercise.locator('[data-testid=judge-button]'),
      exercise.locator('.judge-title'), exercise.locator('.judge-cli code')]) {
      assert.match(await el.evaluate((e) => getComputedStyle(e).fontFamily), /Tensorpad CJK/);
    }
    await exercise.scrollIntoViewIfNeeded();
    await exercise.locator('.cm-editor:not([data-static]) .cm-scroller').waitFor();
    assert.match(await exercise.locator('.cm-scroller').evaluate((e) => getComputedStyle(e).fontFamily), /Tensorpad CJK/, 'the editor made from the static copy too');
    // The stack's shipped face has the exercise block's characters ("本地判题").
    assert.ok(await page.evaluate(async () => (await document.fonts.load('16px "Tensorpad CJK"', '本地判题')).length) >= 1);
  });
});

// "Re-run the cells above" under the interrupted cell: tests/browser/interrupt.test.mjs (a page without isolation).
test('Restart clears the out-of-memory notice that asked for it', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await engineReady(page);
    // A full heap's notice (its message as the core says it), then the toolbar's Restart.
    await run(page, 'c3', 'throw new Error("tp.zeros: out of memory: 12 live tensors hold 2047 MB")');
    const notice = page.locator('[data-testid=notice]').filter({ hasText: 'out of memory' });
    await notice.waitFor();
    await page.click('[data-testid=restart]');
    assert.equal(await notice.count(), 0);
  });
});

test('in the Chinese chapter, what our code writes into outputs is Chinese: a histogram\'s count axis, a table\'s caption', async () => {
  await withPage(async (page) => {
    await page.goto(url('zh'));
    await engineReady(page, 'zh');
    await run(page, 'c1', 'plot.histogram([1, 2, 2, 3, 3, 3])');
    const svg = cell(page, 'c1').locator('figure.out-plot svg').first();
    await svg.waitFor();
    const text = await svg.textContent();
    assert.match(text, /个数/);
    assert.doesNotMatch(text, /Frequency/);
    await run(page, 'c1', 'table([{ a: 1 }, { a: 2 }])');
    assert.equal(await cell(page, 'c1').locator('.out-table caption').textContent(), '2 行 × 1 列');
  });
});

test('the Chinese chapter\'s own cells print in Chinese, and the English chapter\'s in English', { timeout: 180000 }, async () => {
  for (const [lang, words, not] of [['zh', /同一个 id 取到同一行：\s*true/, /of shape|same row/], ['en', /the same id gives the same row:\s*true/, /[\u4e00-\u9fff]/]]) {
    await withPage(async (page) => {
      await page.goto(url(lang, 'linear-algebra'));
      await engineReady(page, lang);
      for (const id of ['helpers', 'embedding']) {
        await cell(page, id).locator('[data-testid=cell-run]').click();
        await page.waitForFunction((cid) => ['done', 'error'].includes(document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`).dataset.state), id, { timeout: 60000 });
      }
      const out = await cell(page, 'embedding').locator('[data-testid=cell-output]').textContent();
      assert.match(out, words);
      assert.doesNotMatch(out, not);
    });
  }
});
