// Run after building build/wasm: `node tests/bench/first-call-browser.mjs [--build-dir build/wasm] [--only name-prefix]`.
//
// What a reader's first call of an operation costs in Chromium, against the same call once warm. V8 runs
// a WASM function's first calls in its baseline compiler (Liftoff) and switches to optimized code only at
// a later call, so kernels call their inner work out of line, once per block (cpp/src/out_of_line.hpp);
// this bench shows whether that holds. Each case runs in a fresh page (a fresh module, nothing tiered up
// yet), single-thread core, 4 calls in a row. Prints the first call and the median of calls 2-4, and
// writes tests/bench/results/first-call-browser-latest.json. Not a test: no thresholds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WORKER_DISPATCH, browserBenchArgs, withBenchSite } from './gemm-browser.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const args = browserBenchArgs('node tests/bench/first-call-browser.mjs [--build-dir build/wasm] [--only name-prefix]', { only: { type: 'string' } });
const only = args.only ?? null;

// The chapter's real-size experiments and the decompositions a reader calls once: inputs made first
// (x, y), then the timed call.
const CASES = {
  'matmul 512x1024 @ 1024x3072': ['[tp.randn([512, 1024], { seed: 1 }), tp.randn([1024, 3072], { seed: 2 })]', 'tp.matmul(x, y)'],
  'attention 16 heads x 1024 tokens': ['[tp.randn([1, 16, 1024, 64], { seed: 3 })]', 'tp.nn.scaledDotProductAttention(x, x, x, { causal: true })'],
  'svdvals 3072x1024': ['[tp.randn([3072, 1024], { seed: 1 })]', 'tp.linalg.svdvals(x)'],
  'svd 1024x1024': ['[tp.randn([1024, 1024], { seed: 1 })]', 'tp.linalg.svd(x)'],
  'inv 1024x1024': ['[tp.randn([1024, 1024], { seed: 1 })]', 'tp.linalg.inv(x)'],
};

const WORKER_JS = `
import { init } from 'tensorpad';
let tp;
const cmds = {
  async init() { tp = await init({ threads: false }); return tp.coreFlavor; },
  run({ setup, expr }) {
    const [x, y] = new Function('tp', 'return ' + setup)(tp);
    const f = new Function('tp', 'x', 'y', 'return ' + expr);
    const ms = [];
    for (let i = 0; i < 4; i++) tp.tidy(() => { const t0 = performance.now(); f(tp, x, y); ms.push(performance.now() - t0); });
    return ms;
  },
};
${WORKER_DISPATCH}`;

async function main() {
  await withBenchSite('tp-first-call-', WORKER_JS, args.buildDir, async ({ browser, url }) => {
    console.log(`Chromium ${browser.version()}; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} CPUs`);
    const results = {};
    for (const [name, [setup, expr]] of Object.entries(CASES).filter(([n]) => !only || n.startsWith(only))) {
      const page = await browser.newPage();  // a fresh module: nothing optimized yet
      await page.goto(url);
      await page.waitForFunction(() => window.ready === true);
      const flavor = await page.evaluate(() => window.call('init'));
      const ms = await page.evaluate((a) => window.call('run', a), { setup, expr });
      await page.close();
      const warm = [...ms.slice(1)].sort((a, b) => a - b)[1];
      results[name] = { first_ms: ms[0], warm_ms: warm, ratio: ms[0] / warm, calls_ms: ms, core: flavor };
      console.log(`${name.padEnd(34)} first ${ms[0].toFixed(0).padStart(5)} ms, warm ${warm.toFixed(0).padStart(5)} ms: first/warm ${(ms[0] / warm).toFixed(2)}`);
    }
    const resultsDir = path.join(here, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    fs.writeFileSync(path.join(resultsDir, 'first-call-browser-latest.json'),
      JSON.stringify({ date: new Date().toISOString(), chromium: browser.version(), results }, null, 2));
  });
}

main().catch((e) => {
  console.error(`first-call-browser: ${e.stack ?? e.message}`);
  process.exit(1);
});
