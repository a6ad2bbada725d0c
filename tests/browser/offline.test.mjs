// Offline: a chapter read once opens again with the server gone (or behind a proxy answering 502), runs
// its cells on the pthreads core, the page still crossOriginIsolated, and checks an exercise, in both
// languages, from the service worker's copy (web/src/sw.js). Two sites on one origin keep their own
// copies. A new build replaces the copy, downloading only what changed; an install that fails keeps the
// old copy and what it verified. The origin serves two copies of web/dist, at /a/ and /b/, in a temporary
// folder, so the tests can change a file and re-write sw.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dist, launch, openPage, typeInto, waitForState } from './helpers.mjs';
import { createServer } from '../../web/server.mjs';
import { writeServiceWorker } from '../../web/build.mjs';

let root, server, serve, port = 0, browser, context;
const base = () => `http://127.0.0.1:${port}/`;
const scope = (site) => `${base()}${site}/`;

async function serverUp(handler = serve) {
  server.removeAllListeners('request');
  server.on('request', handler);
  // Each test starts with the server up, whether or not the one before took it down (one test runs alone too).
  if (!server.listening) await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  port = server.address().port;
}
async function serverDown() {
  await new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
}

before(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-offline-'));
  for (const site of ['a', 'b']) fs.cpSync(dist, path.join(root, site), { recursive: true });
  server = createServer(root);
  serve = server.listeners('request')[0];
  await serverUp();
  browser = await launch();
  context = await browser.newContext({ serviceWorkers: 'allow' });
});
after(async () => {
  await browser?.close();
  if (server.listening) await serverDown();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Waits until the site's copy (of version, if given) is complete and its worker installed, with the page
 *  controlled by the active worker and none installing: the worker of a first copy is then in charge, that of
 *  a new build waits (it takes over once no page of the old build is open; web/src/sw.js says why). Returns all
 *  the site's copies then. The manifest that completes a copy is written inside the install event, a moment
 *  before the worker is installed. */
async function waitForCopy(page, scopeUrl, version) {
  const deadline = Date.now() + 30000;
  for (;;) {
    const worker = await page.evaluate(workerState);
    const copies = await page.evaluate(copiesOf, scopeUrl);
    if (worker === 'settled' && Object.keys(copies).some((n) => copies[n].complete && (!version || n === `tensorpad ${scopeUrl} ${version}`))) return copies;
    if (Date.now() > deadline) throw new Error(`no complete copy of ${scopeUrl} ${version ?? ''} with its worker installed: worker ${worker}, copies ${JSON.stringify(copies)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The page's service worker registration: 'settled' (none installing, the active one activated and controlling
 *  the page, a new one waiting or not), else what it is doing (in the page). */
async function workerState() {
  const r = await navigator.serviceWorker.getRegistration();
  const state = `installing ${r?.installing?.state ?? 'none'}, waiting ${r?.waiting?.state ?? 'none'}, active ${r?.active?.state ?? 'none'}, controller ${navigator.serviceWorker.controller ? (navigator.serviceWorker.controller === r?.active ? 'the active worker' : 'another worker') : 'none'}`;
  return r && !r.installing && (!r.waiting || r.waiting.state === 'installed') && r.active?.state === 'activated' && navigator.serviceWorker.controller === r.active ? 'settled' : state;
}

/** The names of a site's copies (in the page), each with its number of entries and whether it is complete (has its manifest). */
async function copiesOf(scopeUrl) {
  const out = {};
  for (const name of (await caches.keys()).filter((n) => n.startsWith(`tensorpad ${scopeUrl} `))) {
    const cache = await caches.open(name);
    out[name] = { entries: (await cache.keys()).length, complete: Boolean(await cache.match(new URL('__tensorpad-manifest__.json', scopeUrl).href)) };
  }
  return out;
}

const manifestOf = (site) => JSON.parse(fs.readFileSync(path.join(root, site, 'sw.js'), 'utf8').match(/^const PRECACHE = (.*);$/m)[1]);

/** Reloads the page; if it does not load, the error names the requests still unanswered (a reload from the
 *  copy that hangs is a defect of the service worker, not slowness: say where it waits). */
async function reloadSaying(page) {
  const pending = new Set();
  const started = (r) => pending.add(r);
  const ended = (r) => pending.delete(r);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.reload({ timeout: 90000 });
  } catch (e) {
    // A new error: the runner prints the stack, which was written with the old message.
    throw new Error(`${e.message}\nrequests unanswered: ${[...pending].map((r) => r.url()).join(', ') || 'none'}`, { cause: e });
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

async function coreOfACell(page) {
  await page.locator('[data-testid=kernel-status]').filter({ hasText: /Ready|就绪/ }).waitFor({ timeout: 30000 });
  const id = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
  await typeInto(page, id, 'tp.coreFlavor');
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id);
  return page.locator(`[data-testid=cell][data-cell-id="${id}"] [data-testid=cell-output]`).innerText();
}

test('with the server gone, a chapter read once opens in both languages, runs cells on the pthreads core and checks an exercise; another site on the origin keeps its copy', async () => {
  const { page, log } = await openPage(context, base());
  await page.goto(`${scope('a')}?chapter=linear-algebra&lang=en`);
  const copies = await waitForCopy(page, scope('a'));
  assert.deepEqual(Object.values(copies), [{ entries: Object.keys(manifestOf('a').files).length + 1, complete: true }],
    'one copy, of every file of the build, and the manifest');
  await page.goto(`${scope('b')}?chapter=demo&lang=en`);
  await waitForCopy(page, scope('b'));
  assert.equal(Object.keys(await page.evaluate(copiesOf, scope('a'))).length, 1, "the second site's install leaves the first site's copy alone");

  await serverDown();
  assert.equal(await fetch(`${base()}a/index.html`).then(() => 'answered', () => 'failed'), 'failed', 'the server is really gone');
  for (const lang of ['en', 'zh']) {
    await page.goto(`${scope('a')}?chapter=linear-algebra&lang=${lang}`);
    await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
    assert.match(await page.locator('h1').textContent(), lang === 'en' ? /Linear algebra/ : /线性代数/);
    assert.ok(await page.locator('.katex').count() > 10, 'formulas are there');
    assert.equal(await page.evaluate(() => crossOriginIsolated), true, "the copy keeps the page's COOP/COEP");
    assert.match(await coreOfACell(page), /web-mt/, 'cells run, on the pthreads core');
    const fonts = await page.evaluate(async () => (await document.fonts.load('16px KaTeX_Main', 'x')).length
      + (await document.fonts.load('16px "Tensorpad CJK"', '矩阵')).length);
    assert.equal(fonts, 2, 'KaTeX and CJK fonts load from the copy');
  }
  // A check runs in a judge worker (its URL carries ?tp=) that loads the exercise's cases.
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
  await page.goto(`${scope('b')}?chapter=demo&lang=en`);
  assert.equal(await page.locator('h1').textContent(), 'A tour of the notebook', 'the other site opens offline too');
  assert.deepEqual(log.errors, [], 'no console error offline');
  await page.close();
});

test('on a network that never answers, or behind a proxy answering 502 for a stopped server, the site comes from the copy, and a path it does not have gets the proxy answer', async () => {
  // A network that accepts and then says nothing: after 5 s the copy answers the page, then the rest of it first.
  await serverUp(() => {});
  const stalled = await openPage(context, base());
  const t0 = Date.now();
  await stalled.page.goto(`${scope('a')}?chapter=demo&lang=en`, { timeout: 90000 });
  assert.equal(await stalled.page.locator('h1').textContent({ timeout: 90000 }), 'A tour of the notebook');
  console.log(`  measured: on a stalled network the chapter opened from the copy in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await stalled.page.close();
  await serverDown();

  await serverUp((req, res) => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('502 Bad Gateway'));
  const { page } = await openPage(context, base());
  await page.goto(`${scope('a')}?chapter=demo&lang=zh`);
  assert.equal(await page.locator('h1').textContent(), '笔记本导览');
  // The copy answers for the site's page and files; another path in the site gets the proxy's answer, not the page.
  assert.equal((await page.goto(`${scope('a')}chapters/`)).status(), 502);
  await page.close();
  await serverDown();
});

test('a new build replaces the copy, downloading only changed files and the page and worker scripts; a failed install keeps the old copy and what it verified', async () => {
  await serverUp();
  const { page } = await openPage(context, base());
  await page.goto(`${scope('a')}?chapter=demo&lang=en`);
  await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor({ timeout: 30000 });
  await page.waitForLoadState('networkidle');
  const [oldCopy] = Object.keys(await waitForCopy(page, scope('a')));
  const fetchedDuring = async (action) => {
    const before = { ...server.stats.hits };
    await action();
    // Site a's files only (a 304 counts: the browser asked): it checks site b's sw.js for updates when it likes.
    return Object.keys(server.stats.hits).filter((p) => p.startsWith('/a/') && server.stats.hits[p] !== before[p]).sort();
  };
  const update = () => page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  const ALWAYS = ['/a/index.html', '/a/judge-worker.js', '/a/mt/tensorpad_core.worker.js', '/a/sw.js', '/a/worker.js'];

  // An author changes the demo chapter's titles and deploys, but the Chinese file is caught mid-copy.
  const file = (lang) => path.join(root, 'a', 'chapters', 'demo', `${lang}.json`);
  const retitle = (lang, title) => JSON.stringify({ ...JSON.parse(fs.readFileSync(file(lang), 'utf8')), title });
  fs.writeFileSync(file('en'), retitle('en', 'A tour of the notebook, second edition'));
  const zhText = retitle('zh', '笔记本导览（第二版）');
  fs.writeFileSync(file('zh'), zhText);
  const { version } = writeServiceWorker(path.join(root, 'a'));
  fs.writeFileSync(file('zh'), zhText.slice(0, zhText.length / 2));
  const failure = page.evaluate(() => new Promise((resolve) => {
    navigator.serviceWorker.addEventListener('message', (e) => resolve(e.data), { once: true });
    setTimeout(() => resolve({ type: 'no message in 30 s' }), 30000);
  }));
  const fetchedByFailedInstall = await fetchedDuring(async () => {
    await update();
    await failure;
  });
  assert.deepEqual(fetchedByFailedInstall, ['/a/chapters/demo/en.json', '/a/chapters/demo/zh.json', ...ALWAYS].sort(),
    'the install fetched the changed files and the page and worker scripts (for their headers), and nothing else');
  const { type, message } = await failure;
  assert.equal(type, 'tensorpad-offline-failed');
  assert.match(message, /1 file\(s\) failed \(chapters\/demo\/zh\.json is not the file of this build/);
  const afterFailure = await page.evaluate(copiesOf, scope('a'));
  assert.equal(afterFailure[oldCopy].complete, true, 'the old copy is kept');
  assert.equal(afterFailure[`tensorpad ${scope('a')} ${version}`].complete, false);

  // The deploy completes; the browser tries again, and downloads only the file it could not verify.
  fs.writeFileSync(file('zh'), zhText);
  const fetched = await fetchedDuring(async () => {
    await update();
    await waitForCopy(page, scope('a'), version);
  });
  // sw.js is left out: the browser may check it on its own (an update it queued behind the failed one, seen at load
  // 40 asking for sw.js between the failure message and this update), and this update then joins that one.
  assert.deepEqual(fetched.filter((f) => f !== '/a/sw.js'), ['/a/chapters/demo/zh.json'], `the retry fetched ${fetched}`);
  const after = await page.evaluate(copiesOf, scope('a'));
  assert.deepEqual(Object.keys(after).sort(), [oldCopy, `tensorpad ${scope('a')} ${version}`].sort(), 'the new copy, and the one before it for pages still open');

  // A chunk the deploy removed is still there for a page loaded before it, from the copy.
  const chunk = Object.keys(manifestOf('a').files).find((f) => /^assets\/chunk-/.test(f));
  fs.rmSync(path.join(root, 'a', chunk));
  assert.equal(await page.evaluate((f) => fetch(f).then((r) => r.status), chunk), 200);

  await serverDown();
  await reloadSaying(page);
  assert.equal(await page.locator('h1').textContent(), 'A tour of the notebook, second edition', 'the copy is of the new build');
  await page.goto(`${scope('a')}?chapter=demo&lang=zh`);
  assert.equal(await page.locator('h1').textContent(), '笔记本导览（第二版）');
  await page.close();
});
