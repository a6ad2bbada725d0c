// Shared setup for the browser tests: serve the built web/dist on a free port, launch Debian's
// chromium through playwright-core, forward the page console, and record every request and error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { createServer } from '../../web/server.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const dist = path.resolve(process.env.TENSORPAD_DIST ?? path.join(root, 'web', 'dist'));

export async function startServer() {
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error('web/dist is not built: run "node web/build.mjs" first');
  const server = createServer(dist);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, stats: server.stats, base: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

// For a test file: before its tests, serve the built site and launch Chromium, then hand both to
// ready(srv, browser); after them, close both.
export function useSiteAndBrowser(ready) {
  let srv, browser;
  before(async () => {
    srv = await startServer();
    browser = await launch();
    ready(srv, browser);
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
  });
}

// Each context after the first opens a window, and Chromium 156 builds that window's address-bar popup (a WebUI
// page in a renderer of its own) meanwhile: ~550 ms of CPU, and ~100 ms more in the browser process, during the
// page's first second, which a reader's browser (its window long open) does not spend then. On this 2-core
// machine it stretched page-open.mjs's first screen by 0.6-0.7 s (load 11-13). Chromium keeps only the last
// --disable-features, so Playwright's own list (its bundle's `disabledFeatures`) is repeated with ours; where that
// list cannot be read, Playwright's flag stands alone and the popup is built as before.
const NO_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
function disableFeatures() {
  try {
    const bundle = fs.readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
    const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)[1].replace(/\/\/.*$/gm, '');
    const theirs = [...list.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]);
    if (!theirs.length) throw new Error('empty');
    return [`--disable-features=${[...theirs, ...NO_POPUP].join(',')}`];
  } catch {
    console.warn('helpers: Playwright\'s disabled Chromium features could not be read; the address-bar popup stays on');
    return [];
  }
}

export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...disableFeatures()],
  });
  // The site's service worker (web/src/sw.js) is off unless a test asks for it ({serviceWorkers: 'allow'},
  // as offline.test.mjs does): its copy of the whole site would add its downloads to every test's load.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  return browser;
}

/**
 * A page that forwards its console to ours and records what matters:
 * log.errors (console errors, page errors, failed requests) and log.foreign (requests off the origin).
 */
export async function openPage(context, base) {
  const page = await context.newPage();
  const origin = new URL(base).origin;
  const log = { errors: [], foreign: [], requests: [] };
  const local = (url) => url.startsWith(origin + '/') || /^(data|blob|about):/.test(url);
  page.on('console', (m) => {
    if (process.env.TP_VERBOSE || m.type() === 'error') console.log(`  [page ${m.type()}] ${m.text()}`);
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => {
    console.log(`  [page exception] ${e.message}`);
    log.errors.push(e.message);
  });
  page.on('request', (r) => {
    log.requests.push(r);
    if (!local(r.url())) log.foreign.push(r.url());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) log.errors.push(`HTTP ${r.status()} for ${r.url()}`);
  });
  page.on('requestfailed', (r) => {
    if (!/^blob:/.test(r.url()) && r.failure()?.errorText !== 'net::ERR_ABORTED') log.errors.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('worker', (w) => w.on('console', (m) => process.env.TP_VERBOSE && console.log(`  [worker ${m.type()}] ${m.text()}`)));
  return { page, log };
}

/**
 * Opens the site at `base` in a fresh context (`contextOptions` as browser.newContext's; `prepare(context)`
 * runs before the page opens, to route requests say), runs fn(page, context, log), and fails on any console
 * error; the context is closed however fn ends.
 */
export async function withSitePage(browser, base, fn, { contextOptions, prepare } = {}) {
  const context = await browser.newContext(contextOptions);
  if (prepare) await prepare(context);
  const { page, log } = await openPage(context, base);
  try {
    await fn(page, context, log);
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    await context.close();
  }
}

/** Waits until the cell engine says it is ready, in the page's language. */
export const engineReady = (page, lang = 'en') => page.locator('[data-testid=kernel-status]').filter({ hasText: lang === 'en' ? 'Ready' : '就绪' }).waitFor({ timeout: 60000 });

/** Types `source` into a cell, runs it with Ctrl+Enter, waits for it to end; returns its output's text. */
export async function runCell(page, id, source) {
  await typeInto(page, id, source);
  await page.keyboard.press('Control+Enter');
  await waitForState(page, id, ['done', 'error']);
  return (await cell(page, id).locator('[data-testid=cell-output]').textContent()).trim();
}

/** Holds back the chunk with CodeMirror's view (web/src/lazy-editor.js loads it after the first screen) until
 *  release(); held() is its URL once the page has asked for it. Call before the page loads. */
export async function holdCodeMirror(page) {
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  let heldUrl = null;
  await page.route('**/assets/chunk-*.js', async (route) => {
    try {
      const response = await route.fetch();
      const body = await response.text();
      // Its gutter's class name is in no other chunk.
      if (body.includes('cm-gutters-before')) {
        heldUrl = route.request().url();
        await gate;
      }
      await route.fulfill({ response, body });
    } catch (e) {
      // A chunk still in flight when the test closed its context: Playwright disposes the response
      // ("Response has been disposed"), and the rejection would surface after the test as an unhandled one
      // (CI-like run, session 22). Nothing is left to serve then; any other failure stays an error.
      if (!page.isClosed()) throw e;
    }
  });
  return { release, held: () => heldUrl };
}

export const cell = (page, id) => page.locator(`[data-testid=cell][data-cell-id="${id}"]`);

/** Replaces a cell's text through its CodeMirror editor, as a reader would. */
export async function typeInto(page, id, text) {
  const content = cell(page, id).locator('.cm-content');
  await content.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

export async function editorText(page, id) {
  return cell(page, id).locator('.cm-content').evaluate((el) => (el.cmTile?.root?.view ?? el.cmView?.view)?.state.doc.toString() ?? [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'));
}

export function waitForState(page, id, states = ['done', 'error'], timeout = 30000) {
  return page.waitForFunction(([cid, ss]) => ss.includes(document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`)?.dataset.state), [id, states], { timeout });
}

export async function waitAllSettled(page, timeout = 60000) {
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll('[data-testid=cell]')];
    return cells.length > 0 && cells.every((c) => ['done', 'error'].includes(c.dataset.state) && !c.classList.contains('queued'));
  }, null, { timeout });
}

/** After Run all: waits until no cell is queued or running. */
export async function waitIdle(page, timeout = 60000) {
  await page.waitForFunction(() => !document.querySelector('[data-testid=cell].queued, [data-testid=cell][data-state=running]'), null, { timeout });
}

/**
 * A bare page running `script` (an ES module that may import 'tensorpad'), bundled by esbuild for the
 * browser and served on a free port with the WASM core beside it; `body` is extra HTML before the script.
 * For tests of the tp API itself, without the notebook. Returns {page, log, close}.
 */
export async function scriptPage(script, { body = '' } = {}) {
  const { build } = await import('esbuild');
  const http = await import('node:http');
  const bundle = await build({
    stdin: { contents: script, resolveDir: root, loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'error',
  });
  const files = {
    '/': ['text/html', `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${body}<script type="module" src="/page.js"></script>`],
    '/page.js': ['text/javascript', bundle.outputFiles[0].contents],
    '/tensorpad_core.wasm': ['application/wasm', fs.readFileSync(path.join(root, 'build/wasm/web/tensorpad_core.wasm'))],
  };
  const server = http.createServer((req, res) => {
    const f = files[new URL(req.url, 'http://x').pathname];
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': f[0] }).end(f[1]);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const browser = await launch();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const { page, log } = await openPage(await browser.newContext(), base);
  await page.goto(base);
  return { page, log, close: async () => { await browser.close(); server.close(); } };
}
