// Run after building build/wasm's tensorpad_bench_linalg_mt (and web/ for the server):
// `node tests/bench/linalg-stages-browser.mjs [--n 1024] [--trials 5] [--build-dir build/wasm]`.
//
// Where the 1- and 2-thread time of eigh and svd goes where the notebook runs them (issue 24): Chromium, a
// module Worker in a crossOriginIsolated page, the stage entry points of bench_eigh.cpp and bench_svd.cpp
// compiled on the pthreads core as web-mt builds it (tensorpad_bench_linalg_mt, build/wasm/bench-web-mt).
// eigh (float32, with vectors, symmetric part of a Gaussian): tridiagonalize, eigenvalues, inverse
// iteration vectors, back-transformation; svd (Gaussian): bidiagonalize, values, TGK inverse iteration
// (which finds the values again: its row is the difference), back-transformation of both factors; and
// each whole decomposition (tp::linalg's entry, with its copies). Wall milliseconds per stage, median of
// the trials, 1 and 2 threads interleaved (order alternating), speed-up and share of the 1-thread total,
// and the busiest thread's CPU time ("crit", below). Before and after, what two processes deliver over one on
// this host (vcpus.mjs's hostPairs): a 2-thread figure means little when a neighbour takes a vCPU or the
// memory bus. Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_INDEX_HTML, browserBenchArgs, pageJs, threadCpu, withServedSite, workerRenderer } from './gemm-browser.mjs';
import { stageWorkerJs } from './linalg-stage-worker.mjs';
import { median } from './stats.mjs';
import { hostPairs } from './vcpus.mjs';

const { buildDir, ...opt } = browserBenchArgs(
  'node tests/bench/linalg-stages-browser.mjs [--n 1024] [--trials 5] [--build-dir build/wasm]',
  { n: { type: 'string', default: '1024' }, trials: { type: 'string', default: '5' } });
const n = Number(opt.n), trials = Number(opt.trials);


// [label, entry point, stage]; the decomposition's stages in order, then the whole call.
const EIGH = [['tridiagonalize', 'eighStage', 0], ['eigenvalues', 'eighStage', 1], ['vectors (inverse iteration)', 'eighStage', 2],
  ['back-transformation', 'eighStage', 4], ['whole tp::linalg::eigh', 'eighStage', 5]];
const SVD = [['bidiagonalize', 'svdStage', 0], ['values', 'svdStage', 1], ['values + TGK vectors', 'svdStage', 2],
  ['back-transformation', 'svdStage', 3], ['whole tp::linalg::svd', 'svdStage', 4]];

async function main() {
  const files = ['js', 'wasm', 'worker.js'].map((x) => path.join(buildDir, 'bench-web-mt', `tensorpad_bench_linalg_mt.${x}`));
  for (const f of files) if (!fs.existsSync(f)) throw new Error(`${f} is missing: build build/wasm's tensorpad_bench_linalg_mt`);
  const writeSite = (dir) => {
    fs.mkdirSync(path.join(dir, 'bench'));
    for (const f of files) fs.copyFileSync(f, path.join(dir, 'bench', path.basename(f)));
    fs.writeFileSync(path.join(dir, 'index.html'), BENCH_INDEX_HTML);
    fs.writeFileSync(path.join(dir, 'page.js'), pageJs('worker.js'));
    fs.writeFileSync(path.join(dir, 'worker.js'), stageWorkerJs('bench'));
  };
  console.log(`before: ${await hostPairs()}`);
  await withServedSite('tp-linalg-stages-', writeSite, async ({ browser, url }) => {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.ready === true);
    const info = await page.evaluate((a) => window.call('init', a), { n });
    const pid = await workerRenderer(browser);
    if (!info.isolated) throw new Error('the page is not crossOriginIsolated');
    const load0 = os.loadavg();
    console.log(`Chromium ${browser.version()}, stage bench on the pthreads core, n = ${n}, ${trials} trials; load ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    for (const [name, stages] of [['eigh', EIGH], ['svd', SVD]]) {
      // One call per stage, in order, each timed by the wall clock in the Worker and by the CPU time of the
      // renderer's threads (schedstat): "crit", the busiest thread's CPU time, is what the wall time would be
      // with a core per thread (the machine is shared; as gemm-browser.mjs's idle-machine estimate). It counts
      // the pool's spin-waits (up to 50 us per join, work_pool.cpp), so stages that join once per column
      // (tridiagonalize, bidiagonalize) read pessimistic on 2 threads.
      const run = async (threads) => {
        const wall = [], crit = [];
        for (const [, fn, stage] of stages) {
          const before = threadCpu(pid);
          wall.push(await page.evaluate((a) => window.call('run', a), { threads, fn, stage }));
          const after = threadCpu(pid);
          crit.push(Math.max(...[...after].map(([tid, a]) => a.run - (before.get(tid)?.run ?? 0))) / 1e6);
        }
        return { wall, crit };
      };
      await run(1); // warm-up
      await run(2);
      const ms = { 1: [], 2: [] }, cpu = { 1: [], 2: [] };
      for (let t = 0; t < trials; t++)
        for (const threads of t % 2 ? [2, 1] : [1, 2]) {
          const r = await run(threads);
          ms[threads].push(r.wall);
          cpu[threads].push(r.crit);
        }
      const critOf = (threads, i) => median(cpu[threads].map((r) => r[i])) - (name === 'svd' && i === 2 ? median(cpu[threads].map((r) => r[1])) : 0);
      const col = (threads, i) => ms[threads].map((r) => r[i]);
      const med = (threads, i) => median(col(threads, i));
      // The TGK row times the values again: its own time is the difference.
      const own = (threads, i) => (name === 'svd' && i === 2 ? med(threads, 2) - med(threads, 1) : med(threads, i));
      const parts = stages.length - 1, total1 = [...Array(parts).keys()].reduce((s, i) => s + own(1, i), 0);
      const total2 = [...Array(parts).keys()].reduce((s, i) => s + own(2, i), 0);
      console.log(`\n${name} ${n}x${n}: stage, 1 thread ms [min-max], 2 threads ms [min-max], speed-up, share of the 1-thread sum;` +
        ' crit ms 1 / 2 threads and its speed-up');
      stages.forEach(([label], i) => {
        const a = own(1, i), b = own(2, i);
        const range = (threads) => `[${Math.min(...col(threads, i)).toFixed(1)}-${Math.max(...col(threads, i)).toFixed(1)}]`;
        const label2 = name === 'svd' && i === 2 ? 'TGK vectors (less values)' : label; // its range: with the values
        console.log(`  ${label2.padEnd(28)} ${a.toFixed(1).padStart(7)} ${range(1).padEnd(14)} ${b.toFixed(1).padStart(7)} ${range(2).padEnd(14)} ` +
          `${(a / b).toFixed(2)}x  ${i < parts ? `${((100 * a) / total1).toFixed(1)}%`.padStart(6) : ''.padStart(6)}` +
          `  crit ${critOf(1, i).toFixed(1)} / ${critOf(2, i).toFixed(1)} ${(critOf(1, i) / critOf(2, i)).toFixed(2)}x`);
      });
      console.log(`  ${'sum of stages'.padEnd(28)} ${total1.toFixed(1).padStart(7)} ${''.padEnd(14)} ${total2.toFixed(1).padStart(7)} ${''.padEnd(14)} ${(total1 / total2).toFixed(2)}x`);
    }
    console.log(`\nload average after: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  });
  console.log(`after: ${await hostPairs()}`);
}

main().catch((e) => {
  console.error(`linalg-stages-browser: ${e.stack ?? e.message}`);
  process.exit(1);
});
