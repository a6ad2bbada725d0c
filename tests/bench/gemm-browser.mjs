// Run after building build/wasm (and its web-mt flavour): `node tests/bench/gemm-browser.mjs [--quick] [--build-dir build/wasm]`.
//
// The GEMM on 1 thread and on 2 threads side by side, in Chromium (playwright-core + /usr/bin/chromium),
// in one crossOriginIsolated page (served with COOP/COEP by web/server.mjs): tp.matmul in a module
// Worker, as the notebook runs it, through wasm/js/browser.js which picks the pthreads core
// (build/wasm/web-mt) there. Shapes 1024^3, 512x1024.1024x3072, and 256^3 (the cost of starting threads).
// The machine is shared, so trials of 1 and 2 threads are interleaved (order alternating), and next to
// the wall clock the CPU time of the renderer's threads is read from /proc/<pid>/task/*/schedstat:
//   - "cpu" GFLOPS = flops / CPU time of all threads (work efficiency; for 2 threads, both count);
//   - "crit" = flops / the busiest thread's CPU time: what the wall clock would be with a core per
//     thread, so crit(2) / crit(1) estimates the speed-up on an idle machine;
//   - "runnable": for the 2 busiest threads, (CPU time + time waiting on a run queue) / wall time, from
//     the same schedstat: near 1 for both means both threads wanted a core for the whole product
//     (they did overlap; only other processes held them back), which is what makes the estimate hold.
// Prints GFLOPS (median, min-max), speed-ups, the load average, and writes
// tests/bench/results/gemm-browser-<time>.json (+ gemm-browser-latest.json). Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { createServer } from '../../web/server.mjs';
import { benchArgs } from './args.mjs';
import { median } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const defaultBuild = path.resolve(root, 'build/wasm');
/** A browser bench's command line: --quick, --build-dir (default build/wasm, resolved from the repo) and
 *  its own `options`; read by the bench that runs, not at import (the browser tests import this module). */
export function browserBenchArgs(usage, options = {}) {
  const args = benchArgs(usage, { quick: { type: 'boolean' }, 'build-dir': { type: 'string', default: 'build/wasm' }, ...options });
  return { ...args, buildDir: path.resolve(root, args['build-dir']) };
}

// The page: a module Worker (workerFile) running tp, driven by messages from page.js (window.call); the
// worker's end is WORKER_DISPATCH after its `cmds` table.
export function pageJs(workerFile) {
  return `
const w = new Worker('./${workerFile}', { type: 'module' });
let seq = 0;
const pending = new Map();
w.onmessage = ({ data }) => {
  const p = pending.get(data.id);
  pending.delete(data.id);
  if (data.error) p.reject(new Error(data.error)); else p.resolve(data.result);
};
window.call = (cmd, args = {}) => new Promise((resolve, reject) => {
  const id = ++seq;
  pending.set(id, { resolve, reject });
  w.postMessage({ id, cmd, args });
});
window.ready = true;
`;
}
// A bench worker's message loop: runs cmds[cmd](args) and answers with its result or its error.
export const WORKER_DISPATCH = `
self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, result: await cmds[data.cmd](data.args) });
  } catch (e) {
    self.postMessage({ id: data.id, error: String(e?.stack ?? e) });
  }
};
`;

const WORKER_JS = `
import { init } from 'tensorpad';
let tp, A, B;
const cmds = {
  async init({ threads }) {
    tp = await init({ threads });
    return { flavor: tp.coreFlavor, fallback: tp.threadsFallback ?? null, threads: tp.getNumThreads(),
      isolated: self.crossOriginIsolated, cores: navigator.hardwareConcurrency, userAgent: navigator.userAgent };
  },
  setup({ m, k, n }) {
    if (A) tp.dispose(A, B);
    A = tp.randn([m, k], { seed: 1 });
    B = tp.randn([k, n], { seed: 2 });
    return true;
  },
  run({ threads, reps }) {
    tp.setNumThreads(threads);
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) A.matmul(B).dispose();
    return performance.now() - t0;
  },
  // The product on each thread count, compared bit for bit with the first.
  compare({ threads }) {
    const bits = threads.map((t) => { tp.setNumThreads(t); const C = A.matmul(B); const d = C.data(); C.dispose(); return new Uint32Array(d.buffer); });
    let differ = 0;
    for (const b of bits.slice(1)) for (let i = 0; i < b.length; i++) if (b[i] !== bits[0][i]) differ++;
    return { differ, n: bits[0].length };
  },
};
${WORKER_DISPATCH}`;

/** Writes the bench site into dir: index.html, page.js, bench-worker.js (bundled tp), the cores. */
export async function buildSite(dir, { build = defaultBuild, worker = WORKER_JS } = {}) {
  const web = path.join(build, 'web'), mt = path.join(build, 'web-mt');
  const mtFiles = ['tensorpad_core.js', 'tensorpad_core.worker.js', 'tensorpad_core.wasm'];
  for (const f of [path.join(web, 'tensorpad_core.wasm'), ...mtFiles.map((x) => path.join(mt, x))]) {
    if (!fs.existsSync(f)) throw new Error(`${f} is missing: build build/wasm (targets tensorpad_core_web, tensorpad_core_web_mt)`);
  }
  fs.mkdirSync(path.join(dir, 'mt'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), BENCH_INDEX_HTML);
  fs.writeFileSync(path.join(dir, 'page.js'), pageJs('bench-worker.js'));
  // Bundled like web/build.mjs bundles the notebook's worker; the single-thread core comes from `build`.
  await esbuild.build({
    stdin: { contents: worker, resolveDir: root, loader: 'js' },
    bundle: true, format: 'esm', platform: 'browser', conditions: ['browser'], target: 'es2022', logLevel: 'error',
    outfile: path.join(dir, 'bench-worker.js'),
    define: { __TP_MT_CORE__: JSON.stringify('./mt/tensorpad_core.js') },
    plugins: [{ // the single-thread core of the same build as the pthreads one
      name: 'core-from-build-dir',
      setup: (b) => b.onResolve({ filter: /build\/wasm\/web\/tensorpad_core\.js$/ }, () => ({ path: path.join(web, 'tensorpad_core.js') })),
    }],
    external: ['module', 'fs', 'path', 'url', 'node:*', 'worker_threads', 'crypto'],
  });
  fs.copyFileSync(path.join(web, 'tensorpad_core.wasm'), path.join(dir, 'tensorpad_core.wasm'));
  for (const f of mtFiles) fs.copyFileSync(path.join(mt, f), path.join(dir, 'mt', f));
}

/** Writes a site into a fresh temporary folder with write(dir), serves it with COOP/COEP, launches
 *  Chromium, and returns fn({ browser, url }); everything is closed and removed afterwards. */
export async function withServedSite(prefix, write, fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const browser = await launch();
  const server = createServer(dir);
  try {
    await write(dir);
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return await fn({ browser, url: `http://127.0.0.1:${server.address().port}/` });
  } finally {
    await browser.close();
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** withServedSite for the bench site of `worker` (buildSite) on the cores of `build`. */
export function withBenchSite(prefix, worker, build, fn) {
  return withServedSite(prefix, (dir) => buildSite(dir, { build, worker }), fn);
}

/** The page every bench site opens: index.html loading page.js. */
export const BENCH_INDEX_HTML = '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="page.js"></script>\n';

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

// CPU time and run-queue wait (ns) of each thread of process pid, from schedstat (ns resolution), and its name.
export function threadCpu(pid) {
  const out = new Map();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      out.set(tid, { run, wait, name: fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() });
    } catch { /* the thread ended */ }
  }
  return out;
}

// The renderer process hosting the page's Worker and the pthread pool (there are spare renderers): the
// one with the most Worker threads, at least `least`.
export async function workerRenderer(browser, least = 3) {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
  await cdp.detach();
  const workerThreads = (pid) => fs.readdirSync(`/proc/${pid}/task`)
    .filter((t) => { try { return /Worker/.test(fs.readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8')); } catch { return false; } }).length;
  const renderers = processInfo.filter((p) => p.type === 'renderer' && fs.existsSync(`/proc/${p.id}`))
    .map((p) => ({ pid: p.id, workers: workerThreads(p.id) })).sort((a, b) => b.workers - a.workers);
  if (!renderers.length || renderers[0].workers < least) throw new Error(`no renderer with the Worker threads: ${JSON.stringify(renderers)}`);
  return renderers[0].pid;
}
function cpuDelta(before, after) {
  const ds = [...after].map(([tid, a]) => ({ run: a.run - (before.get(tid)?.run ?? 0), wait: a.wait - (before.get(tid)?.wait ?? 0) }))
    .sort((x, y) => y.run - x.run);
  return { total: ds.reduce((s, d) => s + d.run, 0) / 1e9, max: ds[0].run / 1e9, busiest: ds.slice(0, 2).map((d) => (d.run + d.wait) / 1e9) };
}

const stats = (xs) => ({ median: median(xs), min: Math.min(...xs), max: Math.max(...xs) });
const fmt = (x, w = 6, d = 1) => x.toFixed(d).padStart(w);

async function main() {
  const { quick, buildDir } = browserBenchArgs('node tests/bench/gemm-browser.mjs [--quick] [--build-dir build/wasm]');
  const trials = quick ? 5 : 11;
  const trialMs = quick ? 150 : 400;
  await withBenchSite('tp-gemm-browser-', WORKER_JS, buildDir, async ({ browser, url }) => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(url);
    await page.waitForFunction(() => window.ready === true);
    const info = await page.evaluate(() => window.call('init', { threads: true }));
    // The renderer hosting the page, its Worker and the pthread pool (2 pool workers + ours).
    const pid = await workerRenderer(browser);
    const load0 = os.loadavg();
    console.log(`Chromium ${browser.version()} (${info.cores} cores seen), core ${info.flavor}, crossOriginIsolated ${info.isolated}` +
      `${info.fallback ? `, fallback: ${info.fallback}` : ''}; load average ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    if (info.flavor !== 'web-mt') throw new Error('the pthreads core was not chosen: nothing to compare');
    console.log(`${trials} interleaved trials of ~${trialMs} ms per thread count; GFLOPS = 2*m*n*k / time: ` +
      'wall, cpu (all threads), crit (busiest thread)\n');

    const shapes = [{ m: 1024, k: 1024, n: 1024 }, { m: 512, k: 1024, n: 3072 }, { m: 256, k: 256, n: 256 }];
    const results = [];
    for (const s of shapes) {
      const label = s.m === s.k && s.k === s.n ? `${s.m}^3` : `${s.m}x${s.k}.${s.k}x${s.n}`;
      const flops = 2 * s.m * s.k * s.n;
      await page.evaluate((a) => window.call('setup', a), s);
      const { differ, n } = await page.evaluate(() => window.call('compare', { threads: [1, 2, 3] }));
      // Calibrate reps on 1 thread (after a warm-up), so one trial takes about trialMs.
      await page.evaluate(() => window.call('run', { threads: 1, reps: 1 }));
      const once = await page.evaluate(() => window.call('run', { threads: 1, reps: 1 }));
      const reps = Math.max(1, Math.round(trialMs / once));
      const runs = { 1: [], 2: [] };
      for (let t = 0; t < trials; t++) {
        for (const threads of t % 2 ? [2, 1] : [1, 2]) {
          const before = threadCpu(pid);
          const ms = await page.evaluate((a) => window.call('run', a), { threads, reps });
          const cpu = cpuDelta(before, threadCpu(pid));
          const work = flops * reps / 1e9;
          runs[threads].push({ wall: work / (ms / 1e3), cpu: work / cpu.total, crit: work / cpu.max,
            runnable: cpu.busiest.map((s) => s / (ms / 1e3)) });
        }
      }
      const summary = (rs) => ({ wall: stats(rs.map((r) => r.wall)), cpu: stats(rs.map((r) => r.cpu)), crit: stats(rs.map((r) => r.crit)) });
      const one = summary(runs[1]), two = summary(runs[2]);
      // Speed-up per interleaved pair (same moment, same load), then the median of those.
      const pairs = (key) => median(runs[2].map((r, i) => r[key] / runs[1][i][key]));
      const r = { shape: label, ...s, reps, identical: differ === 0, differing: differ, elements: n, one_thread: one, two_threads: two,
        speedup_wall: pairs('wall'), speedup_wall_of_medians: two.wall.median / one.wall.median, speedup_crit: pairs('crit') };
      r.runnable_two_threads = [0, 1].map((i) => median(runs[2].map((x) => x.runnable[i])));
      results.push(r);
      console.log(`${label.padEnd(20)} 1 thread : wall ${fmt(one.wall.median)} [${fmt(one.wall.min, 5)} - ${fmt(one.wall.max, 5)}]  cpu ${fmt(one.cpu.median)}  crit ${fmt(one.crit.median)}`);
      console.log(`${''.padEnd(20)} 2 threads: wall ${fmt(two.wall.median)} [${fmt(two.wall.min, 5)} - ${fmt(two.wall.max, 5)}]  cpu ${fmt(two.cpu.median)}  crit ${fmt(two.crit.median)}`);
      console.log(`${''.padEnd(20)} speed-up: wall ${fmt(r.speedup_wall, 5, 2)} (median of pairs; of medians ${fmt(r.speedup_wall_of_medians, 4, 2)}), ` +
        `idle-machine estimate (crit) ${fmt(r.speedup_crit, 4, 2)} (runnable ${r.runnable_two_threads.map((x) => x.toFixed(2)).join(' / ')});  1/2/3 threads bit-identical: ${r.identical ? 'yes' : `NO (${differ} of ${n})`}`);
    }
    const load1 = os.loadavg();
    console.log(`\nload average after: ${load1.map((x) => x.toFixed(2)).join(' ')}`);
    if (errors.length) console.log(`page errors:\n  ${errors.join('\n  ')}`);
    const out = { date: new Date().toISOString(), chromium: browser.version(), cpus: os.cpus().length, load_before: load0, load_after: load1,
      info, trials, trial_ms: trialMs, results, errors };
    const resultsDir = path.join(here, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const stamp = out.date.replace(/[:.]/g, '-');
    for (const f of [`gemm-browser-${stamp}.json`, 'gemm-browser-latest.json']) fs.writeFileSync(path.join(resultsDir, f), JSON.stringify(out, null, 2));
    console.log(`wrote ${path.relative(root, path.join(resultsDir, `gemm-browser-${stamp}.json`))}`);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`gemm-browser: ${e.stack ?? e.message}`);
    process.exit(1);
  });
}
