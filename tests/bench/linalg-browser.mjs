// Run after building build/wasm (and its web-mt flavour): `node tests/bench/linalg-browser.mjs [--quick] [--build-dir build/wasm]`.
//
// The decompositions where the notebook runs them: Chromium (playwright-core + /usr/bin/chromium), a module
// Worker in one crossOriginIsolated page, the pthreads core (build/wasm/web-mt), on 1 and then 2 threads,
// trials interleaved. Cases: svdvals of a Gaussian 3072x1024 and svdLowrank top-64 (niter 2) of the same
// matrix — the pair behind issue 4's goal "svdLowrank at least 10x faster than svdvals". svdLowrank is six
// passes of float GEMM; svdvals is the double Gram matrix and a symmetric eigensolver (tridiagonalization,
// then QL). Both split over the threads, except svdvals' QL iteration; the two thread counts answer
// "what does a reader's page get".
// Then svd and eigh of a 1024x1024 (Gaussian; its symmetric part for eigh) on 1 and 2 threads.
// Prints wall milliseconds (median, min-max) and the ratio per thread count, writes
// tests/bench/results/linalg-browser-latest.json. Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_DISPATCH, browserBenchArgs, withBenchSite } from './gemm-browser.mjs';
import { median } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const { quick, buildDir } = browserBenchArgs('node tests/bench/linalg-browser.mjs [--quick] [--build-dir build/wasm]');
const trials = quick ? 3 : 7;

const WORKER_JS = `
import { init } from 'tensorpad';
let tp, A, B, S;
const cases = {
  svdvals: () => tp.linalg.svdvals(A),
  svdLowrank: () => tp.linalg.svdLowrank(A, 64, { niter: 2, seed: 5 }),
  svd1024: () => tp.linalg.svd(B),
  eigh1024: () => tp.linalg.eigh(S),
};
const cmds = {
  async init({ threads }) {
    tp = await init({ threads });
    A = tp.randn([3072, 1024], { seed: 1 });
    B = tp.randn([1024, 1024], { seed: 2 });
    S = tp.tidy(() => B.add(B.T).mul(0.5));
    return { flavor: tp.coreFlavor, fallback: tp.threadsFallback ?? null, isolated: self.crossOriginIsolated };
  },
  run({ name, threads }) {
    tp.setNumThreads(threads);
    const t0 = performance.now();
    tp.dispose(cases[name]());
    return performance.now() - t0;
  },
};
${WORKER_DISPATCH}`;


async function main() {
  await withBenchSite('tp-linalg-browser-', WORKER_JS, buildDir, async ({ browser, url }) => {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    await page.waitForFunction(() => window.ready === true);
    const info = await page.evaluate(() => window.call('init', { threads: true }));
    if (info.flavor !== 'web-mt') throw new Error(`the pthreads core was not chosen (${JSON.stringify(info)})`);
    const load0 = os.loadavg();
    console.log(`Chromium ${browser.version()}, core ${info.flavor}; load average ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    const run = (name, threads) => page.evaluate((a) => window.call('run', a), { name, threads });
    const names = ['svdvals', 'svdLowrank', 'svd1024', 'eigh1024']; // the worker's cases
    for (const name of names) await run(name, 1); // warm-up
    const ms = Object.fromEntries(names.map((name) => [name, { 1: [], 2: [] }]));
    for (let t = 0; t < trials; t++)
      for (const threads of t % 2 ? [2, 1] : [1, 2])
        for (const name of names) ms[name][threads].push(await run(name, threads));
    const results = {};
    for (const threads of [1, 2]) {
      const v = median(ms.svdvals[threads]), l = median(ms.svdLowrank[threads]);
      results[threads] = { svdvals_ms: v, svdLowrank_ms: l, ratio: v / l,
        svdvals_range: [Math.min(...ms.svdvals[threads]), Math.max(...ms.svdvals[threads])],
        svdLowrank_range: [Math.min(...ms.svdLowrank[threads]), Math.max(...ms.svdLowrank[threads])] };
      console.log(`${threads} thread${threads > 1 ? 's' : ' '}: svdvals 3072x1024 ${v.toFixed(0).padStart(5)} ms  ` +
        `svdLowrank top-64 ${l.toFixed(1).padStart(6)} ms [${results[threads].svdLowrank_range.map((x) => x.toFixed(1)).join(' - ')}]  ` +
        `svdvals / svdLowrank ${(v / l).toFixed(2)} (goal >= 10)`);
    }
    // The full decompositions of a reader's 1024x1024, per thread count.
    for (const [name, label] of [['svd1024', 'svd 1024x1024'], ['eigh1024', 'eigh 1024x1024']]) {
      const [one, two] = [median(ms[name][1]), median(ms[name][2])];
      results[name] = { ms_1_thread: one, ms_2_threads: two, speedup: one / two };
      console.log(`${label.padEnd(15)} 1 thread ${one.toFixed(0).padStart(5)} ms, 2 threads ${two.toFixed(0).padStart(5)} ms: ${(one / two).toFixed(2)}x`);
    }
    const load1 = os.loadavg();
    console.log(`load average after: ${load1.map((x) => x.toFixed(2)).join(' ')}`);
    if (errors.length) console.log(`page errors:\n  ${errors.join('\n  ')}`);
    const out = { date: new Date().toISOString(), chromium: browser.version(), cpus: os.cpus().length, load_before: load0, load_after: load1,
      trials, results, errors };
    const resultsDir = path.join(here, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    fs.writeFileSync(path.join(resultsDir, 'linalg-browser-latest.json'), JSON.stringify(out, null, 2));
    console.log(`wrote ${path.relative(root, path.join(resultsDir, 'linalg-browser-latest.json'))}`);
  });
}

main().catch((e) => {
  console.error(`linalg-browser: ${e.stack ?? e.message}`);
  process.exit(1);
});
