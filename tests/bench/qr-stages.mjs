// Run after building build/wasm's tensorpad_bench (--help: the options): `node tests/bench/qr-stages.mjs [--m 3072] [--n 1024]
// [--trials 5] [--variant apply,formBlock ...] [--module path/to/tensorpad_bench.js]
// [--baseline path/to/other/tensorpad_bench.js] [--errors]`.
//
// Where qr's time goes (issue 24): the blocked QR (bench_qr.cpp) on a Gaussian (m, n), stage by stage:
// the factorization with and without its trailing updates (their difference is the trailing updates'
// time), forming Q, the whole qr, sgemm (m, n, min(m, n)) for the GEMM speed of the same sizes, and the
// panels' double work alone (the k / 16 panels of 16 columns gathered from A, and factored).
// --variant (repeatable) sets qr_blocked's block sizes: the trailing updates' and forming Q's (0: the
// defaults, 128 and 128).
// Single thread, CPU seconds (median of the trials, every case alternated so that load from other
// processes hits them alike), with the CPU model and load average. --baseline runs another build's whole
// qr in the same trials (an A/B in one process); --errors prints ||QR - A|| / ||A|| and ||Q^T Q - I|| / sqrt(k).
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
const opt = benchArgs('usage: node tests/bench/qr-stages.mjs [--m 3072] [--n 1024] [--trials 5] ' +
  '[--variant apply,formBlock ...] [--module path/to/tensorpad_bench.js] [--baseline path/to/other/tensorpad_bench.js] [--errors]', {
  m: { type: 'string', default: '3072' },
  n: { type: 'string', default: '1024' },
  trials: { type: 'string', default: '5' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
  baseline: { type: 'string' },
  variant: { type: 'string', multiple: true, default: ['0,0'] },
  errors: { type: 'boolean', default: false },
});
const m = Number(opt.m), n = Number(opt.n), k = Math.min(m, n), trials = Number(opt.trials);
async function load(file) {
  const p = path.resolve(root, file);
  const tp = await require(p)({ wasmBinary: fs.readFileSync(p.replace(/\.js$/, '.wasm')) });
  tp.qrSetup(m, n, 7);
  return tp;
}
const tp = await load(opt.module);
const base = opt.baseline ? await load(opt.baseline) : null;

const variants = opt.variant.map((v) => v.split(',').map(Number));
const cases = {
  'sgemm (m,n,k)': () => tp.qrStage(4, 0, 0),
  'panels gathered': () => tp.qrStage(5, 0, 0),
  'panels in double': () => tp.qrStage(6, 0, 0),
};
for (const [a, f] of variants) {
  const v = `${a},${f}`;
  cases[`${v} factor`] = () => tp.qrStage(1, a, f);
  cases[`${v} factor w/o trailing`] = () => tp.qrStage(2, a, f);
  cases[`${v} form Q`] = () => tp.qrStage(3, a, f); // from the last run's reflectors (same shapes)
  cases[`${v} qr`] = () => tp.qrStage(0, a, f);
}
if (base) cases['baseline qr'] = () => base.qrStage(0, 0, 0);
for (const run of Object.values(cases)) run(); // warm-up
const times = Object.fromEntries(Object.keys(cases).map((c) => [c, []]));
for (let t = 0; t < trials; t++) for (const [name, run] of Object.entries(cases)) times[name].push(cpuSeconds(run));
const med = Object.fromEntries(Object.entries(times).map(([c, a]) => [c, median(a)]));
const range = (c) => `(${Math.min(...times[c]).toFixed(3)}-${Math.max(...times[c]).toFixed(3)})`;
const geqrf = 2 * m * n * k - (2 * k ** 3) / 3; // LAPACK's flop counts: sgeqrf and sorgqr of k columns
const orgqr = 4 * m * k * k - 2 * (m + n) * k * k + (4 * k ** 3) / 3;
const gflops = (f, s) => `${(f / s / 1e9).toFixed(1)} GFLOPS`;
console.log(`qr ${m}x${n} stages, CPU s, median (range) of ${trials} (${os.cpus()[0].model} x${os.cpus().length}, ` +
  `load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
const line = (name, c, g = '') => console.log(`${name.padEnd(40)} ${med[c].toFixed(3)} ${range(c)}  ${g}`);
line('sgemm (m,n,k)', 'sgemm (m,n,k)', gflops(2 * m * n * k, med['sgemm (m,n,k)']));
line('the k/16 panels (m - c0, 16): gathered', 'panels gathered');
line('  factored (householder_qr, a copy each)', 'panels in double');
for (const [a, f] of variants) {
  const v = `${a},${f}`;
  console.log(`variant apply ${a || 'default'}, form Q block ${f || 'default'}:`);
  line('  qr', `${v} qr`, gflops(geqrf + orgqr, med[`${v} qr`]));
  line('    factor', `${v} factor`, gflops(geqrf, med[`${v} factor`]));
  line('      panels and blocks\' own', `${v} factor w/o trailing`);
  console.log(`${'      trailing updates (difference)'.padEnd(40)} ${(med[`${v} factor`] - med[`${v} factor w/o trailing`]).toFixed(3)}`);
  line('    form Q', `${v} form Q`, gflops(orgqr, med[`${v} form Q`]));
}
if (base) {
  line('baseline qr', 'baseline qr', gflops(geqrf + orgqr, med['baseline qr']));
  for (const [a, f] of variants) console.log(`baseline/new qr (${a},${f}): ${(med['baseline qr'] / med[`${a},${f} qr`]).toFixed(3)}`);
}
if (opt.errors) {
  for (const [a, f] of variants) {
    tp.qrStage(0, a, f);
    console.log(`${a},${f}: ||QR - A||/||A|| ${tp.qrErrors(0).toExponential(2)}, ` +
      `||Q^T Q - I||/sqrt(k) ${tp.qrErrors(1).toExponential(2)}`);
  }
}
