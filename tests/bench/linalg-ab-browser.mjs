// Run after building build/wasm's tensorpad_bench_linalg_mt (and web/ for the server):
// `node tests/bench/linalg-ab-browser.mjs --a /tmp/base-wasm [--build-dir build/wasm] [--what eigh|svd] [--n 1024] [--trials 9]`.
//
// A/B of two builds of the stage bench module (tensorpad_bench_linalg_mt, as linalg-stages-browser.mjs
// uses it): A from --a's bench-web-mt, B from --build-dir's. Both load in one crossOriginIsolated page,
// each in its own module Worker with its own pthread pool, and the calls interleave A 1T, B 1T, A 2T,
// B 2T, then the reverse, trial after trial: on a shared host whose load swings within seconds, runs of
// A and then of B see different loads, these see the same. Times eigh's tridiagonalization (eighStage 0)
// and the whole float32 eigh (5), or svd's bidiagonalization (svdStage 0) and the whole svd (4): wall ms
// per call (median, min, max, every trial) and each build's 1T / 2T ratio per trial. Before and after, what two
// processes deliver over one on this host (vcpus.mjs's hostPairs: a taken vCPU or memory bus shows). Not a test: no
// thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_INDEX_HTML, browserBenchArgs, pageJs, withServedSite } from './gemm-browser.mjs';
import { stageWorkerJs } from './linalg-stage-worker.mjs';
import { median } from './stats.mjs';
import { hostPairs } from './vcpus.mjs';

const { buildDir, ...opt } = browserBenchArgs(
  'node tests/bench/linalg-ab-browser.mjs --a DIR [--build-dir build/wasm] [--what eigh|svd] [--n 1024] [--trials 9]',
  { a: { type: 'string' }, what: { type: 'string', default: 'eigh' }, n: { type: 'string', default: '1024' }, trials: { type: 'string', default: '9' } });
if (!opt.a) throw new Error('--a DIR (a build folder with bench-web-mt/tensorpad_bench_linalg_mt.*) is required');
const trials = Number(opt.trials), n = Number(opt.n);
const [fn, stages] = opt.what === 'svd' ? ['svdStage', [[0, 'bidiagonalize'], [4, 'whole svd']]] : ['eighStage', [[0, 'tridiagonalize'], [5, 'whole eigh']]];


// The site: each build's stage module in a folder of its own (A/, B/) with its Worker, and one page.
function writeSite(dir) {
  for (const [sub, src] of [['A', path.resolve(opt.a)], ['B', buildDir]]) {
    fs.mkdirSync(path.join(dir, sub));
    for (const x of ['js', 'wasm', 'worker.js']) {
      const f = path.join(src, 'bench-web-mt', `tensorpad_bench_linalg_mt.${x}`);
      if (!fs.existsSync(f)) throw new Error(`${f} is missing: build that folder's tensorpad_bench_linalg_mt`);
      fs.copyFileSync(f, path.join(dir, sub, path.basename(f)));
    }
    fs.writeFileSync(path.join(dir, `worker${sub}.js`), stageWorkerJs(sub));  // its module from ./sub/
  }
  // pageJs's script twice, each in its own block (its consts), as window.callA and window.callB.
  const call = (sub) => pageJs(`worker${sub}.js`).replace('window.call =', `window.call${sub} =`);
  fs.writeFileSync(path.join(dir, 'page.js'), `{${call('A')}}\n{${call('B')}}\n`);
  fs.writeFileSync(path.join(dir, 'index.html'), BENCH_INDEX_HTML);
}

async function main() {
  console.log(`before: ${await hostPairs()}`);
  await withServedSite('tp-linalg-ab-', writeSite, async ({ browser, url }) => {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.ready === true && window.callA && window.callB);
    for (const sub of ['A', 'B'])
      if (!(await page.evaluate(([s, a]) => window[`call${s}`]('init', a), [sub, { n }])).isolated) throw new Error('the page is not crossOriginIsolated');
    console.log(`Chromium ${browser.version()}, ${opt.what} ${n}, A ${opt.a}, B ${path.relative(process.cwd(), buildDir) || '.'}, ` +
      `${trials} interleaved trials (after one warm-up); load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    const ms = {};
    const order = [['A', 1], ['B', 1], ['A', 2], ['B', 2]];
    for (let t = 0; t <= trials; t++)
      for (const [sub, threads] of t % 2 ? [...order].reverse() : order)
        for (const [stage] of stages) {
          const x = await page.evaluate(([s, a]) => window[`call${s}`]('run', a), [sub, { threads, fn, stage }]);
          if (t > 0) (ms[`${sub}${threads}${stage}`] ??= []).push(x);
        }
    for (const [stage, label] of stages) {
      console.log(`\n${label} (${fn} ${stage}): wall ms median [min-max], every trial`);
      for (const threads of [1, 2])
        for (const sub of ['A', 'B']) {
          const xs = ms[`${sub}${threads}${stage}`];
          console.log(`  ${sub} ${threads} thread${threads > 1 ? 's' : ' '} ${median(xs).toFixed(1).padStart(7)} [${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}]  ${xs.map((x) => x.toFixed(0)).join(' ')}`);
        }
      for (const sub of ['A', 'B']) {
        const r = ms[`${sub}1${stage}`].map((x, i) => x / ms[`${sub}2${stage}`][i]);
        console.log(`  ${sub} 1 thread / 2 threads, per trial: median ${median(r).toFixed(2)}x [${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)}]`);
      }
      const b2 = ms[`B2${stage}`].map((x, i) => ms[`A2${stage}`][i] / x), b1 = ms[`B1${stage}`].map((x, i) => ms[`A1${stage}`][i] / x);
      console.log(`  A / B per trial: 1 thread ${median(b1).toFixed(2)}x [${Math.min(...b1).toFixed(2)}-${Math.max(...b1).toFixed(2)}], ` +
        `2 threads ${median(b2).toFixed(2)}x [${Math.min(...b2).toFixed(2)}-${Math.max(...b2).toFixed(2)}]`);
    }
    console.log(`\nload average after: ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  });
  console.log(`after: ${await hostPairs()}`);
}

main().catch((e) => {
  console.error(`linalg-ab-browser: ${e.stack ?? e.message}`);
  process.exit(1);
});
