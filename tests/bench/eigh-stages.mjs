// Run after building build/wasm's tensorpad_bench: `node tests/bench/eigh-stages.mjs [--n 1024] [--trials 5]
// [--module path/to/tensorpad_bench.js]`.
//
// Where eigh's time goes (issue 24): its float32 route on a symmetric Gaussian (n, n), stage by stage
// (bench_eigh.cpp): tridiagonalization, eigenvalues, vectors of the tridiagonal, back-transformation,
// with the tridiagonal's vectors by inverse iteration (eigh's route) and by divide and conquer, trials
// alternated. Single thread, CPU seconds (median of the trials), with the CPU model and load average.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { cpuSeconds, median } from './stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const args = benchArgs('node tests/bench/eigh-stages.mjs [--n 1024] [--trials 5] [--module build/wasm/bench/tensorpad_bench.js]', {
  n: { type: 'string', default: '1024' }, trials: { type: 'string', default: '5' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
});
const n = Number(args.n);
const trials = Number(args.trials);
const modulePath = path.resolve(root, args.module);
const create = require(modulePath);
const tp = await create({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });

const names = ['tridiagonalize', 'eigenvalues', 'tridiagonal vectors', 'back-transformation'];
// Stage calls per route (bench_eigh.cpp's eighStage): one CPU time per name.
const routes = { 'inverse iteration': [[0], [1], [2], [4]], 'divide and conquer': [[0], [], [3], [4]] };
const times = Object.fromEntries(Object.keys(routes).map((r) => [r, names.map(() => [])]));
tp.eighSetup(n, 7);
for (const stage of [0, 1, 2, 4]) tp.eighStage(stage); // warm-up
for (let t = 0; t < trials; t++)
  for (const [route, calls] of Object.entries(routes))
    calls.forEach((stages, i) => times[route][i].push(stages.reduce((sum, s) => sum + cpuSeconds(() => tp.eighStage(s)), 0)));
console.log(`eigh ${n}x${n} stages, CPU s, median of ${trials} (${os.cpus()[0].model} x${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
for (const route of Object.keys(routes)) {
  const m = times[route].map(median);
  const total = m.reduce((a, b) => a + b, 0);
  console.log(`${route.padEnd(18)} ${names.map((nm, i) => `${nm} ${m[i].toFixed(3)}`).join('  ')}  total ${total.toFixed(3)}`);
}
