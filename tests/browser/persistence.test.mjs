// Saved work in Chromium (web/src/storage.js through the notebook): an entry of the wrong shape neither
// freezes nor breaks the chapter, what cannot be read is kept aside, a newer build's entry is left alone,
// and two tabs editing one cell see each other's text (or, mid-edit, a choice) instead of overwriting it.
// Each in both languages: the saved entry keeps each language's cells apart, and the notices are the reader's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, withSitePage, openPage, cell, typeInto, editorText } from './helpers.mjs';
import { t } from '../../web/src/i18n.js';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });
const KEY = 'tensorpad:v1:chapter:demo';
const url = (lang) => `${srv.base}?chapter=demo&lang=${lang}`;

const withPage = (fn) => withSitePage(browser, srv.base, (page, context) => fn(page, context));

async function until(check, ms = 5000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${check}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ready = (page) => page.locator('[data-testid=cell] .cm-editor').first().waitFor();

for (const lang of ['en', 'zh']) {
  const other = lang === 'en' ? 'zh' : 'en';
  test(`(${lang}) saved cells of the wrong shape load as the author's, with a notice; the rest of the entry is kept and saving goes on`, async () => {
    await withPage(async (page) => {
      await page.goto(srv.base);
      const raw = JSON.stringify({ v: 1, exercises: [], cells: { [lang]: { c1: { source: 42 }, c2: { source: { text: 'x' } }, c3: { source: '// kept\n3', base: 'x' } }, [other]: 'oops' } });
      await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, raw]);
      await page.goto(url(lang));
      await page.locator('[data-testid=notice]').filter({ hasText: t(lang, 'storageCorrupt').slice(0, 12) }).waitFor({ timeout: 10000 });
      assert.match(await editorText(page, 'c1'), /^const A = tp\.tensor/);
      assert.equal(await editorText(page, 'c3'), '// kept\n3');
      await typeInto(page, 'c1', 'const mine = 1;');
      await page.waitForTimeout(400);
      const [saved, aside] = await page.evaluate((k) => [localStorage.getItem(k), localStorage.getItem(`${k}:unreadable`)], KEY);
      assert.equal(JSON.parse(saved).cells[lang].c1.source, 'const mine = 1;');
      assert.equal(JSON.parse(aside)[0].raw, raw, 'the unreadable text was kept aside before the first write');
      await page.reload();
      await ready(page);
      assert.equal(await editorText(page, 'c1'), 'const mine = 1;');
      assert.equal(await page.locator('[data-testid=notice]').count(), 0, 'the entry reads whole now');
    });
  });

  test(`(${lang}) an entry written by a newer build is shown where it can be, and this page never saves over it`, async () => {
    await withPage(async (page) => {
      await page.goto(srv.base);
      const raw = JSON.stringify({ v: 99, exercises: {}, cells: { [lang]: { c2: { source: '// newer\n2', base: 'x' } } } });
      await page.evaluate(([k, v]) => localStorage.setItem(k, v), [KEY, raw]);
      await page.goto(url(lang));
      await page.locator('[data-testid=notice]').filter({ hasText: t(lang, 'storageNewer').slice(0, 12) }).waitFor({ timeout: 10000 });
      assert.equal(await editorText(page, 'c2'), '// newer\n2');
      await typeInto(page, 'c3', 'const older = 1;');
      await page.waitForTimeout(400);
      await page.evaluate(() => dispatchEvent(new Event('pagehide')));
      assert.equal(await page.evaluate((k) => localStorage.getItem(k), KEY), raw);
    });
  });

  test(`(${lang}) an edit in one tab shows in the other tab; the same cell being edited in both gets a choice, not a silent overwrite`, async () => {
    await withPage(async (page, context) => {
      await page.goto(url(lang));
      await ready(page);
      const { page: other } = await openPage(context, srv.base);
      await other.goto(url(lang));
      await ready(other);
      await typeInto(page, 'c2', '// from tab 1\n1');
      await until(async () => await editorText(other, 'c2') === '// from tab 1\n1');
      assert.equal(await cell(other, 'c2').locator('[data-testid=cell-reset]').isVisible(), true, 'shown as an edit');
      // Both tabs edit c3; tab 2's reader is still in the editor when tab 1 saves.
      await typeInto(other, 'c3', '// tab 2 is typing');
      await other.waitForTimeout(400);
      await typeInto(page, 'c3', '// tab 1 wins the race');
      const choice = cell(other, 'c3').locator('[data-testid=cell-use-other-tab]');
      await choice.waitFor({ timeout: 5000 });
      assert.equal(await editorText(other, 'c3'), '// tab 2 is typing', 'the reader\'s text stays until they choose');
      await cell(other, 'c3').locator('[data-testid=cell-keep-this-tab]').click();
      await page.waitForFunction(([k, l]) => JSON.parse(localStorage.getItem(k)).cells[l].c3.source === '// tab 2 is typing', [KEY, lang], { timeout: 5000 });
      // Tab 1's reader is still in that cell: now they are asked.
      await cell(page, 'c3').locator('[data-testid=cell-use-other-tab]').click({ timeout: 5000 });
      assert.equal(await editorText(page, 'c3'), '// tab 2 is typing');
      await other.close();
    });
  });

  test(`(${lang}) the last run's outputs come back after a reload, marked as from an earlier visit; turned off, they do not`, async () => {
    await withPage(async (page) => {
      await page.goto(url(lang));
      await page.locator('[data-testid=kernel-status]').filter({ hasText: t(lang, 'ready') }).waitFor({ timeout: 60000 });
      await cell(page, 'c1').locator('[data-testid=cell-run]').click();
      await page.waitForFunction(() => document.querySelector('[data-cell-id=c1]').dataset.state === 'done');
      const out = await cell(page, 'c1').locator('[data-testid=cell-output]').textContent();
      await page.waitForTimeout(400);
      await page.reload();
      await ready(page);
      assert.equal(await cell(page, 'c1').locator('[data-testid=cell-output]').textContent(), out);
      assert.equal(await cell(page, 'c1').locator('[data-testid=cell-status]').textContent(), t(lang, 'cell-saved'));
      assert.equal(await cell(page, 'c1').evaluate((el) => el.classList.contains('stale')), true);
      await page.locator('[data-testid=keep-outputs]').uncheck();
      await page.waitForTimeout(400);
      await page.reload();
      await ready(page);
      assert.equal(await cell(page, 'c1').locator('[data-testid=cell-output]').textContent(), '');
      assert.equal(await page.locator('[data-testid=keep-outputs]').isChecked(), false);
    });
  });
}
