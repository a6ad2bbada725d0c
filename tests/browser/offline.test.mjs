// Offline: a chapter read once opens again with the server gone, runs its cells (on the pthreads core, the
// page still crossOriginIsolated) and checks an exercise, in both languages, from the service worker's
// copy (web/src/sw.js). A new build replaces the copy, downloading only the files that changed.
// The site is a copy of web/dist in a temporary folder, so the test can change a file and re-write sw.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dist, launch, openPage, waitForState } from './helpers.mjs';
import { createServer } from '../../web/server.mjs';
import { writeServiceWorker } from '../../web/build.mjs';

let site, server, port, browser, context;

async function serverUp() {
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  port = server.address().port;
}
async function serverDown() {
  await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
}
const base = () => `http://127.0.0.1:${port}/`;

before(async () => {
  site = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-offline-'));
  fs.cpSync(dist, site, { recursive: true });
  server = createServer(site);
  port = 0;
  await serverUp();
  browser = await launch();
  context = await browser.newContext({ serviceWorkers: 'allow' });
});
after(async () => {
  await browser?.close();
  if (server.listening) await serverDown();
  fs.rmSync(site, { recursive: true, force: true });
});

/** Polls pageFunction(arg) in the page until it returns a truthy value, for at most 30 s. */
async function pollInPage(page, pageFunction, arg) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const value = await page.evaluate(pageFunction, arg);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${pageFunction.name}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The service worker controls the page and its copy is complete (the manifest is written last): the copy's names. */
async function completeCopies() {
  if (!navigator.serviceWorker.controller) return null;
  const names = (await caches.keys()).filter((n) => n.startsWith('tensorpad-'));
  for (const name of names) if (await (await caches.open(name)).match('__tensorpad-manifest__.json')) return names;
  return null;
}
const waitForCopy = (page) => pollInPage(page, completeCopies);

async function runFirstCell(page) {
  await page.locator('[data-testid=kernel-status]').filter({ hasText: /Ready|就绪/ }).waitFor({ timeout: 30000 });
  const first = page.locator('[data-testid=cell]').first();
  const id = await first.getAttribute('data-cell-id');
  await first.locator('.cm-content').click();
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id);
  assert.equal(await first.getAttribute('data-state'), 'done', await first.innerText());
}

test('a chapter read once opens, runs its cells and checks an exercise with the server gone', async () => {
  const { page, log } = await openPage(context, base());
  await page.goto(`${base()}?chapter=linear-algebra&lang=en`);
  await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
  const names = await waitForCopy(page);
  assert.equal(names.length, 1, `one copy: ${names}`);
  const kept = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).length, names[0]);
  const manifest = JSON.parse(fs.readFileSync(path.join(site, 'sw.js'), 'utf8').match(/^const PRECACHE = (.*);$/m)[1]);
  assert.equal(kept, Object.keys(manifest.files).length + 1, 'every file of the build is kept, and the manifest');

  await serverDown();
  const gone = await fetch(`${base()}index.html`).then(() => 'answered', () => 'failed');
  assert.equal(gone, 'failed', 'the server is really gone');

  for (const lang of ['en', 'zh']) {
    await page.goto(`${base()}?chapter=linear-algebra&lang=${lang}`);
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.match(await page.locator('h1').textContent(), lang === 'en' ? /Linear algebra/ : /线性代数/);
    assert.ok(await page.locator('.katex').count() > 10, 'formulas are there');
    assert.equal(await page.evaluate(() => crossOriginIsolated), true, 'the copy keeps COOP/COEP, so the pthreads core runs');
    await runFirstCell(page);
    const fonts = await page.evaluate(async () => (await document.fonts.load('16px KaTeX_Main', 'x')).length
      + (await document.fonts.load('16px "Tensorpad CJK"', '矩阵')).length);
    assert.equal(fonts, 2, 'KaTeX and CJK fonts load from the copy');
  }
  // An exercise's check runs in a judge worker that loads the exercise's cases: all from the copy.
  const block = page.locator('[data-testid=exercise][data-exercise-id="lora-params"]');
  await block.locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('function loraParams(dOut, dIn, r) { return r * (dOut + dIn); }\n' +
    'function loraFraction(dOut, dIn, r) { return loraParams(dOut, dIn, r) / (dOut * dIn); }\n');
  await block.locator('[data-testid=judge-button]').click();
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid=exercise][data-exercise-id="lora-params"]');
    return !el.hasAttribute('aria-busy') && el.querySelector('[data-testid=judge-verdict]').dataset.verdict;
  }, null, { timeout: 60000 });
  assert.equal(await block.locator('[data-testid=judge-verdict]').getAttribute('data-verdict'), 'pass', await block.innerText());
  assert.deepEqual(log.errors, [], 'no console error offline');
  await page.close();
});

test('a new build replaces the copy and downloads only the files that changed', async () => {
  await serverUp();
  const { page } = await openPage(context, base());
  await page.goto(`${base()}?chapter=demo&lang=en`);
  await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
  await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor({ timeout: 30000 });
  await page.waitForLoadState('networkidle');
  const [oldCopy] = await waitForCopy(page);

  // An author changes the demo chapter's title and rebuilds: one file changes, and sw.js with it.
  const file = path.join(site, 'chapters', 'demo', 'en.json');
  const chapter = JSON.parse(fs.readFileSync(file, 'utf8'));
  chapter.title = 'A tour of the notebook, second edition';
  fs.writeFileSync(file, JSON.stringify(chapter));
  const { version } = writeServiceWorker(site);
  const requestsBefore = { ...server.stats.byPath };
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  await pollInPage(page, async function onlyTheNewCopy(v) {
    return JSON.stringify((await caches.keys()).filter((n) => n.startsWith('tensorpad-'))) === JSON.stringify([`tensorpad-${v}`]);
  }, version);
  const fetched = Object.keys(server.stats.byPath).filter((p) => server.stats.byPath[p] !== requestsBefore[p]).sort();
  assert.deepEqual(fetched, ['/chapters/demo/en.json', '/sw.js'], `the update fetched ${fetched}`);
  assert.notEqual(oldCopy, `tensorpad-${version}`);

  await serverDown();
  await page.reload();
  assert.equal(await page.locator('h1').textContent(), 'A tour of the notebook, second edition', 'the copy is of the new build');
  await page.close();
});
