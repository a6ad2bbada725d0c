// The reader's own cells in Chromium, in both languages: insert, delete, move and duplicate by mouse and
// by command-mode keys; they come back after a reload (and after an author's update moved blocks), are
// exported and open again from the .ipynb; Reset chapter asks first; the scratch panel; the "?" overlay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { useSiteAndBrowser, withSitePage, cell } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });
const url = (lang, chapter = 'demo') => `${srv.base}?chapter=${chapter}&lang=${lang}`;
const ready = (page) => page.locator('[data-testid=cell] .cm-editor').first().waitFor();

const withPage = (fn) => withSitePage(browser, srv.base, (page, context) => fn(page, context), { contextOptions: { acceptDownloads: true } });

/** The page's cells in order: author cells by id, the reader's as "R:<text>" (Markdown as "M:<text>"). */
const layout = (page) => page.evaluate(() => [...document.querySelectorAll('main [data-testid=cell], main [data-testid=md-cell]')].map((el) => {
  const text = el.dataset.testid === 'md-cell' ? el.querySelector('[data-testid=md-rendered]').textContent.trim() : [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n');
  return el.dataset.reader === 'true' ? `${el.dataset.testid === 'md-cell' ? 'M' : 'R'}:${text}` : el.dataset.cellId;
}));

for (const lang of ['en', 'zh']) {
  test(`${lang}: cells added, moved, duplicated and deleted by mouse come back after a reload, where they were`, async () => {
    await withPage(async (page) => {
      await page.goto(url(lang));
      await ready(page);
      await cell(page, 'c2').locator('[data-testid=add-cell-below]').click();
      await page.keyboard.insertText('const mine = 2;');
      const mine = page.locator('main [data-reader=true]').first();
      assert.equal(await mine.getAttribute('data-testid'), 'cell');
      assert.equal(await mine.getAttribute('data-state'), 'idle');
      await mine.locator('[data-testid=duplicate-cell]').click();
      await page.locator('main [data-reader=true]').nth(1).locator('[data-testid=move-cell-down]').click();
      await page.locator('main [data-reader=true]').nth(1).locator('[data-testid=move-cell-down]').click();
      let now = await layout(page);
      assert.deepEqual(now.slice(0, 4), ['c1', 'c2', 'R:const mine = 2;', 'c3'], JSON.stringify(now));
      const dup = now.indexOf('R:const mine = 2;', 3);
      assert.ok(dup > now.indexOf('c3'), `the duplicate moved below c3: ${now}`);
      await page.reload();
      await ready(page);
      assert.deepEqual(await layout(page), now, 'the same cells in the same places after a reload');
      // Delete the duplicate: one left.
      await page.locator('main [data-reader=true]').nth(1).locator('[data-testid=delete-cell]').click();
      now = await layout(page);
      assert.equal(now.filter((x) => x.startsWith('R:')).length, 1);
      assert.equal(await cell(page, 'c1').locator('[data-testid=delete-cell]').count(), 0, 'an author cell has no Delete');
      // The other language keeps its own cells.
      await page.goto(url(lang === 'en' ? 'zh' : 'en'));
      await ready(page);
      assert.equal(await page.locator('main [data-reader=true]').count(), 0);
    });
  });
}

test('command mode: Esc selects the cell; B, A, M, Y, D D, arrows and Enter act on cells; "?" lists the keys', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await ready(page);
    await cell(page, 'c1').locator('.cm-content').click();
    await page.keyboard.press('Escape');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cellId), 'c1', 'Esc leaves the editor for its cell');
    await page.keyboard.press('b');
    await page.keyboard.insertText('// below');
    await page.keyboard.press('Escape');
    await page.keyboard.press('a');
    await page.keyboard.insertText('## above');
    await page.keyboard.press('Escape');
    await page.keyboard.press('m');
    await page.waitForFunction(() => document.querySelector('main [data-testid=md-cell] [data-testid=md-rendered] h2')?.textContent === 'above');
    let now = await layout(page);
    assert.deepEqual(now.slice(0, 3), ['c1', 'M:above', 'R:// below'], 'M made it a Markdown cell, rendered');
    await page.keyboard.press('y');
    assert.equal((await layout(page))[1], 'R:## above', 'Y made it code again');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    now = await layout(page);
    assert.deepEqual(now.slice(0, 3), ['c1', 'R:## above', 'c2']);
    await page.keyboard.press('k');
    await page.keyboard.press('k');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cellId), 'c1');
    await page.keyboard.press('d');
    await page.keyboard.press('d');
    assert.equal((await layout(page))[0], 'c1', 'D D on an author cell deletes nothing');
    await page.keyboard.press('Enter');
    assert.ok(await cell(page, 'c1').evaluate((el) => el.querySelector('.cm-content').contains(document.activeElement)), 'Enter edits');
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const overlay = page.locator('[data-testid=keys-overlay]');
    await overlay.waitFor();
    assert.match(await overlay.textContent(), /D D/);
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement.dataset.cellId), 'c1', 'focus returns to the cell');
    // Esc, then Tab: the keyboard goes on through the page (no trap).
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => !!document.activeElement.closest('[data-cell-id=c1] .cm-content')), false);
  });
});

test('the "?" overlay and the cell tools speak Chinese in the Chinese chapter', async () => {
  await withPage(async (page) => {
    await page.goto(url('zh'));
    await ready(page);
    assert.match(await cell(page, 'c1').locator('[data-testid=add-cell-below]').getAttribute('aria-label'), /新建代码单元/);
    await page.click('[data-testid=keys]');
    assert.match(await page.locator('[data-testid=keys-overlay]').textContent(), /选中上一个单元/);
  });
});

test('Reset chapter asks first, naming the cells the reader added; cancelling keeps them', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await ready(page);
    await cell(page, 'c1').locator('[data-testid=add-cell-below]').click();
    await page.keyboard.insertText('1');
    let asked = null;
    page.once('dialog', (d) => { asked = d.message(); d.dismiss(); });
    await page.click('[data-testid=reset-chapter]');
    assert.match(asked, /The cell you added is removed too/);
    assert.equal(await page.locator('main [data-reader=true]').count(), 1);
    page.once('dialog', (d) => d.accept());
    await page.click('[data-testid=reset-chapter]');
    await page.waitForLoadState('load');
    await ready(page);
    assert.equal(await page.locator('main [data-reader=true]').count(), 0);
  });
});

test('the scratch panel keeps its text across a reload and is not one of the chapter\'s cells', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await ready(page);
    const cellsBefore = await page.locator('[data-testid=cell]').count();
    await page.click('[data-testid=open-scratch]');
    const scratch = page.locator('[data-testid=scratch]');
    await page.keyboard.insertText('40 + 2');
    assert.equal(await page.locator('[data-testid=cell]').count(), cellsBefore);
    await page.waitForTimeout(400);
    await page.reload();
    await ready(page);
    assert.equal(await scratch.evaluate((el) => el.open), true);
    assert.equal(await scratch.locator('.cm-content').textContent(), '40 + 2');
  });
});

test('an exported .ipynb opens again as the same cells, in the scratch chapter; a Python notebook gets a clear message', async () => {
  await withPage(async (page) => {
    await page.goto(url('en'));
    await ready(page);
    await cell(page, 'c2').locator('[data-testid=add-cell-below]').click();
    await page.keyboard.insertText('const added = 1;');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-ipynb]')]);
    const nb = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    const exported = nb.cells.map((c) => c.source);
    assert.ok(exported.includes('const added = 1;'));
    await page.locator('[data-testid=import-ipynb]').setInputFiles({ name: 'python.ipynb', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ nbformat: 4, nbformat_minor: 5, metadata: { kernelspec: { language: 'python' } }, cells: [] })) });
    await page.locator('[data-testid=notice]').filter({ hasText: 'is a Python notebook' }).waitFor();
    await Promise.all([page.waitForURL(/chapter=scratch/), page.locator('[data-testid=import-ipynb]').setInputFiles({ name: 'demo.ipynb', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(nb)) })]);
    await page.locator('main [data-reader=true]').first().waitFor();
    await page.waitForFunction((n) => document.querySelectorAll('main [data-testid=md-rendered]').length && [...document.querySelectorAll('main [data-testid=md-rendered]')].every((m) => m.childElementCount > 0), exported.length);
    const imported = await page.evaluate(() => [...document.querySelectorAll('main [data-reader=true]')].map((el) => (el.dataset.testid)));
    assert.equal(imported.length, nb.cells.length, 'one reader cell per notebook cell');
    const codes = await page.evaluate(() => [...document.querySelectorAll('main [data-testid=cell]')].map((el) => [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n')));
    assert.deepEqual(codes, nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.source));
  });
});
