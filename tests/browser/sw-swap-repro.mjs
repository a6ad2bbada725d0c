// Reproduces, on demand, the reload that hung offline.test.mjs for 90 s: a new build's worker replaces the old
// one while a request reaches the old one, and the page is reloaded before the swap ends. Not a test (node --test
// does not pick it up): a tool to measure how often the reload hangs, and whether it shows the new build.
//   node tests/browser/sw-swap-repro.mjs [rounds=12] [--park] [--skip-waiting] [--offline]
// Each round deploys a new title for the demo chapter, asks for the update, waits until the new copy is complete,
// reloads (the server stopped first with --offline) and prints the workers' states then, the reload's time and
// whether the page shows the new title; a reload that does not load in 40 s is a hang, and prints the trace of
// workers (CDP ServiceWorker versions) and requests. --park sends requests the moment the new worker is
// installed (the old one is being stopped then); --skip-waiting deploys workers that skip waiting, as they did
// before web/src/sw.js says why they do not.
// Measured (Chromium 156, load 20-40, --park --offline): skipping waiting, 7 hangs in 12 reloads; 2 in 35 when the
// outgoing worker also asked the waiting one to skip waiting again on each request; not skipping waiting, with the
// outgoing worker answering from the newer copy first, 0 hangs and 0 old titles in 18.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dist, launch, openPage } from './helpers.mjs';
import { createServer } from '../../web/server.mjs';
import { writeServiceWorker } from '../../web/build.mjs';

const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 12);
const flag = (f) => process.argv.includes(f);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-swap-'));
const site = path.join(root, 'a');
fs.cpSync(dist, site, { recursive: true });
const trace = [];
const t0 = Date.now();
const note = (s) => trace.push(`${Date.now() - t0} ${s}`);

/** Writes the site's sw.js for its files as they are (skipping waiting if asked); returns the build's version. */
function deploy() {
  const { version } = writeServiceWorker(site);
  const sw = path.join(site, 'sw.js');
  let text = fs.readFileSync(sw, 'utf8');
  if (flag('--skip-waiting')) text = text.replace('event.waitUntil(copyBuild())', 'event.waitUntil(copyBuild().then(() => self.skipWaiting()))');
  fs.writeFileSync(sw, text);
  return version;
}

const server = createServer(root);
const serve = server.listeners('request')[0];
server.removeAllListeners('request');
server.on('request', (req, res) => { note(`server ${req.url}`); serve(req, res); });
let port = 0;
const up = async () => { if (!server.listening) await new Promise((r) => server.listen(port, '127.0.0.1', r)); port = server.address().port; };
const down = () => new Promise((r) => { server.close(r); server.closeAllConnections(); });

let version = deploy();
await up();
const scope = `http://127.0.0.1:${port}/a/`;
const browser = await launch();
const context = await browser.newContext({ serviceWorkers: 'allow' });
const { page } = await openPage(context, scope);
const cdp = await context.newCDPSession(page);
cdp.on('ServiceWorker.workerVersionUpdated', (e) => note(`workers ${JSON.stringify(e.versions.map((v) => [v.versionId, v.runningStatus, v.status]))}`));
await cdp.send('ServiceWorker.enable');
page.on('request', (r) => note(`page asks ${r.url().slice(scope.length)}`));
page.on('requestfinished', (r) => note(`page got ${r.url().slice(scope.length)}`));

/** Waits until the copy of `v` is complete (its manifest written: the install is ending, the swap not yet done). */
async function copyComplete(v) {
  const name = `tensorpad ${scope} ${v}`;
  const deadline = Date.now() + 60000;
  while (!(await page.evaluate(async ([n, s]) => Boolean(await (await caches.open(n)).match(new URL('__tensorpad-manifest__.json', s).href)), [name, scope]))) {
    if (Date.now() > deadline) {
      console.log(`the copy of ${v} is not complete after 60 s\n${trace.join('\n')}`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const chapter = path.join(site, 'chapters', 'demo', 'en.json');
await page.goto(`${scope}?chapter=demo&lang=en`);
let hangs = 0;
for (let round = 1; round <= rounds; round++) {
  await up();
  await copyComplete(version);
  const title = `A tour, round ${round}`;
  fs.writeFileSync(chapter, JSON.stringify({ ...JSON.parse(fs.readFileSync(chapter, 'utf8')), title }));
  version = deploy();
  trace.length = 0;
  note(`round ${round}: deploy ${version}`);
  await page.evaluate(async (park) => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (park) {
      registration.addEventListener('updatefound', () => {
        const worker = registration.installing;
        worker.addEventListener('statechange', async () => {
          if (worker.state !== 'installed') return;
          for (let i = 0; i < 3; i++) await fetch(`chapters/demo/en.json?in-swap=${i}`).catch(() => {});
        });
      }, { once: true });
    }
    await registration.update();
  }, flag('--park'));
  await copyComplete(version);
  const state = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.getRegistration();
    return `installing ${r.installing?.state ?? '-'}, waiting ${r.waiting?.state ?? '-'}, active ${r.active?.state ?? '-'}`;
  });
  if (flag('--offline')) await down();
  const t = Date.now();
  try {
    await page.reload({ timeout: 40000 });
    const h1 = await page.locator('h1').textContent();
    console.log(`round ${round}: at reload ${state}; loaded in ${Date.now() - t} ms, ${h1 === title ? 'new title' : `STALE title ${h1}`}`);
  } catch (e) {
    hangs++;
    console.log(`round ${round}: at reload ${state}; HANG (${e.message.split('\n')[0]})\n${trace.join('\n')}`);
    await page.goto('about:blank').catch(() => {});
    await up();
    await page.goto(`${scope}?chapter=demo&lang=en`);
  }
}
console.log(`${hangs} hang(s) in ${rounds} reloads`);
await browser.close();
if (server.listening) await down();
fs.rmSync(root, { recursive: true, force: true });
