// Run after building build/wasm with its web-mt flavour:
//   node tests/bench/model-browser.mjs [--quick] [--layers N] [--tokens 512,1024] [--trials N] [--build-dir build/wasm]
//
// tp.model's prefill in Chromium on 1 and on 2 threads: the Qwen3-0.6B-shaped random BF16 checkpoint of
// model.mjs is chosen as Files on an <input type=file> (as the reader picks a model folder) and loaded by
// tp.model.load in a module Worker with the pthreads core (build/wasm/web-mt, 2 GB heap), as the notebook
// runs it; then each prefill runs on 1 thread and on 2, interleaved (--trials pairs, order alternating).
// Prints seconds, GFLOPS, the speed-up (goal >= 1.7x on 2 threads, issue 23), the load time and the heap
// (the WebAssembly memory's size, its high-water mark), with the load average. On a shared machine 2
// threads get 2 cores only when it is idle, so it also prints what holds without one:
//   - CPU time per thread of the renderer (/proc/<pid>/task/*/schedstat, as gemm-browser.mjs): "crit" is
//     the busiest thread's CPU time, the wall time with a core per thread, and crit(1) / crit(2) the
//     idle-machine estimate of the speed-up; "wait" is the time a thread was runnable without a core;
//   - the forward's own profile (model.forward's {profile: true}): each op's wall time per layer on 1
//     and 2 threads and how long the helper thread worked in it, so which ops run on one thread, the
//     serial fraction f of the 1-thread time they hold, and Amdahl's bound 1 / (f + (1 - f) / 2).
// Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WORKER_DISPATCH, browserBenchArgs, withBenchSite, threadCpu, workerRenderer } from './gemm-browser.mjs';
import { checkpoint, prefillFlops, machine } from './model.mjs';
import { median } from './stats.mjs';

const args = browserBenchArgs('node tests/bench/model-browser.mjs [--quick] [--layers N] [--tokens 512,1024] [--trials N] [--build-dir build/wasm]', {
  layers: { type: 'string' }, tokens: { type: 'string' }, trials: { type: 'string', default: '1' },
});
const quick = args.quick;
const layers = Number(args.layers ?? (quick ? 4 : 28));
const lengths = (args.tokens ?? (quick ? '128,256' : '512,1024')).split(',').map(Number);
const trials = Number(args.trials);
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
    const { logits, profile } = await model.forward(ids, { profile: true });
    const ms = performance.now() - t0;
    logits.dispose();
    return { ms, heap: memory?.buffer.byteLength ?? null, profile };
  },
};
${WORKER_DISPATCH}`;

const { dir, cfg, fileBytes, seconds } = checkpoint(layers);
console.log(`checkpoint: Qwen3-0.6B shape, ${layers} of 28 layers, BF16, ${(fileBytes / MB).toFixed(0)} MB (written in ${seconds.toFixed(1)} s)`);
console.log(machine());

await withBenchSite('tp-model-browser-', WORKER_JS, args.buildDir, async ({ browser, url }) => {
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
  const pid = await workerRenderer(browser);
  // One forward, with each renderer thread's CPU and run-queue wait (s) over it, busiest first.
  const forward = async (T, threads) => {
    const before = threadCpu(pid);
    const r = await page.evaluate((a) => window.call('forward', a), { T, threads });
    r.cpu = [...threadCpu(pid)].map(([tid, a]) => ({ name: a.name, run: (a.run - (before.get(tid)?.run ?? 0)) / 1e9,
      wait: (a.wait - (before.get(tid)?.wait ?? 0)) / 1e9 })).filter((t) => t.run >= 0.01).sort((x, y) => y.run - x.run);
    return r;
  };
  const runs = new Map();
  for (const T of lengths) {
    const got = { 1: [], 2: [] };
    for (let t = 0; t < trials; t++) {
      for (const threads of (t + lengths.indexOf(T)) % 2 ? [2, 1] : [1, 2]) got[threads].push(await forward(T, threads));
    }
    runs.set(T, got);
  }
  console.log('tokens | threads | s | GFLOPS | heap MB | speed-up 2 vs 1 (goal >= 1.7) | crit s | idle estimate crit(1)/crit(2)');
  for (const [T, got] of runs) {
    const ms = (th) => median(got[th].map((r) => r.ms));
    const crit = (th) => median(got[th].map((r) => r.cpu[0]?.run ?? NaN));
    for (const threads of [1, 2]) {
      const r = got[threads][0];
      console.log(`${T} | ${threads} | ${(ms(threads) / 1000).toFixed(2)} | ${(prefillFlops(cfg, T) / (ms(threads) / 1000) / 1e9).toFixed(1)} | ${(r.heap / MB).toFixed(0)} | ` +
        `${threads === 2 ? (ms(1) / ms(2)).toFixed(2) : ''} | ${crit(threads).toFixed(2)} | ${threads === 2 ? (crit(1) / crit(2)).toFixed(2) : ''}`);
    }
  }
  for (const [T, got] of runs) {
    console.log(`\nCPU per thread over one forward of ${T} tokens (s; run + waiting for a core), threads with >= 10 ms:`);
    for (const threads of [1, 2]) {
      const r = got[threads][0];
      console.log(`  ${threads} thread${threads > 1 ? 's' : ' '}: wall ${(r.ms / 1000).toFixed(2)}; ` +
        r.cpu.slice(0, 4).map((c) => `${c.name} ${c.run.toFixed(2)} + ${c.wait.toFixed(2)}`).join(', '));
    }
    // The profile: ms per layer of each op (embed, final_norm, lm_head: per forward), median over trials.
    const prof = (threads) => {
      const out = new Map();
      for (const r of got[threads]) for (const p of r.profile) (out.get(p.op) ?? out.set(p.op, []).get(p.op)).push(p);
      return new Map([...out].map(([op, ps]) => [op, { calls: ps[0].calls, ms: median(ps.map((p) => p.ms)), helperMs: median(ps.map((p) => p.helperMs)) }]));
    };
    const p1 = prof(1), p2 = prof(2);
    const per = (op, x) => (['embed', 'final_norm', 'lm_head'].includes(op) ? x : x / layers);
    const total1 = [...p1.values()].reduce((s, p) => s + p.ms, 0), total2 = [...p2.values()].reduce((s, p) => s + p.ms, 0);
    console.log(`  profile, ms per layer (embed, final_norm, lm_head: per forward); "helper": ms the second thread worked in it:`);
    console.log('  op           | 1 thread | 2 threads | helper | 1/2 | % of 1-thread time | split');
    let serial = 0;
    for (const [op, a] of p1) {
      const b = p2.get(op) ?? { ms: NaN, helperMs: 0 };
      const split = b.helperMs > 0;
      if (!split) serial += a.ms;
      console.log(`  ${op.padEnd(12)} | ${per(op, a.ms).toFixed(2).padStart(8)} | ${per(op, b.ms).toFixed(2).padStart(9)} | ${per(op, b.helperMs).toFixed(2).padStart(6)} | ` +
        `${(a.ms / b.ms).toFixed(2).padStart(4)} | ${(100 * a.ms / total1).toFixed(1).padStart(5)} | ${split ? 'yes' : 'NO'}`);
    }
    const outside = (th, total) => median(got[th].map((r) => r.ms)) - total;
    const f = serial / total1;
    console.log(`  in the core: ${(total1 / 1000).toFixed(2)} s on 1 thread, ${(total2 / 1000).toFixed(2)} s on 2; outside it (JS, yields): ` +
      `${(outside(1, total1) / 1000).toFixed(2)} / ${(outside(2, total2) / 1000).toFixed(2)} s`);
    console.log(`  serial fraction f (ops the helper never worked in): ${(100 * f).toFixed(2)}% of the 1-thread time; Amdahl's bound on 2 threads ${(1 / (f + (1 - f) / 2)).toFixed(2)}x`);
    // Until the forward split its own ops, only the projections split (inside the GEMM; lm_head's one row did not).
    const gemmOnly = ['qkv_proj', 'o_proj', 'gate_up_proj', 'down_proj'];
    const f0 = [...p1].filter(([op]) => !gemmOnly.includes(op)).reduce((s, [, p]) => s + p.ms, 0) / total1;
    console.log(`  with only the projections split (the forward before issue 23's split): f = ${(100 * f0).toFixed(1)}%, bound ${(1 / (f0 + (1 - f0) / 2)).toFixed(2)}x`);
  }
  console.log(machine().replace('CPU', 'after: CPU'));
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
});
