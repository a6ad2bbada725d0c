// A chapter and an exercise written in English only, built into a private site: the chapter list and the
// page fall back to English for a Chinese reader and say so (keeping the reader's choice), the cell runs,
// the English-only exercise renders and is judged in the page, and a bilingual chapter's Chinese page shows
// that exercise in English with a line saying why.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-one-language-'));
const site = path.join(tmp, 'dist');
let srv, browser, helpers;

before(async () => {
  const exercises = path.join(tmp, 'exercises');
  fs.cpSync(path.join(ROOT, 'tests/js/fixtures-exercises/row-means'), path.join(exercises, 'row-means'), { recursive: true });
  const chapters = path.join(tmp, 'chapters');
  fs.mkdirSync(path.join(chapters, 'solo'), { recursive: true });
  fs.writeFileSync(path.join(chapters, 'solo', 'en.md'), [
    '---', 'id: solo', 'title: "Means, in English"', 'order: 1', 'languages: en', '---', '',
    '# Row means', '', 'A mean is a sum divided by a count.', '',
    '```js id=means', 'tp.tensor([[1, 3], [2, 6]]).mean(-1).toArray()', '```', '',
    ':::details Why divide?', '', 'Because a **mean** is an average.', '', ':::', '',
    ':::exercise row-means', ''].join('\n'));
  fs.mkdirSync(path.join(chapters, 'both'), { recursive: true });
  fs.writeFileSync(path.join(chapters, 'both', 'en.md'), '---\nid: both\ntitle: "Both"\norder: 2\n---\n\n# Part\n\n:::exercise row-means\n');
  fs.writeFileSync(path.join(chapters, 'both', 'zh.md'), '---\nid: both\ntitle: "双语"\norder: 2\n---\n\n# 部分\n\n:::exercise row-means\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'web/build.mjs'), '--chapters', chapters],
    { encoding: 'utf8', env: { ...process.env, TENSORPAD_DIST: site, TENSORPAD_EXERCISES: exercises } });
  assert.equal(r.status, 0, `the site builds: ${r.stderr}`);
  process.env.TENSORPAD_DIST = site; // helpers.mjs serves TENSORPAD_DIST
  helpers = await import('./helpers.mjs');
  srv = await helpers.startServer();
  browser = await helpers.launch();
});

after(async () => {
  await browser?.close();
  await srv?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('a Chinese reader sees the English-only chapter listed as English only, and its page in English with a notice', async () => {
  const context = await browser.newContext();
  const { page, log } = await helpers.openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?lang=zh`);
    const link = page.locator('[data-chapter=solo]');
    await link.waitFor();
    assert.equal(await link.getAttribute('href'), './?chapter=solo&lang=en');
    assert.equal(await link.getAttribute('lang'), 'en');
    assert.match(await page.locator('li', { has: link }).innerText(), /仅有英文版/);

    await page.goto(`${srv.base}?chapter=solo&lang=zh`);
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor({ timeout: 120000 });
    assert.match(page.url(), /lang=en/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    const notice = page.locator('[data-notice=lang-fallback]');
    assert.match(await notice.innerText(), /本章只有英文版/);
    assert.equal(await notice.getAttribute('lang'), 'zh-CN');
    assert.equal(await page.evaluate(() => localStorage.getItem('tensorpad:v1:lang')), 'zh', "the reader's choice is kept");
    assert.equal(await page.locator('[data-testid=lang-switch]').count(), 0, 'no switch to a language the chapter lacks');

    // The details answer is hidden until opened; the cell runs.
    const details = page.locator('main details.details');
    assert.ok(await details.locator(':scope > :not(summary)').first().isHidden());
    await details.locator('summary').click();
    assert.ok(await details.locator(':scope > :not(summary)').first().isVisible());
    const cell = page.locator('[data-testid=cell][data-cell-id=means]');
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor({ timeout: 60000 });
    await cell.locator('[data-testid=cell-run]').click();
    await page.waitForFunction(() => document.querySelector('[data-cell-id=means]')?.dataset.state === 'done', null, { timeout: 60000 });
    assert.match(await cell.locator('[data-testid=cell-output]').innerText(), /2,?\s*4/);

    // The English-only exercise renders and is judged in the page.
    const block = page.locator('[data-testid=exercise][data-exercise-id=row-means]');
    assert.match(await block.locator('.judge-title').innerText(), /Row means/);
    assert.equal(await block.locator('[data-testid=exercise-lang]').count(), 0, 'no note: the chapter is in the exercise language');
    await block.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('export function rowMeans(A) {\n  return A.sum(-1).div(A.shape[1]);\n}\n');
    await block.locator('[data-testid=judge-button]').click();
    await page.waitForFunction(() => {
      const el = document.querySelector('[data-exercise-id=row-means]');
      return el && !el.hasAttribute('aria-busy') && el.querySelector('[data-testid=judge-verdict]')?.dataset.verdict;
    }, null, { timeout: 90000 });
    assert.equal(await block.locator('[data-testid=judge-verdict]').getAttribute('data-verdict'), 'pass');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test("a bilingual chapter's Chinese page shows the English-only exercise in English, marked", async () => {
  const context = await browser.newContext();
  const { page } = await helpers.openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=both&lang=zh`);
    const block = page.locator('[data-testid=exercise][data-exercise-id=row-means]');
    await block.locator('.judge-title').waitFor({ timeout: 120000 });
    assert.equal(await block.locator('[data-testid=exercise-lang]').innerText(), '这道练习只有英文版。');
    assert.equal(await block.locator('.judge-title span[lang=en]').innerText(), 'Row means');
    assert.equal(await block.locator('.prose[lang=en]').count(), 1, 'the statement is marked as English');
    assert.equal(await page.locator('[data-notice=lang-fallback]').count(), 0, 'the chapter itself is in Chinese');
  } finally {
    await context.close();
  }
});
