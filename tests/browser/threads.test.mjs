// The threaded GEMM in Chromium: on a crossOriginIsolated page wasm/js/browser.js loads the pthreads
// core (build/wasm/web-mt) and splits large products over 2+ threads, with products bit-identical to
// one thread and to Node, and eigh too (its tridiagonalization's thread team); a page without
// COOP/COEP gets the single-thread core and still works; both report C++ errors as TensorpadErrors;
// the notebook's own worker (web/dist, served with COOP/COEP) runs the pthreads core.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { init } from 'tensorpad';
import { buildSite } from '../bench/gemm-browser.mjs';
import { createServer } from '../../web/server.mjs';
import { startServer, launch, openPage, cell, typeInto, waitForState } from './helpers.mjs';

// [A shape, B shape]: column split, odd sizes, a narrow n (row split), a batch; all above the split
// threshold (2*m*n*k >= 2^24) except the last, which must not split at all.
const CASES = [[[300, 300], [300, 300]], [[257, 1000], [1000, 129]], [[700, 300], [300, 40]], [[2, 300, 200], [200, 300]], [[20, 30], [30, 40]]];

const WORKER = `
import { init } from 'tensorpad';
self.onmessage = async ({ data }) => {
  try {
    // A machine with more cores, as far as the core can tell: the pool is sized from this.
    if (data.cores) Object.defineProperty(navigator, 'hardwareConcurrency', { value: data.cores });
    const tp = await init();
    const threads = tp.getNumThreads();
    const products = [];
    for (const [sa, sb] of ${JSON.stringify(CASES)}) {
      const A = tp.randn(sa, { seed: 1 }), B = tp.randn(sb, { seed: 2 });
      const bits = data.threadCounts.map((t) => { tp.setNumThreads(t); return Array.from(new Uint32Array(A.matmul(B).data().buffer)); });
      products.push({ same: bits.every((b) => b.every((x, i) => x === bits[0][i])), sum: bits[0].reduce((s, x) => (s + x) % 1000000007, 0) });
    }
    // eigh of a 300x300 symmetric matrix: its tridiagonalization's first 3 panels run as a thread team.
    const S = tp.randn([300, 300], { seed: 3 }), Sym = S.add(S.transpose());
    const eig = data.threadCounts.map((t) => {
      tp.setNumThreads(t);
      const { eigenvalues, eigenvectors } = tp.linalg.eigh(Sym);
      return [...new Uint32Array(eigenvalues.data().buffer), ...new Uint32Array(eigenvectors.data().buffer)];
    });
    products.push({ same: eig.every((b) => b.every((x, i) => x === eig[0][i])), sum: eig[0].reduce((s, x) => (s + x) % 1000000007, 0) });
    // svd of a tall 333x300 matrix: its bidiagonalization's first 3 panels run as a thread team.
    const G = tp.randn([333, 300], { seed: 4 });
    const sv = data.threadCounts.map((t) => {
      tp.setNumThreads(t);
      const { U, S, Vh } = tp.linalg.svd(G);
      return [...new Uint32Array(U.data().buffer), ...new Uint32Array(S.data().buffer), ...new Uint32Array(Vh.data().buffer)];
    });
    products.push({ same: sv.every((b) => b.every((x, i) => x === sv[0][i])), sum: sv[0].reduce((s, x) => (s + x) % 1000000007, 0) });
    const clampedTo = tp.setNumThreads(64);
    // A C++ error must reach JS as a TensorpadError, and the core stay usable (a pthreads build with
    // -fwasm-exceptions let them escape uncaught under Emscripten 3.1.6).
    let cppError = null;
    try { tp.randn([4, 3]).matmul(tp.zeros([4, 5])); } catch (e) { cppError = e.name + ': ' + e.message; }
    const afterError = tp.tensor([[1, 2], [3, 4]]).matmul(tp.tensor([[5, 6], [7, 8]])).toArray();
    self.postMessage({ flavor: tp.coreFlavor, fallback: tp.threadsFallback ?? null, isolated: self.crossOriginIsolated,
      threads, clampedTo, cores: navigator.hardwareConcurrency, products, cppError, afterError });
  } catch (e) {
    self.postMessage({ error: String(e?.stack ?? e) });
  }
};
`;

let dir, isolated, plain, dist, browser;
const urls = new Map();  // a server listens once; later tests reuse its URL
const listen = (server) => urls.get(server) ?? urls.set(server, new Promise((r) => server.listen(0, '127.0.0.1',
  () => r(`http://127.0.0.1:${server.address().port}/`)))).get(server);

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-threads-'));
  await buildSite(dir, { worker: WORKER });
  isolated = createServer(dir); // COOP/COEP, as `npm start` serves the notebook
  plain = http.createServer((req, res) => { // the same files with no isolation headers
    const file = path.join(dir, new URL(req.url, 'http://x').pathname.replace(/\/$/, '/index.html'));
    if (!file.startsWith(dir) || !fs.existsSync(file)) return res.writeHead(404).end();
    const type = file.endsWith('.wasm') ? 'application/wasm' : file.endsWith('.html') ? 'text/html' : 'text/javascript';
    res.writeHead(200, { 'Content-Type': type }).end(fs.readFileSync(file));
  });
  dist = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  isolated?.close();
  plain?.close();
  await dist?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// The most Worker threads in one renderer process (Linux /proc): the page's worker plus its pool.
async function workerThreads() {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  const count = (pid) => fs.readdirSync(`/proc/${pid}/task`).filter((t) => {
    try { return /Worker/.test(fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8')); } catch { return false; }
  }).length;
  return Math.max(0, ...processInfo.filter((p) => p.type === 'renderer' && fs.existsSync(`/proc/${p.id}`)).map((p) => count(p.id)));
}

async function runWorker(base, { cores = 0, threadCounts = [1, 2, 3] } = {}) {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, base);
  try {
    await page.goto(base);
    await page.waitForFunction(() => window.ready === true);
    const got = await page.evaluate((message) => new Promise((resolve) => {
      const w = new Worker('./bench-worker.js', { type: 'module' });
      w.onmessage = ({ data }) => resolve(data);
      w.onerror = (e) => resolve({ error: `worker error: ${e.message}` });
      w.postMessage(message);
    }), { cores, threadCounts });
    assert.equal(got.error, undefined, got.error);
    got.workerThreads = await workerThreads();
    assert.deepEqual(log.errors, [], 'no console error');
    assert.equal(got.cppError, 'TensorpadError: matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)');
    assert.deepEqual(got.afterError, [[19, 22], [43, 50]]);
    return got;
  } finally {
    await context.close();
  }
}

// The same products (and the eigh and svd) in Node (single-thread core): the checksums of their bits.
async function nodeSums() {
  const tp = await init();
  const sums = CASES.map(([sa, sb]) => {
    const C = tp.randn(sa, { seed: 1 }).matmul(tp.randn(sb, { seed: 2 }));
    return Array.from(new Uint32Array(C.data().buffer)).reduce((s, x) => (s + x) % 1000000007, 0);
  });
  const S = tp.randn([300, 300], { seed: 3 }), { eigenvalues, eigenvectors } = tp.linalg.eigh(S.add(S.transpose()));
  const { U, S: sigma, Vh } = tp.linalg.svd(tp.randn([333, 300], { seed: 4 }));
  const sum = (arrays) => arrays.flatMap((a) => [...new Uint32Array(a.data().buffer)]).reduce((s, x) => (s + x) % 1000000007, 0);
  return [...sums, sum([eigenvalues, eigenvectors]), sum([U, sigma, Vh])];
}

test('a crossOriginIsolated page runs the pthreads core, and its products match 1 thread and Node bit for bit', async () => {
  const got = await runWorker(await listen(isolated));
  assert.equal(got.isolated, true);
  assert.equal(got.flavor, 'web-mt', `fallback: ${got.fallback}`);
  const pool = Math.max(2, Math.min(got.cores, 8));
  assert.equal(got.threads, Math.min(got.cores, pool + 1), 'one thread per core, up to the pool + the caller');
  assert.equal(got.clampedTo, pool + 1);
  for (const [i, p] of got.products.entries()) assert.ok(p.same, `case ${JSON.stringify(CASES[i] ?? ['eigh 300', 'svd 333x300'][i - CASES.length])}: 1, 2 and 3 threads differ`);
  assert.deepEqual(got.products.map((p) => p.sum), await nodeSums(), 'the products differ from Node\'s');
});

test('the pool grows with the cores the browser reports: 6 cores give 6 threads, bit-identical to 1', async () => {
  const got = await runWorker(await listen(isolated), { cores: 6, threadCounts: [1, 4, 6, 7] });
  assert.equal(got.flavor, 'web-mt', `fallback: ${got.fallback}`);
  assert.equal(got.cores, 6);
  assert.equal(got.threads, 6, 'one thread per reported core');
  assert.equal(got.clampedTo, 7, 'the pool (6 workers) + the caller');
  assert.ok(got.workerThreads >= 7, `the page's worker and a pool of 6: ${got.workerThreads} Worker threads in the renderer`);
  for (const [i, p] of got.products.entries()) assert.ok(p.same, `case ${JSON.stringify(CASES[i] ?? ['eigh 300', 'svd 333x300'][i - CASES.length])}: 1, 4, 6 and 7 threads differ`);
  assert.deepEqual(got.products.map((p) => p.sum), await nodeSums());
});

test('a page that is not crossOriginIsolated runs the single-thread core, with the same products', async () => {
  const got = await runWorker(await listen(plain));
  assert.equal(got.isolated, false);
  assert.equal(got.flavor, 'web');
  assert.equal(got.fallback, 'page not crossOriginIsolated');
  assert.equal(got.threads, 1);
  assert.equal(got.clampedTo, 1, 'setNumThreads has no effect without threads');
  assert.deepEqual(got.products.map((p) => p.sum), await nodeSums());
});

for (const lang of ['en', 'zh']) {
  test(`(${lang}) the notebook (web/dist, served with COOP/COEP) runs its cells on the pthreads core`, async () => {
    const context = await browser.newContext();
    const { page, log } = await openPage(context, dist.base);
    try {
      await page.goto(`${dist.base}?chapter=demo&lang=${lang}`);
      await page.locator('[data-testid=cell] .cm-editor').first().waitFor();
      await typeInto(page, 'c1', "tp.coreFlavor + ':' + (tp.getNumThreads() > 1 || navigator.hardwareConcurrency === 1)");
      await page.keyboard.press('Control+Enter');
      await waitForState(page, 'c1');
      assert.equal((await cell(page, 'c1').locator('[data-testid=cell-output]').textContent()).trim(), '"web-mt:true"');
      assert.deepEqual(log.errors, [], 'no console error');
    } finally {
      await context.close();
    }
  });
}
