// The chapter's contents in Chromium (built site): beside the text on a wide screen and folded above it
// on a narrow one; a link brings its heading to just below the sticky header; the section being read is
// marked; each part and section counts the reader's passed exercises, live and after a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, withSitePage, useSiteAndBrowser, openPage } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const url = (chapter, lang) => `${srv.base}?chapter=${chapter}&lang=${lang}`;
const built = (lang) => JSON.parse(fs.readFileSync(path.join(root, 'web', 'dist', 'chapters', 'linear-algebra', `${lang}.json`), 'utf8'));

const withPage = (fn, { width = 1600, height = 900 } = {}) => withSitePage(browser, srv.base, (page) => fn(page), { contextOptions: { viewport: { width, height } } });

const current = (page) => page.evaluate(() => [...document.querySelectorAll('[data-testid=toc-link][aria-current]')].map((a) => a.getAttribute('href')));
const progress = (page, id) => page.locator(`[data-testid=toc-link][href="#${id}"] + [data-testid=toc-progress]`).evaluate((el) => ({
  shown: el.firstChild?.textContent ?? '', spoken: el.querySelector('.sr-only')?.textContent ?? '', complete: el.dataset.complete, hidden: el.hidden,
}));
const totals = (page) => page.locator('[data-testid=toc-total]').evaluate((el) => [el.firstChild.textContent, el.querySelector('.sr-only').textContent]);

test('on a wide screen the contents sit open beside the text and list every heading of the chapter, with its formulas', async () => {
  const toc = built('en').toc;
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    const nav = page.getByRole('navigation', { name: 'Contents' });
    await nav.waitFor();
    assert.equal(await nav.locator('details').evaluate((d) => d.open), true);
    const hrefs = await nav.locator('[data-testid=toc-link]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(hrefs, toc.map((e) => `#${e.id}`));
    assert.equal(await nav.locator('.katex').count() >= 2, true, 'formulas in titles are typeset');
    assert.equal(await nav.getByRole('link', { name: 'Why divide by \\sqrt{d_k}' }).count(), 1, 'a title with a formula keeps it in its accessible name');
    const boxes = await page.evaluate(() => ({
      nav: document.querySelector('[data-testid=contents]').getBoundingClientRect().toJSON(),
      main: document.querySelector('main .prose').getBoundingClientRect().toJSON(),
    }));
    assert.ok(boxes.nav.right <= boxes.main.left, `beside the text, not over it: ${boxes.nav.right} ≤ ${boxes.main.left}`);
    assert.ok(boxes.nav.left >= 0);
    // It stays in view while the reader scrolls.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
    const top = await page.evaluate(() => document.querySelector('[data-testid=contents]').getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 50, `fixed at the top: ${top}`);
  });
});

test('a link brings its heading just below the sticky header, and the section being read is marked as the reader scrolls', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await page.locator('[data-testid=contents]').waitFor();
    assert.deepEqual(await current(page), [], 'above the first heading nothing is marked');
    await page.locator('[data-testid=toc-link][href="#sec-broadcasting"]').click();
    await page.waitForFunction(() => location.hash === '#sec-broadcasting');
    await page.waitForFunction(() => document.querySelector('[aria-current]')?.getAttribute('href') === '#sec-broadcasting');
    const place = await page.evaluate(() => ({
      heading: document.getElementById('sec-broadcasting').getBoundingClientRect().top,
      header: document.querySelector('.chapter-header').getBoundingClientRect().bottom,
    }));
    assert.ok(place.heading >= place.header && place.heading < place.header + 40, `heading at ${place.heading}, header ends at ${place.header}`);

    // Scrolling down until a later section's heading passes under the header moves the mark there.
    await page.evaluate(() => {
      const h = document.getElementById('sec-svd-read-scale-write');
      window.scrollBy(0, h.getBoundingClientRect().top - document.querySelector('.chapter-header').getBoundingClientRect().bottom + 4);
    });
    await page.waitForFunction(() => document.querySelector('[aria-current]')?.getAttribute('href') === '#sec-svd-read-scale-write');
    assert.deepEqual(await current(page), ['#sec-svd-read-scale-write'], 'one section is marked at a time');
    // The marked entry is in view in the contents' own scrolling list.
    const seen = await page.evaluate(() => {
      const nav = document.querySelector('[data-testid=contents]');
      const a = nav.querySelector('[aria-current]').getBoundingClientRect();
      const n = nav.getBoundingClientRect();
      return a.top >= n.top && a.bottom <= n.bottom;
    });
    assert.ok(seen, 'the marked entry is visible');
  }, { height: 720 });
});

test('passing an exercise counts in its section, its part, the chapter total and the chapter list, and the count survives a reload', async () => {
  const id = 'shapes-axes';
  const reference = fs.readFileSync(path.join(root, 'exercises', id, 'reference.js'), 'utf8');
  const toc = built('en').toc;
  const section = toc.find((e) => e.exercises.includes(id));
  const part = toc.slice(0, toc.indexOf(section)).findLast((e) => e.level < section.level);
  const partTotal = toc.slice(toc.indexOf(part), toc.findIndex((e, i) => i > toc.indexOf(part) && e.level <= part.level)).flatMap((e) => e.exercises).length;
  const total = toc.flatMap((e) => e.exercises).length;
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    const block = page.locator(`[data-testid=exercise][data-exercise-id="${id}"]`);
    await block.locator('[data-testid=judge-button]').waitFor();
    assert.deepEqual(await progress(page, section.id), { shown: `0/${section.exercises.length}`, spoken: `exercises passed: 0 of ${section.exercises.length}`, complete: 'false', hidden: false });
    assert.deepEqual(await totals(page), [` · 0/${total} passed`, `, exercises passed: 0 of ${total}`]);
    assert.equal((await progress(page, toc[0].id)).hidden, true, 'a heading with no exercise under it shows no count');

    await block.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(reference);
    await block.locator('[data-testid=judge-button]').click();
    await page.waitForFunction((i) => document.querySelector(`[data-exercise-id="${i}"] [data-testid=judge-verdict]`)?.dataset.verdict === 'pass', id, { timeout: 60000 });
    const all = section.exercises.length === 1;
    assert.deepEqual(await progress(page, section.id), { shown: `${all ? '✓ ' : ''}1/${section.exercises.length}`, spoken: `exercises passed: 1 of ${section.exercises.length}`, complete: String(all), hidden: false });
    assert.equal((await progress(page, part.id)).shown, `1/${partTotal}`);
    assert.deepEqual(await totals(page), [` · 1/${total} passed`, `, exercises passed: 1 of ${total}`]);

    await page.reload();
    await page.locator('[data-testid=contents]').waitFor();
    assert.equal((await progress(page, section.id)).spoken, `exercises passed: 1 of ${section.exercises.length}`);
    assert.deepEqual(await totals(page), [` · 1/${total} passed`, `, exercises passed: 1 of ${total}`]);

    // The chapter list says it too, for chapters that have exercises.
    await page.goto(`${srv.base}?lang=en`);
    const item = page.locator('[data-testid=chapter-list] li').filter({ has: page.locator('a[data-chapter=linear-algebra]') });
    assert.equal(await item.locator('[data-testid=chapter-progress]').textContent(), `exercises passed: 1 of ${total}`);
    const demo = page.locator('[data-testid=chapter-list] li').filter({ has: page.locator('a[data-chapter=demo]') });
    const index = JSON.parse(fs.readFileSync(path.join(root, 'web', 'dist', 'chapters', 'index.json'), 'utf8'));
    assert.equal(await demo.locator('[data-testid=chapter-progress]').count(), index.find((c) => c.id === 'demo').exercises.length ? 1 : 0);
  });
});

test('on a narrow screen the contents are folded above the text, open on demand, and never widen the page; in Chinese they are 目录', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'zh'));
    const nav = page.getByRole('navigation', { name: '目录' });
    await nav.waitFor();
    assert.equal(await nav.locator('details').evaluate((d) => d.open), false);
    const before = await page.evaluate(() => [document.querySelector('[data-testid=contents]').getBoundingClientRect().bottom, document.querySelector('main .prose').getBoundingClientRect().top]);
    assert.ok(before[0] <= before[1], 'above the text');
    await nav.locator('summary').click();
    assert.equal(await nav.locator('[data-testid=toc-link]').first().isVisible(), true);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scrolling');
    const total = built('zh').toc.flatMap((e) => e.exercises).length;
    assert.deepEqual(await totals(page), [` · 已通过 0/${total}`, `, 已通过练习：0/${total}`]);
  }, { width: 360, height: 700 });
});

test('where the contents are above the text, the Contents button in the header unfolds them and focuses the section being read; beside the text it is hidden', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await page.locator('[data-testid=contents]').waitFor();
    // The contents come with the page's frame; the text below the first screen is filled in slices after.
    await page.locator('#sec-broadcasting').waitFor({ state: 'attached', timeout: 60000 });
    await page.evaluate(() => {
      const h = document.getElementById('sec-broadcasting');
      window.scrollBy(0, h.getBoundingClientRect().top - document.querySelector('.chapter-header').getBoundingClientRect().bottom + 4);
    });
    await page.waitForFunction(() => document.querySelector('[aria-current]')?.getAttribute('href') === '#sec-broadcasting');
    await page.click('[data-testid=toc-open]');
    assert.equal(await page.locator('[data-testid=contents] details').evaluate((d) => d.open), true);
    const focus = await page.evaluate(() => ({
      href: document.activeElement.getAttribute('href'),
      top: document.activeElement.getBoundingClientRect().top,
      header: document.querySelector('.chapter-header').getBoundingClientRect().bottom,
    }));
    assert.equal(focus.href, '#sec-broadcasting');
    assert.ok(focus.top >= focus.header && focus.top < 900, `the focused entry is in view below the header: ${JSON.stringify(focus)}`);
  }, { width: 1024, height: 900 });
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await page.locator('[data-testid=contents]').waitFor();
    assert.equal(await page.locator('[data-testid=toc-open]').isVisible(), false);
  });
});

test('a link to a section lands on it once the page has settled, in English and in Chinese', async () => {
  for (const [lang, id] of [['en', 'sec-broadcasting'], ['zh', built('zh').toc[5].id]]) {
    await withPage(async (page) => {
      await page.goto(`${url('linear-algebra', lang)}#${encodeURIComponent(id)}`);
      // Cells, widgets and fonts render after the first scroll, and the page grows by thousands of pixels.
      await page.waitForFunction(() => [...document.querySelectorAll('.tpw')].length > 0 && [...document.querySelectorAll('.tpw')].every((w) => w.dataset.state === 'ready'), null, { timeout: 60000 });
      await page.waitForTimeout(1500);
      const place = await page.evaluate((i) => ({
        heading: document.getElementById(i).getBoundingClientRect().top,
        header: document.querySelector('.chapter-header').getBoundingClientRect().bottom,
        marked: document.querySelector('[aria-current]')?.getAttribute('href'),
      }), id);
      assert.ok(place.heading >= place.header && place.heading < place.header + 40, `${lang}: heading at ${place.heading}, header ends at ${place.header}`);
      assert.equal(place.marked, `#${id}`);
    });
  }
});

test('at the end of the chapter its last section is marked, though its heading cannot scroll up to the header', async () => {
  const toc = built('en').toc;
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await page.locator('[data-testid=contents]').waitFor();
    // Once every block has been laid out (the page's height is final; before, blocks off screen stand in at an estimate).
    await page.locator('#app[data-laid-out=true]').waitFor({ timeout: 60000 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction((href) => document.querySelector('[aria-current]')?.getAttribute('href') === href, `#${toc.at(-1).id}`);
  });
});

test('with a larger font the contents beside the text stay on screen and off the text', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await page.addStyleTag({ content: 'html { font-size: 24px; }' });
    const boxes = await page.evaluate(() => ({
      nav: document.querySelector('[data-testid=contents]').getBoundingClientRect().toJSON(),
      main: document.querySelector('main .prose').getBoundingClientRect().toJSON(),
    }));
    assert.ok(boxes.nav.left >= 0 && boxes.nav.right <= boxes.main.left, JSON.stringify(boxes));
  }, { width: 1440 });
});

test('a pass or a reset of the chapter in one tab updates the counts in the others and in the chapter list, and a reset restores the starters', async () => {
  const id = 'shapes-axes';
  const reference = fs.readFileSync(path.join(root, 'exercises', id, 'reference.js'), 'utf8');
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  try {
    const { page: a } = await openPage(context, srv.base);
    const { page: b } = await openPage(context, srv.base);
    const { page: list } = await openPage(context, srv.base);
    await a.goto(url('linear-algebra', 'en'));
    await b.goto(url('linear-algebra', 'en'));
    await list.goto(`${srv.base}?lang=en`);
    const listed = list.locator('[data-testid=chapter-list] li').filter({ has: list.locator('a[data-chapter=linear-algebra]') }).locator('[data-testid=chapter-progress]');
    assert.match(await listed.textContent(), /exercises passed: 0 of/);
    const block = a.locator(`[data-testid=exercise][data-exercise-id="${id}"]`);
    await block.locator('[data-testid=judge-button]').waitFor();
    await b.locator('[data-testid=toc-total]').waitFor();
    await block.locator('.cm-content').click();
    await a.keyboard.press('Control+A');
    await a.keyboard.press('Delete');
    await a.keyboard.insertText(reference);
    await block.locator('[data-testid=judge-button]').click();
    await b.waitForFunction(() => document.querySelector('[data-testid=toc-total] .sr-only').textContent.startsWith(', exercises passed: 1 of'), null, { timeout: 60000 });
    await list.waitForFunction(() => /exercises passed: 1 of/.test(document.querySelector('a[data-chapter=linear-algebra]').closest('li').textContent));

    a.on('dialog', (d) => d.accept());
    await Promise.all([a.waitForEvent('load'), a.click('[data-testid=reset-chapter]')]);
    await b.waitForFunction(() => document.querySelector('[data-testid=toc-total] .sr-only').textContent.startsWith(', exercises passed: 0 of'));
    await a.locator(`[data-exercise-id="${id}"] [data-testid=judge-button]`).waitFor();
    assert.equal(await a.locator(`[data-exercise-id="${id}"] [data-testid=judge-verdict]`).evaluate((el) => el.dataset.verdict ?? ''), '', 'no verdict after a reset');
    assert.match(await a.locator(`[data-exercise-id="${id}"] .cm-content`).textContent(), /TODO/, 'the starter code is back');
  } finally {
    await context.close();
  }
});
