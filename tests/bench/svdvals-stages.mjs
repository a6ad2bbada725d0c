// Run after building build/wasm's tensorpad_bench: `node tests/bench/svdvals-stages.mjs [--m 3072] [--n 1024]
// [--trials 5] [--module build/wasm/bench/tensorpad_bench.js] [--no-numpy]`.
//
// Where svdvals' time goes (issue 24): svdvals_double on a Gaussian float (m, n), stage by stage
// (bench_svdvals.cpp): the double Gram matrix A^T A, its tridiagonalization, the tridiagonal's eigenvalues
// (implicit QL with rotations, and root-free QL), and the whole call, trials alternated. Single thread,
// CPU seconds (median of the trials) and GFLOPS (Gram m n^2, tridiagonalization 4/3 n^3), with the CPU
// model and load average. Beside them numpy (one BLAS thread) on the same shape: its own route's pieces
// (gesdd without vectors: geqrf alone as qr(mode='r'), then svd of the (n, n) R) and the equivalents of
// ours (A^T A in float64, eigvalsh of it: dsytrd + dsterf), each the median of the trials.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { cpuSeconds, median } from './stats.mjs';
import { describeBlas, runPython } from './numpy.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const args = benchArgs('node tests/bench/svdvals-stages.mjs [--m 3072] [--n 1024] [--trials 5] [--module build/wasm/bench/tensorpad_bench.js] [--no-numpy]', {
  m: { type: 'string', default: '3072' }, n: { type: 'string', default: '1024' }, trials: { type: 'string', default: '5' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' }, 'no-numpy': { type: 'boolean' },
});
const m = Number(args.m), n = Number(args.n), trials = Number(args.trials);
const modulePath = path.resolve(root, args.module);
const create = require(modulePath);
const tp = await create({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });

const names = ['Gram', 'tridiagonalize', 'values (QL)', 'values (root-free)', 'whole svdvals', 'of which rank-2k updates', 'rank-2k one call'];
const flops = [m * n * n, (4 / 3) * n ** 3, 0, 0, 0, (2 / 3) * n ** 3, (2 / 3) * n ** 3];
const times = names.map(() => []);
tp.svdvalsSetup(m, n, 7);
for (let s = 0; s < names.length; s++) tp.svdvalsStage(s); // warm-up
for (let t = 0; t < trials; t++) names.forEach((_, s) => times[s].push(cpuSeconds(() => tp.svdvalsStage(s))));
console.log(`svdvals ${m}x${n} stages, CPU s, median of ${trials} (${os.cpus()[0].model} x${os.cpus().length}, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')})`);
console.log('ours   ' + names.map((nm, i) => {
  const t = median(times[i]);
  return `${nm} ${t.toFixed(3)}${flops[i] ? ` (${(flops[i] / t / 1e9).toFixed(1)} GFLOPS)` : ''}`;
}).join('  '));

if (!args['no-numpy']) {
  const script = `
import sys, time, json
import numpy as np
m, n, trials = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
A = np.random.default_rng(7).standard_normal((m, n)).astype(np.float32)
R = np.linalg.qr(A, mode='r')
A64 = A.astype(np.float64)
G = A64.T @ A64
cases = {
  'qr mode=r (geqrf)': lambda: np.linalg.qr(A, mode='r'),
  'svd of R, no vectors': lambda: np.linalg.svd(R, compute_uv=False),
  'whole svd, no vectors': lambda: np.linalg.svd(A, compute_uv=False),
  'A^T A float64 (dgemm)': lambda: A64.T @ A64,
  'eigvalsh(A^T A) float64': lambda: np.linalg.eigvalsh(G),
}
for f in cases.values(): f()
times = {k: [] for k in cases}
for t in range(trials):
  for k, f in cases.items():
    c0 = time.process_time(); f(); times[k].append(time.process_time() - c0)
print(json.dumps({'times': {k: sorted(v)[len(v) // 2] for k, v in times.items()}, 'blas': blas_info()}))
`;
  const out = JSON.parse(runPython(script, [String(m), String(n), String(trials)]).toString());
  const fl = { 'qr mode=r (geqrf)': 2 * m * n * n - (2 / 3) * n ** 3, 'svd of R, no vectors': (8 / 3) * n ** 3, 'A^T A float64 (dgemm)': 2 * m * n * n, 'eigvalsh(A^T A) float64': (4 / 3) * n ** 3 };
  console.log(`numpy ${out.blas.numpy}, ${describeBlas(out.blas).label}`);
  console.log('numpy  ' + Object.entries(out.times).map(([k, t]) => `${k} ${t.toFixed(3)}${fl[k] ? ` (${(fl[k] / t / 1e9).toFixed(1)} GFLOPS)` : ''}`).join('  '));
}
