// Run after building build/wasm with its web-mt flavour: `node tests/bench/model-browser.mjs [--quick] [--layers N] [--tokens 512,1024] [--build-dir build/wasm]`.
//
// tp.model's prefill in Chromium on 1 and on 2 threads: the Qwen3-0.6B-shaped random BF16 checkpoint of
// model.mjs is chosen as Files on an <input type=file> (as the reader picks a model folder) and loaded by
// tp.model.load in a module Worker with the pthreads core (build/wasm/web-mt, 2 GB heap), as the notebook
// runs it; then each prefill runs on 1 thread and on 2, interleaved. Prints seconds, GFLOPS, the speed-up
// (goal >= 1.7x on 2 threads, issue 23), the load time and the heap (the WebAssembly memory's size, its
// high-water mark), with the load average: on a shared machine 2 threads get 2 cores only when it is idle.
// Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withBenchSite } from './gemm-browser.mjs';
import { checkpoint, prefillFlops, machine } from './model.mjs';

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const quick = argv.includes('--quick');
const layers = Number(option('--layers', quick ? 4 : 28));
const lengths = option('--tokens', quick ? '128,256' : '512,1024').split(',').map(Number);
const MB = 2 ** 20;

const WORKER_JS = `
import { init } from 'tensorpad';
// The core's WebAssembly.Memory (imported by the pthreads core, exported by the other): its size is the heap's.
let memory = null;
const find = (o) => o && Object.values(o).find((e) => e instanceof WebAssembly.Memory);
for (const name of ['instantiate', 'instantiateStreaming']) {
  const f = WebAssembly[name];
  WebAssembly[name] = async (src, imports) => {
    for (const module of Object.values(imports ?? {})) memory = find(module) ?? memory;  // import names are minified
    const r = await f(src, imports);
    memory = find((r.instance ?? r).exports) ?? memory;
    return r;
  };
}
let tp, model;
const cmds = {
  async init() {
    tp = await init({ threads: true });
    return { flavor: tp.coreFlavor, fallback: tp.threadsFallback ?? null, threads: tp.getNumThreads(), isolated: self.crossOriginIsolated };
  },
  async load({ files }) {
    const t0 = performance.now();
    model = await tp.model.load(files);
    return { ms: performance.now() - t0, weights: model.bytes, heap: memory?.buffer.byteLength ?? null };
  },
  async forward({ T, threads }) {
    tp.setNumThreads(threads);
    const ids = Array.from({ length: T }, (_, k) => k % model.config.vocabSize);
    const t0 = performance.now();
    const { logits } = await model.forward(ids);
    const ms = performance.now() - t0;
    logits.dispose();
    return { ms, heap: memory?.buffer.byteLength ?? null };
  },
};
self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, result: await cmds[data.cmd](data.args) });
  } catch (e) {
    self.postMessage({ id: data.id, error: String(e?.stack ?? e) });
  }
};
`;

const { dir, cfg, fileBytes, seconds } = checkpoint(layers);
console.log(`checkpoint: Qwen3-0.6B shape, ${layers} of 28 layers, BF16, ${(fileBytes / MB).toFixed(0)} MB (written in ${seconds.toFixed(1)} s)`);
console.log(machine());

await withBenchSite('tp-model-browser-', WORKER_JS, async ({ browser, url }) => {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => window.ready === true);
  // A file input the checkpoint's Files come through, handed to the Worker.
  await page.evaluate(() => {
    const input = document.createElement('input');
    Object.assign(input, { type: 'file', multiple: true, id: 'files' });
    document.body.append(input);
  });
  await page.setInputFiles('#files', fs.readdirSync(dir).map((n) => path.join(dir, n)));
  const info = await page.evaluate(() => window.call('init'));
  console.log(`Chromium ${browser.version()}, core ${info.flavor} (${info.threads} threads), crossOriginIsolated ${info.isolated}${info.fallback ? `, fallback: ${info.fallback}` : ''}`);
  if (info.flavor !== 'web-mt') throw new Error('the pthreads core was not chosen: nothing to compare');
  const load = await page.evaluate(() => window.call('load', { files: [...document.querySelector('#files').files] }));
  console.log(`load: ${(load.ms / 1000).toFixed(2)} s, weights ${(load.weights / MB).toFixed(0)} MB, heap ${(load.heap / MB).toFixed(0)} MB`);
  console.log('tokens | threads | s | GFLOPS | heap MB | speed-up 2 vs 1 (goal >= 1.7)');
  for (const T of lengths) {
    const got = {};
    for (const threads of T === lengths[0] ? [1, 2] : [2, 1]) {  // interleaved: the order alternates
      got[threads] = await page.evaluate((a) => window.call('forward', a), { T, threads });
    }
    for (const threads of [1, 2]) {
      const r = got[threads];
      console.log(`${T} | ${threads} | ${(r.ms / 1000).toFixed(2)} | ${(prefillFlops(cfg, T) / (r.ms / 1000) / 1e9).toFixed(1)} | ${(r.heap / MB).toFixed(0)} | ${threads === 2 ? (got[1].ms / got[2].ms).toFixed(2) : ''}`);
    }
  }
  console.log(machine().replace('CPU', 'after: CPU'));
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
});
