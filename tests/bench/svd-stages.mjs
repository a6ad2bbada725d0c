// Run after building build/wasm's tensorpad_bench: `node tests/bench/svd-stages.mjs [--n 1024] [--trials 5]
// [--module path/to/tensorpad_bench.js]`.
//
// Where svd's time goes (issue 24): its float32 route on a Gaussian (n, n), stage by stage (bench_svd.cpp):
// bidiagonalization, the bidiagonal's values, its vectors by inverse iteration (which finds the values
// again first: the column shows the vectors alone), back-transformation of both factors. Single thread,
// CPU seconds (median of the trials), with the CPU model and load average.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { median } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const opt = benchArgs('node tests/bench/svd-stages.mjs [--n 1024] [--trials 5] [--module build/wasm/bench/tensorpad_bench.js]', {
  n: { type: 'string', default: '1024' },
  trials: { type: 'string', default: '5' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
});
const n = Number(opt.n);
const trials = Number(opt.trials);
const modulePath = path.resolve(root, opt.module);
const create = require(modulePath);
const tp = await create({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });

const names = ['bidiagonalize', 'values', 'vectors', 'back-transformation'];
function cpuSeconds(fn) {
  const c0 = process.cpuUsage();
  const r = fn();
  const c = process.cpuUsage(c0);
  if (r === -1) throw new Error('svd-stages: inverse iteration declined this bidiagonal');
  return (c.user + c.system) / 1e6;
}
tp.svdSetup(n, 7);
for (let s = 0; s < 4; s++) tp.svdStage(s); // warm-up
const times = names.map(() => []);
for (let t = 0; t < trials; t++) for (let s = 0; s < 4; s++) times[s].push(cpuSeconds(() => tp.svdStage(s)));
const m = times.map(median);
m[2] = Math.max(0, m[2] - m[1]); // stage 2 finds the values first
const total = m.reduce((a, b) => a + b, 0);
console.log(`svd ${n}x${n} stages, CPU s, median of ${trials} (${os.cpus()[0].model} x${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.log(`${names.map((nm, i) => `${nm} ${m[i].toFixed(3)} (${((100 * m[i]) / total).toFixed(0)}%)`).join('  ')}  total ${total.toFixed(3)}`);
