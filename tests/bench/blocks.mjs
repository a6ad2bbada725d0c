// Run: build the WASM core (`npm run build`), then `node tests/bench/blocks.mjs [--quick]`.
//
// LLM blocks benchmark through the public tp API (wasm/js/node.js), one Node process, single thread:
//   1. attention forward, n = 1024, d = 128, causal: tp.nn.scaledDotProductAttention (fused, tiled,
//      never forms the n x n matrix) against the composition softmax(QKᵀ/√d + M)·V written with tp's own
//      primitives, with tfjs-backend-wasm (SIMD, 1 thread) and with numpy (float32, its BLAS pinned to 1 thread
//      and named in the output: numpy.mjs);
//   2. tp.linalg.fwht against the dense product x @ H at d = 1024 and 4096 (256 rows);
//   3. tp.quant.matmulInt8 (int8 x int8 -> int32 with i32x4.dot_i16x8) against tp.matmul in f32 at
//      512x1024x3072 (x Wᵀ, the linear-layer layout), and with the activation quantization included.
// Prints medians (and min) in ms over interleaved trials; writes tests/bench/results/blocks-latest.json.
// Steady state is measured (steady-state.mjs: optimised code up front, for tensorpad and tfjs alike).
import './steady-state.mjs';  // first: before any module compiles
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';
import { tryLoadTfjs } from './peers.mjs';
import { describeBlas, runPython } from './numpy.mjs';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const quick = benchArgs('node tests/bench/blocks.mjs [--quick]', { quick: { type: 'boolean' } }).quick;
const trials = quick ? 3 : 7;

// Interleaved trials of several competitors {name, run()}; returns {name: {median, min, cpu}} in ms,
// cpu being the median of this process's CPU time (steadier than wall time on a busy machine).
function race(competitors) {
  for (const c of competitors) c.run();  // warm-up
  const times = competitors.map(() => []);
  const cpus = competitors.map(() => []);
  for (let t = 0; t < trials; t++) {
    competitors.forEach((c, i) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      c.run();
      times[i].push(performance.now() - t0);
      const cu = process.cpuUsage(c0);
      cpus[i].push((cu.user + cu.system) / 1000);
    });
  }
  const out = {};
  competitors.forEach((c, i) => {
    const s = times[i].sort((a, b) => a - b);
    const u = cpus[i].sort((a, b) => a - b);
    out[c.name] = { median: s[s.length >> 1], min: s[0], cpu: u[u.length >> 1] };
  });
  return out;
}

// numpy's composition, timed inside Python (float32; BLAS limited to one thread like everyone else):
// {median, min, blas} with the BLAS that process ran on (describeBlas), or null without numpy.
function numpyAttention(n, d) {
  const script = `
import time, numpy as np
n, d, trials = ${n}, ${d}, ${trials}
rng = np.random.default_rng(0)
q, k, v = (rng.standard_normal((n, d)).astype(np.float32) for _ in range(3))
mask = np.triu(np.full((n, n), -np.inf, dtype=np.float32), 1)
def attn():
    s = q @ k.T * np.float32(1 / np.sqrt(d)) + mask
    s = np.exp(s - s.max(-1, keepdims=True))
    return (s / s.sum(-1, keepdims=True)) @ v
attn()
ts = []
for _ in range(trials):
    t0 = time.perf_counter(); attn(); ts.append((time.perf_counter() - t0) * 1e3)
ts.sort()
import json
print(json.dumps({"median": ts[len(ts) // 2], "min": ts[0], "blas": blas_info()}))`;
  try {
    const { median, min, blas } = JSON.parse(runPython(script, [], { encoding: 'utf8' }));
    return { median, min, blas: describeBlas(blas) };
  } catch (e) {
    console.log(`(numpy unavailable: ${e.message.split('\n')[0]})`);
    return null;
  }
}

const fmt = (r) => (r ? `${r.median.toFixed(1).padStart(8)} ms  (min ${r.min.toFixed(1).padStart(6)}${r.cpu === undefined ? '' : `, cpu ${r.cpu.toFixed(1).padStart(6)}`})` : '       -');

async function main() {
  const tp = await init();
  const tf = await tryLoadTfjs();
  const started = Date.now();
  console.log(`LLM blocks benchmark${quick ? ' (--quick)' : ''}: Node ${process.version}, ${os.cpus()[0]?.model ?? '?'}, ` +
    `load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; single thread; median of ${trials} trials\n`);
  const results = {};

  // ---- 1. attention ----
  {
    const n = 1024, d = 128;
    const Q = tp.randn([n, d], { seed: 1 }), K = tp.randn([n, d], { seed: 2 }), V = tp.randn([n, d], { seed: 3 });
    const maskValues = new Float32Array(n * n);
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) maskValues[i * n + j] = -Infinity;
    const M = tp.tensor(maskValues, { shape: [n, n] });
    const scale = 1 / Math.sqrt(d);
    const composed = () => tp.tidy(() => tp.softmax(Q.matmul(K.T).mul(scale).add(M), -1).matmul(V));
    const fused = () => tp.nn.scaledDotProductAttention(Q, K, V, { causal: true });
    // Same answer before timing anything.
    const a = fused(), b = composed();
    const diff = tp.sub(a, b).abs().amax().item();
    a.dispose();
    b.dispose();
    if (!(diff < 1e-4)) throw new Error(`attention: fused and composed differ by ${diff}`);
    const competitors = [
      { name: 'tensorpad fused', run: () => fused().dispose() },
      { name: 'tensorpad primitives', run: () => composed().dispose() },
    ];
    let tq, tk, tv, tm;
    if (tf) {
      tq = tf.tensor2d(Q.data(), [n, d]); tk = tf.tensor2d(K.data(), [n, d]); tv = tf.tensor2d(V.data(), [n, d]);
      tm = tf.tensor2d(maskValues, [n, n]);
      competitors.push({ name: 'tfjs-wasm primitives', run: () => tf.tidy(() => tf.matMul(tf.softmax(tf.add(tf.mul(tf.matMul(tq, tk, false, true), scale), tm)), tv).dataSync()) });
    }
    const r = race(competitors);
    const np = numpyAttention(n, d);
    if (np) r[np.blas.optimized ? 'numpy primitives' : 'numpy (unoptimized BLAS)'] = { median: np.median, min: np.min };
    console.log(`attention forward, n = ${n}, d = ${d}, causal (max |fused - composed| = ${diff.toExponential(1)})`);
    if (np) console.log(`  numpy ${np.blas.numpy} BLAS: ${np.blas.label}`);
    for (const [name, t] of Object.entries(r)) console.log(`  ${name.padEnd(24)} ${fmt(t)}`);
    results.attention = { n, d, causal: true, max_abs_diff: diff, ms: r, numpy_blas: np?.blas ?? null };
    tp.dispose(Q, K, V, M);
    if (tf) tf.dispose([tq, tk, tv, tm]);
  }

  // ---- 2. fwht vs dense Hadamard ----
  results.fwht = [];
  for (const d of [1024, 4096]) {
    const rows = 256;
    const X = tp.randn([rows, d], { seed: 4 }), H = tp.linalg.hadamard(d);
    const r = race([
      { name: 'fwht', run: () => tp.linalg.fwht(X).dispose() },
      { name: 'dense x @ H', run: () => X.matmul(H).dispose() },
    ]);
    const speedup = r['dense x @ H'].median / r.fwht.median;
    console.log(`\nfwht vs dense Hadamard, ${rows} rows, d = ${d}: speedup ${speedup.toFixed(0)}x`);
    for (const [name, t] of Object.entries(r)) console.log(`  ${name.padEnd(24)} ${fmt(t)}`);
    results.fwht.push({ d, rows, ms: r, speedup });
    tp.dispose(X, H);
  }

  // ---- 3. int8 vs f32 ----
  {
    const m = 512, k = 1024, n = 3072;
    const X = tp.randn([m, k], { seed: 5 }), W = tp.randn([n, k], { seed: 6 });
    const qx = tp.quant.quantize(X, { perRow: true }), qw = tp.quant.quantize(W, { perRow: true });
    const WT = W.T;
    const r = race([
      { name: 'f32 tp.matmul(X, W.T)', run: () => tp.matmul(X, WT).dispose() },
      { name: 'int8 matmulInt8', run: () => tp.quant.matmulInt8(qx, qw).dispose() },
      { name: 'int8 incl. quantize(X)', run: () => { const q = tp.quant.quantize(X, { perRow: true }); tp.quant.matmulInt8(q, qw).dispose(); q.dispose(); } },
    ]);
    const speedup = r['f32 tp.matmul(X, W.T)'].median / r['int8 matmulInt8'].median;
    const speedupCpu = r['f32 tp.matmul(X, W.T)'].cpu / r['int8 matmulInt8'].cpu;
    const gops = (t) => (2 * m * n * k / t.median / 1e6).toFixed(1);
    console.log(`\nint8 vs f32 GEMM, ${m}x${k} · (${n}x${k})ᵀ: int8 speedup ${speedup.toFixed(2)}x wall, ${speedupCpu.toFixed(2)}x cpu (goal >= 1.5x)`);
    for (const [name, t] of Object.entries(r)) console.log(`  ${name.padEnd(24)} ${fmt(t)}   ${gops(t)} G(FL)OP/s`);
    const relErr = tp.tidy(() => tp.quant.relError(tp.quant.matmulInt8(qx, qw), tp.matmul(X, WT)));
    console.log(`  W8A8 per-row relative error vs f32: ${relErr.toExponential(2)}`);
    results.int8 = { m, k, n, ms: r, speedup, speedup_cpu: speedupCpu, goal: 1.5, rel_error: relErr };
    qx.dispose();
    qw.dispose();
    tp.dispose(X, W, WT);
  }

  const out = { benchmark: 'blocks', date: new Date().toISOString(), quick, trials, node: process.version,
    cpu: os.cpus()[0]?.model, loadavg: os.loadavg(), seconds: (Date.now() - started) / 1000, results };
  const dir = path.join(here, 'results');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'blocks-latest.json'), JSON.stringify(out, null, 2));
  console.log(`\nwrote ${path.relative(root, path.join(dir, 'blocks-latest.json'))} (${out.seconds.toFixed(1)} s)`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
