// Run: `node tests/bench/elementwise.mjs [--quick]` (after `npm run build`).
// Memory-bound ops through the public tp API, side by side in one process with tfjs-backend-wasm (SIMD,
// one thread) and a plain JS loop: softmax over the rows of 1024x1024, broadcast add [1024,1024]+[1024],
// exp of 1M values, and the copy of a transposed 1024x1024 view. Prints GB/s (bytes read + written per
// second, median and min-max) and the ratio to tfjs; writes tests/bench/results/elementwise-latest.json.
import { WASM_TIER } from './steady-state.mjs';  // first: before any module compiles
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from 'tensorpad';
import { tryLoadTfjs } from './peers.mjs';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const quick = benchArgs('node tests/bench/elementwise.mjs [--quick]', { quick: { type: 'boolean' } }).quick;
const trials = quick ? 5 : 15;

function measure(fn) {
  fn();  // warm up
  const times = [];
  for (let t = 0; t < trials; t++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[trials >> 1], min: times[0], max: times[trials - 1] };
}

const tp = await init();
const tf = await tryLoadTfjs();
const N = 1024;
const xs = tp.randn([N, N], { seed: 1 }), row = tp.randn([N], { seed: 2 });
const xa = xs.data(), ra = row.data();
const cases = [
  {
    name: 'softmax rows 1024x1024', bytes: 2 * 4 * N * N,
    tp: () => tp.softmax(xs, -1).dispose(),
    tfjs: tf && (() => { const x = tf.tensor2d(xa, [N, N]); return () => tf.softmax(x).dataSync(); })(),
    js: () => {
      const out = new Float32Array(N * N);
      for (let i = 0; i < N; i++) {
        let m = -Infinity, s = 0;
        for (let j = 0; j < N; j++) m = Math.max(m, xa[i * N + j]);
        for (let j = 0; j < N; j++) s += out[i * N + j] = Math.exp(xa[i * N + j] - m);
        for (let j = 0; j < N; j++) out[i * N + j] /= s;
      }
    },
  },
  {
    name: 'add [1024,1024]+[1024]', bytes: 4 * (2 * N * N + N),
    tp: () => xs.add(row).dispose(),
    tfjs: tf && (() => { const x = tf.tensor2d(xa, [N, N]), r = tf.tensor1d(ra); return () => tf.add(x, r).dataSync(); })(),
    js: () => { const out = new Float32Array(N * N); for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) out[i * N + j] = xa[i * N + j] + ra[j]; },
  },
  {
    name: 'exp of 1M values', bytes: 2 * 4 * N * N,
    tp: () => xs.exp().dispose(),
    tfjs: tf && (() => { const x = tf.tensor2d(xa, [N, N]); return () => tf.exp(x).dataSync(); })(),
    js: () => { const out = new Float32Array(N * N); for (let i = 0; i < N * N; i++) out[i] = Math.exp(xa[i]); },
  },
  {
    name: 'copy of a transposed 1024x1024', bytes: 2 * 4 * N * N,
    tp: () => xs.T.contiguous().dispose(),
    tfjs: tf && (() => { const x = tf.tensor2d(xa, [N, N]); return () => tf.transpose(x).dataSync(); })(),
    js: () => { const out = new Float32Array(N * N); for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) out[j * N + i] = xa[i * N + j]; },
  },
];

const gbps = (bytes, ms) => bytes / (ms * 1e6);
const results = [];
console.log(`WebAssembly: ${WASM_TIER}`);
console.log(`${'op'.padEnd(32)} ${'competitor'.padEnd(10)} ${'GB/s median [min - max]'.padEnd(26)} /tfjs`);
for (const c of cases) {
  const rows = [];
  for (const [name, fn] of [['tensorpad', c.tp], ['tfjs-wasm', c.tfjs], ['js-loop', c.js]]) {
    if (!fn) continue;
    const t = measure(fn);
    rows.push({ name, gbps: { median: gbps(c.bytes, t.median), min: gbps(c.bytes, t.max), max: gbps(c.bytes, t.min) }, ms: t });
  }
  const tfjs = rows.find((r) => r.name === 'tfjs-wasm');
  for (const r of rows) {
    r.vs_tfjs = tfjs ? r.gbps.median / tfjs.gbps.median : null;
    const g = r.gbps;
    console.log(`${c.name.padEnd(32)} ${r.name.padEnd(10)} ${`${g.median.toFixed(2)} [${g.min.toFixed(2)} - ${g.max.toFixed(2)}]`.padEnd(26)} ${r.vs_tfjs?.toFixed(2) ?? '-'}`);
  }
  results.push({ op: c.name, bytes: c.bytes, competitors: rows });
}
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'elementwise-latest.json'), JSON.stringify({ date: new Date().toISOString(), wasm_tier: WASM_TIER, trials, results }, null, 1));
