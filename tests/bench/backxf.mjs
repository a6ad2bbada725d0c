// Run after building build/wasm's tensorpad_bench: `node tests/bench/backxf.mjs [--quick] [--n 1024] [--parts]`.
//
// The back-transformation of eigh and svd (issue 24): Q C for Q the product of the n - 1 Householder
// reflectors of a tridiagonalization (shift 1; svd's P too) applied to an (n, n) C, as
// linalg::detail::apply_q_blocked runs it, against sgemm (n, n, n) of the same flops (2 n^3) in the same
// run, single thread, trials interleaved so that load from other processes hits both alike. Also
// form_q_blocked (Q itself, from the first columns of I). --parts adds its GEMM shapes one by one with their
// GFLOPS; --sweep tries other block and slab sizes; --baseline path/to/tensorpad_bench.js runs another
// build's apply_q_blocked alongside (an A/B in one run).
// Prints CPU-time medians (the steadier figure on a shared machine), the CPU model and the load average.
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
const args = benchArgs('node tests/bench/backxf.mjs [--quick] [--n 1024] [--module build/wasm/bench/tensorpad_bench.js]\n' +
  '  [--baseline path/to/tensorpad_bench.js] [--sweep] [--parts [--b 48] [--slab 256]]', {
  quick: { type: 'boolean' }, n: { type: 'string', default: '1024' }, module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
  baseline: { type: 'string' }, sweep: { type: 'boolean' }, parts: { type: 'boolean' }, b: { type: 'string', default: '48' },
  slab: { type: 'string', default: '256' },
});
const quick = args.quick;
const n = Number(args.n);
const trials = quick ? 3 : 9;
const modulePath = path.resolve(root, args.module);

const create = require(modulePath);
const tp = await create({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });


// Runs every case once per trial, in turn; returns each case's median CPU seconds.
function interleaved(cases) {
  for (const c of cases) c.run();  // warm-up
  const times = cases.map(() => []);
  for (let t = 0; t < trials; t++) cases.forEach((c, i) => times[i].push(cpuSeconds(c.run)));
  return times.map(median);
}

console.log(`backxf: n = ${n}, ${os.cpus()[0].model}, ${os.cpus().length} CPUs, load ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
tp.backxfSetup(n, n, 1, 7);
const flops = tp.backxfFlops();
const gemmFlops = 2 * n * n * n;
const gf = (f, t) => (f / t / 1e9).toFixed(1);
// Another build of this module (--baseline path/to/tensorpad_bench.js) runs its apply_q_blocked alongside.
const baselinePath = args.baseline ?? null;
const baseline = baselinePath
  ? await require(path.resolve(baselinePath))({ wasmBinary: fs.readFileSync(path.resolve(baselinePath).replace(/\.js$/, '.wasm')) })
  : null;
if (baseline) baseline.backxfSetup(n, n, 1, 7);
const configs = args.sweep
  ? [32, 48, 64, 96].flatMap((block) => [192, 256, 384].map((slab) => ({ block, slab })))
  : [{ block: 0, slab: 0 }];
const cases = [
  { name: `sgemm ${n}^3`, flops: gemmFlops, run: () => tp.backxfRun(2, 1, 0, 0) },
  ...configs.map(({ block, slab }) => ({
    name: `Q C${block ? ` block ${block} slab ${slab}` : ''}`, flops, run: () => tp.backxfRun(0, 1, block, slab),
  })),
  { name: 'Q (form_q_blocked)', flops: null, run: () => tp.backxfRun(1, 1, 0, 0) },
  ...(baseline ? [{ name: 'Q C baseline', flops, run: () => baseline.backxfRun(0, 1) }] : []),
];
const times = interleaved(cases);
const tGemm = times[0];
const result = { n, cpu: os.cpus()[0].model, load: os.loadavg(), flops, cases: {} };
cases.forEach((c, i) => {
  const t = times[i];
  const rel = c.flops ? `  ${gf(c.flops, t)} GFLOPS, time / sgemm of the same flops ${(t / (tGemm * c.flops / gemmFlops)).toFixed(2)}` : '';
  console.log(`${c.name.padEnd(28)} ${t.toFixed(4)} s${rel}`);
  result.cases[c.name] = t;
});
const tApply = times[1];

if (args.parts) {
  // The GEMMs of Q C one shape at a time, as apply_back makes them: per block of b reflectors (rows
  // from r0 = j0 + 1, len = n - r0), V^T V and Y = V (-T) once, then per slab of w columns W = V^T C and
  // C += Y W. Operands stay hot in cache here, unlike in Q C.
  const b = Number(args.b), w = Number(args.slab), slabs = Math.ceil(n / w);
  const parts = { 'V^T V': [], 'Y = V (-T)': [], 'W = V^T C': [], 'C += Y W': [] };
  for (let j0 = 0; j0 < n - 1; j0 += b) {
    const bb = Math.min(b, n - 1 - j0), len = n - 1 - j0;
    parts['V^T V'].push([bb, bb, len, len, 1, 1, len, bb, false]);
    parts['Y = V (-T)'].push([bb, len, bb, 1, bb, len, 1, len, false]);
    for (let s = 0; s < slabs; s++) {
      parts['W = V^T C'].push([bb, w, len, len, 1, 1, n, w, false]);
      parts['C += Y W'].push([w, len, bb, 1, w, len, 1, n, true]);
    }
  }
  const names = Object.keys(parts);
  const ts = interleaved(names.map((k) => ({ run: () => { for (const s of parts[k]) tp.backxfGemm(...s, 1); } })));
  names.forEach((k, i) => {
    const f = parts[k].reduce((s, [m, nn, kk]) => s + 2 * m * nn * kk, 0);
    console.log(`  ${k.padEnd(12)} ${ts[i].toFixed(4)} s  ${gf(f, ts[i])} GFLOPS  (${(ts[i] / tApply * 100).toFixed(0)}% of Q C)`);
    result.cases[k] = ts[i];
  });
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'backxf-latest.json'), JSON.stringify(result, null, 1));
