// Run: `npm run bench` (all benches), or after building build/wasm: `node tests/bench/gemm.mjs [--quick] [--variants] [--no-threads] [--module build/wasm/bench/tensorpad_bench.js]`.
//
// GEMM benchmark, one Node process, single thread, side by side:
//   - tensorpad: tp::kernels::sgemm (packed, cache-blocked WASM SIMD), through the bench-only module
//     built from tests/bench/*.cpp with the core's flags;
//   - tfjs-wasm: @tensorflow/tfjs-backend-wasm with its SIMD, non-threaded binary (XNNPACK), loaded
//     from node_modules (no network);
//   - js-naive: a beginner's i-j-k loop over Float32Arrays (small sizes only);
//   - simd-peak: the arithmetic limit, 12 independent f32x4 multiply+add chains built with our flags;
//   - kernel alone: sgemm's micro-kernel and the rotating 4x8 (variants()[1], no broadcasts; every variant's
//     with --variants) on cache-resident packed operands, against the peak: the kernel's own limit, before
//     packing and memory;
//   - 4x8r_k1: the whole product with that rotating tile (every variant with --variants), same blocking;
//   - tp int8 B^T: the int8 kernel of tp.quant.matmulInt8 on the same shape (A and W = B^T in int8);
//   - then, if tensorpad_bench_mt was built, sgemm split over 2 threads (pthreads) against 1 thread;
//   - TP_GEMM_ALT=tile:kc:mc:nc[,...] (environment) adds the whole product with other tiles and blockings to
//     every shape's race, e.g. TP_GEMM_ALT=4x8_k1:384:128:512,4x8r_k1:384:128:256 (tile: a variant's name
//     as --variants prints it, or its index; 0 takes the variant's default): for sweeping on an idle machine.
// The header names the CPU's family, model and L2 from /proc/cpuinfo (Linux): AMD family 25 is Zen 3/4
// (512 KB / 1 MB L2), 26 Zen 5 (1 MB); "AMD EPYC" alone does not say which.
// Prints GFLOPS (median and min-max over trials, wall clock), the ratios to tfjs and to the peak (the
// peak is re-measured within each shape's interleaved trials), the
// module sizes (raw and gzip), and writes tests/bench/results/gemm-<time>.json (+ gemm-latest.json).
// Trials of the competitors are interleaved so that load from other processes hits them alike;
// GFLOPS from process CPU time are recorded too (column "cpu"), as they are steadier on a busy machine.
import { WASM_TIER } from './steady-state.mjs';  // first: before any module compiles
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadTfjs } from './peers.mjs';
import { randomFill, toHalfBits } from './fill.mjs';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);

const args = benchArgs('node tests/bench/gemm.mjs [--quick] [--variants] [--no-threads] [--module build/wasm/bench/tensorpad_bench.js]', {
  quick: { type: 'boolean' }, variants: { type: 'boolean' }, 'no-threads': { type: 'boolean' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
});
const quick = args.quick;
const sweepVariants = args.variants;
const modulePath = path.resolve(root, args.module);

// Time budget per measured trial and number of trials: --quick must finish in under a minute.
const trialMs = quick ? 60 : 200;
const trials = quick ? 5 : 11;

// ---------------------------------------------------------------------------------------------
// Loading the modules

async function loadTensorpad() {
  if (!fs.existsSync(modulePath)) {
    throw new Error(`bench module not found at ${modulePath}: build it with ` +
      '`emcmake cmake -S . -B build/wasm && cmake --build build/wasm -j2 --target tensorpad_bench`');
  }
  const create = require(modulePath);
  // Node 20's Emscripten loader would try to fetch() a file path: hand it the bytes instead.
  const wasmPath = modulePath.replace(/\.js$/, '.wasm');
  return create({ wasmBinary: fs.readFileSync(wasmPath) });
}

function sizeOf(file) {
  if (!fs.existsSync(file)) return null;
  const bytes = fs.readFileSync(file);
  return { file: path.relative(root, file), raw: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
}

// ---------------------------------------------------------------------------------------------
// Measuring

// Runs fn(reps) `trials` times after calibrating reps so one trial takes about trialMs.
// Returns GFLOPS per trial from wall time and from this process's CPU time.
function calibrate(fn, flopsPerRep) {
  fn(1);  // warm-up: first-touch of the buffers (the code is optimised from the start: steady-state.mjs)
  let reps = 1;
  for (;;) {
    const t0 = performance.now();
    fn(reps);
    const dt = performance.now() - t0;
    if (dt > trialMs / 4 || reps > 1 << 20) return Math.max(1, Math.round(reps * trialMs / Math.max(dt, 1e-3)));
    reps *= 4;
  }
}

function timeOnce(fn, reps, flopsPerRep) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn(reps);
  const wall = performance.now() - t0;
  const cu = process.cpuUsage(c0);
  const cpu = (cu.user + cu.system) / 1000;
  return { wall: (flopsPerRep * reps) / wall / 1e6, cpu: (flopsPerRep * reps) / Math.max(cpu, 1e-3) / 1e6 };
}

function summary(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return { median, min: s[0], max: s[s.length - 1] };
}

// Several competitors, each {name, fn(reps), flops}: trials interleaved round-robin.
function race(competitors, nTrials) {
  const reps = competitors.map((c) => calibrate(c.fn, c.flops));
  const wall = competitors.map(() => []);
  const cpu = competitors.map(() => []);
  for (let t = 0; t < nTrials; ++t) {
    competitors.forEach((c, i) => {
      const r = timeOnce(c.fn, reps[i], c.flops);
      wall[i].push(r.wall);
      cpu[i].push(r.cpu);
    });
  }
  return competitors.map((c, i) => ({ name: c.name, reps: reps[i], gflops: summary(wall[i]), cpu_gflops: summary(cpu[i]) }));
}

// ---------------------------------------------------------------------------------------------
// The competitors

function naiveMatmul(a, b, c, m, n, k) {
  for (let i = 0; i < m; ++i) {
    for (let j = 0; j < n; ++j) {
      let s = 0;
      for (let p = 0; p < k; ++p) s += a[i * k + p] * b[p * n + j];
      c[i * n + j] = s;
    }
  }
}

function maxRelDiff(x, y) {
  let num = 0, den = 0;
  for (let i = 0; i < x.length; ++i) {
    num = Math.max(num, Math.abs(x[i] - y[i]));
    den = Math.max(den, Math.abs(y[i]));
  }
  return num / Math.max(den, 1e-30);
}

// The CPU as Linux describes it (family/model/L2 per core), or null elsewhere.
function cpuInfo() {
  try {
    const text = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name) => text.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1];
    return { vendor: field('vendor_id'), family: Number(field('cpu family')), model: Number(field('model')), cache: field('cache size') };
  } catch {
    return null;
  }
}

// TP_GEMM_ALT's entries as {label, variant, kc, mc, nc}.
function alternatives(M) {
  const spec = process.env.TP_GEMM_ALT;
  if (!spec) return [];
  const names = [...Array(M.variantCount()).keys()].map((v) => M.variantName(v).replace(/^f32_gemm_|__wasmsimd$/g, ''));
  return spec.split(',').map((entry) => {
    const [tile, kc = '0', mc = '0', nc = '0'] = entry.split(':');
    const variant = /^\d+$/.test(tile) ? Number(tile) : names.indexOf(tile);
    if (!(variant >= 0 && variant < names.length)) throw new Error(`TP_GEMM_ALT: no tile ${tile} (tiles: ${names.join(', ')})`);
    const sizes = [kc, mc, nc].map(Number);
    if (!sizes.every((x) => Number.isInteger(x) && x >= 0)) throw new Error(`TP_GEMM_ALT: ${entry}: kc, mc, nc must be integers >= 0`);
    return { label: `${names[variant]} ${sizes.join('/')}`, variant, kc: sizes[0], mc: sizes[1], nc: sizes[2] };
  });
}

const fmt = (x, w = 6, d = 1) => (x == null ? '-' : x.toFixed(d)).padStart(w);
const fmtRange = (g) => `${fmt(g.median)}  [${fmt(g.min, 5)} - ${fmt(g.max, 5)}]`;

async function main() {
  const started = Date.now();
  const M = await loadTensorpad();
  const { tf, info: tfInfo } = await loadTfjs();

  console.log(`GEMM benchmark${quick ? ' (--quick)' : ''}: Node ${process.version}, ${os.cpus()[0]?.model ?? '?'}, ` +
    `${os.cpus().length} cpus, load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const cpu = cpuInfo();
  if (cpu) console.log(`cpu: ${cpu.vendor} family ${cpu.family} model ${cpu.model}, cache size ${cpu.cache}`);
  const alts = alternatives(M);
  console.log(`tfjs-backend-wasm ${tfInfo.version}: simd ${tfInfo.simd}, threads ${tfInfo.threads} (${tfInfo.binary})`);
  console.log(`tensorpad kernel: ${M.variantName(0)}; single thread everywhere; GFLOPS = 2*m*n*k / wall time`);
  console.log(`WebAssembly compiled: ${WASM_TIER}\n`);

  // The arithmetic limit: 12 chains x (mul + add) x 4 lanes = 96 flops per iteration.
  // It also runs inside every shape's race, so that its ratios compare trials taken side by side.
  const peakIters = 1 << 20;
  const peakCompetitor = { name: 'simd-peak', flops: 96 * peakIters, fn: (reps) => { for (let r = 0; r < reps; ++r) M.simdPeak(peakIters, 0.999, 0.001); } };
  const [peak] = race([peakCompetitor], trials);
  console.log(`simd-peak (12 f32x4 mul+add chains): ${fmtRange(peak.gflops)} GFLOPS   (cpu-time median ${fmt(peak.cpu_gflops.median)})`);

  // The floor: each micro-kernel alone on packed operands that stay in cache (one A strip in L1, 16 B strips
  // of depth 384 in L2), raced with the peak. Its ratio to the peak is what the kernel itself can reach; the
  // gap from there to sgemm's ratio is what packing and memory cost.
  const kernelAlone = [];
  {
    const kc = 384, strips = 16;
    // Without --variants: sgemm's tile and the rotating 4x8 (variants()[1], the candidate), side by side.
    const probes = (sweepVariants ? [...Array(M.variantCount()).keys()] : [0, 1]).map((v) => {
      const flops = 2 * M.variantTileSize(v) * kc * strips * 64;
      return { name: M.variantName(v), flops, fn: (reps) => M.kernelAlone(v, reps * 64, kc, strips) };
    });
    const measured = race([peakCompetitor, ...probes], trials);
    for (const r of measured.slice(1)) {
      r.vs_peak = r.gflops.median / measured[0].gflops.median;
      r.cpu_vs_peak = r.cpu_gflops.median / measured[0].cpu_gflops.median;
      kernelAlone.push(r);
      console.log(`kernel alone ${r.name.padEnd(28)} ${fmtRange(r.gflops)} GFLOPS  /peak ${fmt(r.vs_peak, 4, 2)} (cpu ${fmt(r.cpu_vs_peak, 4, 2)})`);
    }
    console.log('');
  }

  const shapes = [
    { label: '256^3', m: 256, k: 256, n: 256 },
    { label: '512^3', m: 512, k: 512, n: 512 },
    { label: '1024^3', m: 1024, k: 1024, n: 1024 },
    { label: '512x1024 . 1024x3072', m: 512, k: 1024, n: 3072 },
    // A matrix-vector product (one token through a 1024 -> 3072 layer): bound by reading B, so GB/s
    // of B are recorded too.
    { label: '1x1024 . 1024x3072', m: 1, k: 1024, n: 3072 },
  ];
  const naiveMaxFlops = quick ? 2 * 256 ** 3 : 2 * 512 ** 3;
  const results = [];
  const header = `${'shape'.padEnd(22)} ${'competitor'.padEnd(16)} ${'GFLOPS median [min - max]'.padEnd(30)} ${'cpu'.padStart(6)}  ` +
    `${'/tfjs'.padStart(6)} ${'(cpu)'.padStart(6)} ${'/peak'.padStart(6)} ${'(cpu)'.padStart(6)}`;
  console.log(header);
  console.log('-'.repeat(header.length));

  for (const { label, m, k, n } of shapes) {
    const flops = 2 * m * n * k;
    const aPtr = M.allocFloats(m * k), bPtr = M.allocFloats(k * n), btPtr = M.allocFloats(k * n), cPtr = M.allocFloats(m * n);
    const heap = () => M.HEAPF32;  // re-read: memory growth replaces the view
    const a = new Float32Array(m * k), b = new Float32Array(k * n), bt = new Float32Array(k * n);
    randomFill(a, 1);
    randomFill(b, 2);
    for (let p = 0; p < k; ++p) for (let j = 0; j < n; ++j) bt[j * k + p] = b[p * n + j];
    heap().set(a, aPtr / 4);
    heap().set(b, bPtr / 4);
    heap().set(bt, btPtr / 4);
    const ta = tf.tensor2d(a, [m, k]), tb = tf.tensor2d(b, [k, n]);
    // The same weight W = B^T (n,k) as bfloat16 and float16 bits, as a model file stores it.
    const halfPtr = {};
    for (const kind of ['bf16', 'f16']) {
      halfPtr[kind] = M.allocFloats(Math.ceil(k * n / 2));
      new Uint16Array(M.HEAPU8.buffer, halfPtr[kind], k * n).set(toHalfBits(bt, kind));
    }

    // The same product in int8 (tp.quant.matmulInt8's kernel: A (m,k) and W (n,k) int8, per-row scales),
    // raced against the f32 B^T product of the same shape (issue 24: int8 >= 1.5x f32).
    const i8a = M.allocFloats(Math.ceil(m * k / 4)), i8w = M.allocFloats(Math.ceil(k * n / 4));
    for (const [ptr, count, seed] of [[i8a, m * k, 4], [i8w, k * n, 5]]) {
      const t = new Float32Array(count);
      randomFill(t, seed);
      new Int8Array(M.HEAPU8.buffer, ptr, count).set(t.map((x) => Math.round(x * 255)));
    }

    const competitors = [
      { name: 'tensorpad', flops, fn: (reps) => M.gemm(-1, m, n, k, aPtr, bPtr, cPtr, false, false, 0, 0, 0, reps) },
      // B stored transposed (n,k), as a linear layer's weight: packing reads it in place.
      { name: 'tensorpad B^T', flops, fn: (reps) => M.gemm(-1, m, n, k, aPtr, btPtr, cPtr, false, true, 0, 0, 0, reps) },
      // The same with B^T stored as 16-bit floats, widened while packing (issue 23: >= 0.9 of f32).
      { name: 'tp B^T bf16', flops, fn: (reps) => M.gemmHalf(0, m, n, k, aPtr, halfPtr.bf16, cPtr, false, reps) },
      { name: 'tp B^T f16', flops, fn: (reps) => M.gemmHalf(1, m, n, k, aPtr, halfPtr.f16, cPtr, false, reps) },
      { name: 'tp int8 B^T', flops, fn: (reps) => M.gemmInt8(m, n, k, i8a, i8w, cPtr, reps) },
      // The wasm backend runs synchronously: the product is done when matMul returns.
      { name: 'tfjs-wasm', flops, fn: (reps) => { for (let r = 0; r < reps; ++r) tf.matMul(ta, tb).dispose(); } },
      peakCompetitor,
    ];
    {
      for (let v = 1; v < (sweepVariants ? M.variantCount() : 2); ++v) {
        competitors.push({ name: M.variantName(v).replace(/^f32_gemm_|__wasmsimd$/g, ''), flops,
          fn: (reps) => M.gemm(v, m, n, k, aPtr, bPtr, cPtr, false, false, 0, 0, 0, reps) });
      }
    }
    for (const alt of alts) {
      competitors.push({ name: alt.label, flops,
        fn: (reps) => M.gemm(alt.variant, m, n, k, aPtr, bPtr, cPtr, false, false, alt.kc, alt.mc, alt.nc, reps) });
    }
    if (flops <= naiveMaxFlops) {
      const cNaive = new Float32Array(m * n);
      competitors.push({ name: 'js-naive', flops, fn: (reps) => { for (let r = 0; r < reps; ++r) naiveMatmul(a, b, cNaive, m, n, k); } });
    }
    const nTrials = flops <= naiveMaxFlops ? Math.min(trials, 5) : trials;
    const measured = race(competitors, nTrials);

    // Sanity: tensorpad and tfjs compute the same product.
    M.gemm(-1, m, n, k, aPtr, bPtr, cPtr, false, false, 0, 0, 0, 1);
    const ours = heap().slice(cPtr / 4, cPtr / 4 + m * n);
    const theirs = tf.matMul(ta, tb);
    const diff = maxRelDiff(ours, theirs.dataSync());
    theirs.dispose();
    M.gemm(-1, m, n, k, aPtr, btPtr, cPtr, false, true, 0, 0, 0, 1);
    const diffT = maxRelDiff(heap().slice(cPtr / 4, cPtr / 4 + m * n), ours);
    if (!(diff < 1e-4) || !(diffT < 1e-4)) throw new Error(`${label}: results differ (vs tfjs ${diff}, B^T ${diffT})`);
    for (const [kind, tol] of [['bf16', 3e-2], ['f16', 3e-3]]) {  // the weights' own rounding
      M.gemmHalf(kind === 'bf16' ? 0 : 1, m, n, k, aPtr, halfPtr[kind], cPtr, false, 1);
      const d = maxRelDiff(heap().slice(cPtr / 4, cPtr / 4 + m * n), ours);
      if (!(d < tol)) throw new Error(`${label}: the ${kind} product is off by ${d} (relative)`);
    }

    const tfjs = measured.find((r) => r.name === 'tfjs-wasm');
    const localPeak = measured.find((r) => r.name === 'simd-peak');
    const f32T = measured.find((r) => r.name === 'tensorpad B^T');
    for (const r of measured.filter((r) => / (bf16|f16)$/.test(r.name) || r.name === 'tp int8 B^T')) {
      r.vs_f32 = r.gflops.median / f32T.gflops.median;
      r.cpu_vs_f32 = r.cpu_gflops.median / f32T.cpu_gflops.median;
    }
    for (const r of measured) {
      r.vs_tfjs = r.gflops.median / tfjs.gflops.median;
      r.vs_peak = r.gflops.median / localPeak.gflops.median;
      r.cpu_vs_tfjs = r.cpu_gflops.median / tfjs.cpu_gflops.median;
      r.cpu_vs_peak = r.cpu_gflops.median / localPeak.cpu_gflops.median;
      console.log(`${label.padEnd(22)} ${r.name.padEnd(16)} ${fmtRange(r.gflops).padEnd(30)} ${fmt(r.cpu_gflops.median)}  ` +
        `${fmt(r.vs_tfjs, 6, 2)} ${fmt(r.cpu_vs_tfjs, 6, 2)} ${fmt(r.vs_peak, 6, 2)} ${fmt(r.cpu_vs_peak, 6, 2)}`);
    }
    if (m === 1) {
      for (const r of measured) {  // 2 flops per 4-byte element of B
        r.b_gbytes_per_s = r.gflops.median * 2;
        r.cpu_b_gbytes_per_s = r.cpu_gflops.median * 2;
      }
      const r = measured[0];
      console.log(`${''.padEnd(22)} (matrix-vector, GB/s of B read, wall/cpu: tensorpad ${fmt(r.b_gbytes_per_s, 0)} / ` +
        `${fmt(r.cpu_b_gbytes_per_s, 0)}, tfjs ${fmt(tfjs.b_gbytes_per_s, 0)} / ${fmt(tfjs.cpu_b_gbytes_per_s, 0)})`);
      console.log(`${''.padEnd(22)} (bf16/f16 against f32 here move with where B sits, L3 or DRAM: gemv-half.mjs pairs them round by round)`);
    }
    console.log('');
    results.push({ shape: label, m, k, n, max_rel_diff_vs_tfjs: diff, competitors: measured });
    ta.dispose();
    tb.dispose();
    for (const p of [aPtr, bPtr, btPtr, cPtr, halfPtr.bf16, halfPtr.f16, i8a, i8w]) M.freeFloats(p);
  }

  // The split GEMM on 2 threads: the same entry points built with pthreads (tensorpad_bench_mt), if built.
  // Only wall time means anything here, and only on an otherwise idle machine.
  const threadResults = [];
  const mtPath = modulePath.replace(/tensorpad_bench\.js$/, 'tensorpad_bench_mt.js');
  if (!args['no-threads'] && fs.existsSync(mtPath)) {
    const MT = await require(mtPath)({ wasmBinary: fs.readFileSync(mtPath.replace(/\.js$/, '.wasm')) });
    console.log(`two threads (pthreads build ${path.relative(root, mtPath)}; wall clock, load ${os.loadavg()[0].toFixed(1)}):`);
    for (const { label, m, k, n } of shapes.filter((s) => s.m * s.n * s.k >= 512 ** 3)) {
      const flops = 2 * m * n * k;
      const a = MT.allocFloats(m * k), b = MT.allocFloats(k * n), c1 = MT.allocFloats(m * n), c2 = MT.allocFloats(m * n);
      const fillHeap = (ptr, count, seed) => { const t = new Float32Array(count); randomFill(t, seed); MT.HEAPF32.set(t, ptr / 4); };
      fillHeap(a, m * k, 1);
      fillHeap(b, k * n, 2);
      const run = (threads, c) => (reps) => { MT.setThreads(threads); MT.gemm(-1, m, n, k, a, b, c, false, false, 0, 0, 0, reps); };
      const [one, two] = race([{ name: '1 thread', flops, fn: run(1, c1) }, { name: '2 threads', flops, fn: run(2, c2) }], trials);
      MT.setThreads(1);
      const h = MT.HEAPF32;
      let identical = true;
      for (let i = 0; i < m * n && identical; ++i) identical = h[c1 / 4 + i] === h[c2 / 4 + i];
      const speedup = two.gflops.median / one.gflops.median;
      console.log(`${label.padEnd(22)} 1 thread ${fmtRange(one.gflops)}   2 threads ${fmtRange(two.gflops)}   speedup ${fmt(speedup, 5, 2)}` +
        `   ${identical ? 'identical results' : 'RESULTS DIFFER'}`);
      if (!identical) throw new Error(`${label}: the 2-thread product differs from the 1-thread one`);
      threadResults.push({ shape: label, m, k, n, one_thread: one, two_threads: two, speedup, identical });
      // The bfloat16 weight (W = B^T, (n,k)) on 1 and 2 threads: the same bits, and the same speed-up.
      const w = MT.allocFloats(Math.ceil(k * n / 2));
      { const t = new Float32Array(k * n); randomFill(t, 3); new Uint16Array(MT.HEAPU8.buffer, w, k * n).set(toHalfBits(t, 'bf16')); }
      const runHalf = (threads, c) => (reps) => { MT.setThreads(threads); MT.gemmHalf(0, m, n, k, a, w, c, false, reps); };
      const [hOne, hTwo] = race([{ name: '1 thread', flops, fn: runHalf(1, c1) }, { name: '2 threads', flops, fn: runHalf(2, c2) }], trials);
      MT.setThreads(1);
      const hh = MT.HEAPF32;
      let hIdentical = true;
      for (let i = 0; i < m * n && hIdentical; ++i) hIdentical = hh[c1 / 4 + i] === hh[c2 / 4 + i];
      const hSpeedup = hTwo.gflops.median / hOne.gflops.median;
      console.log(`${(label + ' bf16').padEnd(22)} 1 thread ${fmtRange(hOne.gflops)}   2 threads ${fmtRange(hTwo.gflops)}   speedup ${fmt(hSpeedup, 5, 2)}` +
        `   ${hIdentical ? 'identical results' : 'RESULTS DIFFER'}`);
      if (!hIdentical) throw new Error(`${label}: the 2-thread bf16 product differs from the 1-thread one`);
      threadResults.push({ shape: `${label} bf16`, m, k, n, one_thread: hOne, two_threads: hTwo, speedup: hSpeedup, identical: hIdentical });
      for (const p of [a, b, c1, c2, w]) MT.freeFloats(p);
    }
    console.log('');
  }

  const sizes = {
    bench_module: sizeOf(modulePath.replace(/\.js$/, '.wasm')),
    bench_module_mt: sizeOf(mtPath.replace(/\.js$/, '.wasm')),
    core_module: sizeOf(path.join(path.dirname(modulePath), '..', 'node', 'tensorpad_core.wasm')),
  };
  for (const [name, s] of Object.entries(sizes)) {
    if (s) console.log(`${name.padEnd(13)} ${s.file}: ${(s.raw / 1024).toFixed(1)} KB raw, ${(s.gzip / 1024).toFixed(1)} KB gzip`);
  }

  console.log('');
  const key = (label) => results.find((r) => r.shape === label)?.competitors.find((c) => c.name === 'tensorpad');
  const goals = {};
  for (const clock of ['wall', 'cpu']) {
    const pre = clock === 'cpu' ? 'cpu_' : '';
    goals[clock] = {
      vs_tfjs_1024: key('1024^3')?.[pre + 'vs_tfjs'],
      vs_tfjs_512x1024x3072: key('512x1024 . 1024x3072')?.[pre + 'vs_tfjs'],
      vs_peak_1024: key('1024^3')?.[pre + 'vs_peak'],
      vs_peak_512x1024x3072: key('512x1024 . 1024x3072')?.[pre + 'vs_peak'],
    };
    const g = goals[clock];
    console.log(`goals (${clock.padEnd(4)}): tensorpad/tfjs >= 1.15: 1024^3 ${fmt(g.vs_tfjs_1024, 4, 2)}, 512x1024.1024x3072 ` +
      `${fmt(g.vs_tfjs_512x1024x3072, 4, 2)};  tensorpad/peak >= 0.75: 1024^3 ${fmt(g.vs_peak_1024, 4, 2)}, ` +
      `512x1024.1024x3072 ${fmt(g.vs_peak_512x1024x3072, 4, 2)}`);
  }
  for (const kind of ['bf16', 'f16']) {
    const row = (label) => results.find((r) => r.shape === label)?.competitors.find((c) => c.name === `tp B^T ${kind}`);
    const at = (label, key) => fmt(row(label)?.[key], 4, 2);
    goals[`${kind}_vs_f32`] = Object.fromEntries(results.map((r) => [r.shape, { wall: row(r.shape)?.vs_f32, cpu: row(r.shape)?.cpu_vs_f32 }]));
    console.log(`goals: ${kind} weight / f32 weight (both B^T) >= 0.9: 512x1024.1024x3072 ${at('512x1024 . 1024x3072', 'vs_f32')} ` +
      `(cpu ${at('512x1024 . 1024x3072', 'cpu_vs_f32')}), 1024^3 ${at('1024^3', 'vs_f32')} (cpu ${at('1024^3', 'cpu_vs_f32')}), ` +
      `1x1024.1024x3072 ${at('1x1024 . 1024x3072', 'vs_f32')} (cpu ${at('1x1024 . 1024x3072', 'cpu_vs_f32')})`);
  }
  {
    const row = (label) => results.find((r) => r.shape === label)?.competitors.find((c) => c.name === 'tp int8 B^T');
    const at = (label, key) => fmt(row(label)?.[key], 4, 2);
    goals.int8_vs_f32 = Object.fromEntries(results.map((r) => [r.shape, { wall: row(r.shape)?.vs_f32, cpu: row(r.shape)?.cpu_vs_f32 }]));
    console.log(`goals: int8 / f32 (both B^T) >= 1.5: 512x1024.1024x3072 ${at('512x1024 . 1024x3072', 'vs_f32')} ` +
      `(cpu ${at('512x1024 . 1024x3072', 'cpu_vs_f32')}), 1024^3 ${at('1024^3', 'vs_f32')} (cpu ${at('1024^3', 'cpu_vs_f32')})`);
  }
  const t1024 = threadResults.find((r) => r.shape === '1024^3');
  if (t1024) {
    goals.threads_speedup_1024 = t1024.speedup;
    console.log(`goals (wall): 2-thread speedup >= 1.7 on 1024^3: ${fmt(t1024.speedup, 4, 2)} (meaningful on an idle machine only)`);
  }
  const load = os.loadavg()[0];
  if (load > 1.5) {
    console.log(`note: load average ${load.toFixed(1)} on ${os.cpus().length} cpus while measuring; wall-clock figures ` +
      'include time stolen by other processes, the cpu columns (this process\'s CPU time) are the steadier comparison');
  }

  const out = {
    benchmark: 'gemm', date: new Date().toISOString(), quick, seconds: (Date.now() - started) / 1000,
    node: process.version, cpu: os.cpus()[0]?.model, cpu_id: cpu, alternatives: alts, cpus: os.cpus().length, loadavg: os.loadavg(),
    tfjs: tfInfo, wasm_tier: WASM_TIER, kernel: M.variantName(0), trial_ms: trialMs, trials,
    peak, kernel_alone: kernelAlone, results, threads: threadResults, sizes, goals,
  };
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = out.date.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(dir, `gemm-${stamp}.json`), JSON.stringify(out, null, 2));
  fs.writeFileSync(path.join(dir, 'gemm-latest.json'), JSON.stringify(out, null, 2));
  console.log(`wrote ${path.relative(root, path.join(dir, `gemm-${stamp}.json`))} (${out.seconds.toFixed(1)} s)`);
  process.exit(0);  // the pthreads module's worker would keep Node alive
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
