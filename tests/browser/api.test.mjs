// The tp API in Chromium: the browser build (ES6 core, bundled by esbuild) gives the same numbers as Node.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, readFileSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { init } from 'tensorpad';

const root = fileURLToPath(new URL('../../', import.meta.url));
let dir, server, browser, page;
const consoleLines = [];

const PAGE_SCRIPT = `
import { init } from 'tensorpad';
window.run = async () => {
  const tp = await init();
  const A = tp.randn([4, 3], { seed: 1 }), B = tp.randn([3, 5], { seed: 2 });
  let outer = tp.zeros([4, 5]);
  for (let k = 0; k < 3; k++) outer = outer.add(tp.outer(A.select(1, k), B.select(0, k)));
  let error = null;
  try { A.matmul(tp.zeros([4, 5])); } catch (e) { error = e.name + ': ' + e.message; }
  return {
    product: Array.from(A.matmul(B).data()),
    viewsAgree: tp.allclose(outer, A.matmul(B), { atol: 1e-6 }),
    randnBits: Array.from(new Uint32Array(tp.randn([64], { seed: 42 }).data().buffer)),
    error,
    usableAfterError: tp.tensor([[1, 2], [3, 4]]).matmul(tp.tensor([[5, 6], [7, 8]])).toArray(),
  };
};
`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tp-api-browser-'));
  await esbuild.build({
    stdin: { contents: PAGE_SCRIPT, resolveDir: root, loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', outfile: join(dir, 'page.js'), logLevel: 'error',
  });
  copyFileSync(join(root, 'build/wasm/web/tensorpad_core.wasm'), join(dir, 'tensorpad_core.wasm'));
  const files = {
    '/': ['text/html', '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/page.js"></script>'],
    '/page.js': ['text/javascript', readFileSync(join(dir, 'page.js'))],
    '/tensorpad_core.wasm': ['application/wasm', readFileSync(join(dir, 'tensorpad_core.wasm'))],
  };
  server = http.createServer((req, res) => {
    const f = files[new URL(req.url, 'http://x').pathname];
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': f[0] }).end(f[1]);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage();
  page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => typeof window.run === 'function');
});

after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the browser build computes the same product, RNG bits and errors as Node', async () => {
  const got = await page.evaluate(() => window.run());
  const tp = await init();
  const A = tp.randn([4, 3], { seed: 1 }), B = tp.randn([3, 5], { seed: 2 });
  assert.deepEqual(got.product, Array.from(A.matmul(B).data()), 'product differs from Node');
  assert.equal(got.viewsAgree, true);
  const golden = JSON.parse(readFileSync(join(root, 'tests/fixtures/core/randn_seed42.json'), 'utf8')).bits;
  assert.deepEqual(got.randnBits.map((b) => b.toString(16).padStart(8, '0')), golden);
  assert.equal(got.error, 'TensorpadError: matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)');
  assert.deepEqual(got.usableAfterError, [[19, 22], [43, 50]]);
  assert.deepEqual(consoleLines.filter((l) => /^(error|pageerror)/.test(l)), [], consoleLines.join('\n'));
});
