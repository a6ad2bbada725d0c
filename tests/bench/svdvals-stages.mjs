// Run after building build/wasm's tensorpad_bench: `node tests/bench/svdvals-stages.mjs [--m 3072] [--n 1024]
// [--trials 5] [--module path/to/tensorpad_bench.js]`.
//
// Where svdvals' time goes (issue 24): svdvals_double on a Gaussian float (m, n), stage by stage
// (bench_svdvals.cpp): the double Gram matrix, its tridiagonalization, the tridiagonal's eigenvalues, and
// the whole call, trials alternated. Single thread, CPU seconds (median of the trials), with the CPU model
// and load average.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const m = Number(option('--m', 3072));
const n = Number(option('--n', 1024));
const trials = Number(option('--trials', 5));
const modulePath = path.resolve(root, option('--module', 'build/wasm/bench/tensorpad_bench.js'));
const create = require(modulePath);
const tp = await create({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });

const names = ['Gram', 'tridiagonalize', 'eigenvalues', 'whole svdvals'];
const times = names.map(() => []);
function cpuSeconds(fn) {
  const c0 = process.cpuUsage();
  fn();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1e6;
}
tp.svdvalsSetup(m, n, 7);
for (let s = 0; s < names.length; s++) tp.svdvalsStage(s); // warm-up
for (let t = 0; t < trials; t++) names.forEach((_, s) => times[s].push(cpuSeconds(() => tp.svdvalsStage(s))));
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(`svdvals ${m}x${n} stages, CPU s, median of ${trials} (${os.cpus()[0].model} x${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.log(names.map((nm, i) => `${nm} ${median(times[i]).toFixed(3)}`).join('  '));
