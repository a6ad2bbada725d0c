// The start page lists each chapter with a line on what the reader will do, the reader's progress
// (exercises passed, cells run) and the chapter's parts, each a link to its place in the chapter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { dist, useSiteAndBrowser, withSitePage, cell, engineReady, waitForState } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const index = () => JSON.parse(fs.readFileSync(path.join(dist, 'chapters', 'index.json'), 'utf8'));
const chapterFile = (id, lang) => JSON.parse(fs.readFileSync(path.join(dist, 'chapters', id, `${lang}.json`), 'utf8'));

for (const lang of ['en', 'zh']) {
  test(`(${lang}) each chapter shows its summary, its progress and its parts, linked to their headings`, async () => {
    await withSitePage(browser, srv.base, async (page) => {
      await page.goto(`${srv.base}?lang=${lang}`);
      for (const c of index()) {
        const item = page.locator('[data-testid=chapter-list] > li').filter({ has: page.locator(`a[data-chapter="${c.id}"]`) });
        const summary = (await item.locator('[data-testid=chapter-summary]').textContent()).trim();
        assert.ok(summary.length > 20, `${c.id}: a line on what the reader will do`);
        assert.equal(/[\u4e00-\u9fff]/.test(summary), lang === 'zh', `${c.id}: the summary is in the page's language`);
        assert.equal(await item.locator('[data-testid=chapter-cells-run]').textContent(),
          lang === 'en' ? `cells run: 0 of ${c.cells.length}` : `已运行单元：0/${c.cells.length}`);
        // Every part links to a heading the chapter has, in the chapter's language.
        const toc = new Set(chapterFile(c.id, lang).toc.map((e) => e.id));
        const links = await item.locator('[data-testid=chapter-sections] a').evaluateAll((as) => as.map((a) => new URL(a.href)));
        assert.ok(links.length >= 2, `${c.id}: its parts are listed (${links.length})`);
        for (const u of links) {
          assert.equal(u.searchParams.get('chapter'), c.id);
          assert.ok(toc.has(decodeURIComponent(u.hash.slice(1))), `${c.id}: ${u.hash} is a heading of the chapter`);
        }
      }
    });
  });
}

test('a cell run in a chapter counts on the start page; Reset chapter clears the count', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    await page.goto(`${srv.base}?chapter=demo&lang=en`);
    await engineReady(page);
    const first = await page.locator('main [data-testid=cell]').first().getAttribute('data-cell-id');
    await cell(page, first).locator('[data-testid=cell-run]').click();
    await waitForState(page, first, ['done']);
    await page.goto(`${srv.base}?lang=en`);
    const total = index().find((c) => c.id === 'demo').cells.length;
    const ran = page.locator('[data-testid=chapter-list] > li').filter({ has: page.locator('a[data-chapter=demo]') }).locator('[data-testid=chapter-cells-run]');
    assert.equal(await ran.textContent(), `cells run: 1 of ${total}`);
    // A link to a part opens the chapter at that heading.
    const part = page.locator('[data-testid=chapter-list] > li').filter({ has: page.locator('a[data-chapter=demo]') }).locator('[data-testid=chapter-sections] a').nth(1);
    const hash = new URL(await part.evaluate((a) => a.href)).hash;
    await part.click();
    await page.locator(hash).waitFor();
    await page.waitForFunction((sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }, hash, { timeout: 10000 });
    page.once('dialog', (d) => d.accept());
    await page.locator('[data-testid=reset-chapter]').click();
    await page.waitForLoadState('load');
    await page.goto(`${srv.base}?lang=en`);
    assert.equal(await ran.textContent(), `cells run: 0 of ${total}`);
  });
});
