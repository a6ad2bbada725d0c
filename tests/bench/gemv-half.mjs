// Run after building build/wasm's bench module:
//   `node tests/bench/gemv-half.mjs [--quick] [--rounds N] [--only m1|gemm] [--vocab N] [--module PATH] [--f16-finite]`.
// --f16-finite: float16's W is passed as known to hold no inf or NaN (sgemm_half's b_finite, as a model's
// F16 weights are after loading); a module without that flag runs it as plain float16 (the A of an A/B).
//
// A linear layer (y = x W^T, W (n,k) as a checkpoint stores it) with W in bfloat16 and float16 against
// float32, the single-thread core (issues 23 and 24: each >= 0.9 of float32), for one token (m = 1) and
// for a prefill of T = 512 and 1024 tokens (m = T: sgemm's packed tile, which widens W while packing it).
// A matrix-vector product reads W once, so it is bound by where W lives: a 12 MB float32 W sits in
// the 32 MB L3 when the machine is idle and in DRAM when other processes evict it, which alone moves
// the float32 speed by 3x between runs (the ratio swung 0.37-1.18 in gemm.mjs's 11 trials of 200 ms).
// Hence, per shape:
//   - warm-up calls of every dtype, then many short rounds; each round times float32, bf16 and f16
//     back to back (the order rotating), so a ratio compares calls that saw the same load and cache;
//   - the ratio reported is the median over rounds of the per-round ratio (with its quartiles), from
//     CPU time of this process and from wall time; GFLOPS are medians too;
//   - shapes of Qwen3-0.6B's layers: W from 2 MB (stays in L2/L3) to 12 MB (float32 spills L3 under load),
//     and a 1024 x 96 W that stays in L2 (compute-bound: where float16's widening costs most);
//     at m = T every projection (q, k/v, o, gate/up, down) at T = 512 and 1024, one call per dtype per
//     round (0.1-0.7 s each), fewer rounds;
//   - at m = 1 also the lm_head, 1024 x vocab (--vocab, Qwen3-0.6B's 151,936 by default; 0 leaves it out):
//     622 MB of float32, 311 MB of float16, never cache-resident, so read from DRAM as in generate's decode
//     step, where the 28 layers' weights (1.2 GB in 16 bits) evict each other too: the regime that decides
//     the decode speed, while the rows above show the loops with W hot in the caches.
// Writes tests/bench/results/gemv-half-latest.json. Not a test: no thresholds.
import { WASM_TIER } from './steady-state.mjs';  // first: before any module compiles
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { randomFill, toHalfBits } from './fill.mjs';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const args = benchArgs('node tests/bench/gemv-half.mjs [--quick] [--rounds N] [--only m1|gemm] [--vocab N] [--module build/wasm/bench/tensorpad_bench.js] [--f16-finite]', {
  quick: { type: 'boolean' }, 'f16-finite': { type: 'boolean' }, rounds: { type: 'string' }, only: { type: 'string', default: 'all' },
  vocab: { type: 'string', default: '151936' },
  module: { type: 'string', default: 'build/wasm/bench/tensorpad_bench.js' },
});
const quick = args.quick;
const f16Kind = args['f16-finite'] ? 2 : 1;
const modulePath = path.resolve(root, args.module);
const only = args.only;
const roundsM1 = Number(args.rounds ?? (quick ? 15 : 61));
const roundsGemm = Number(args.rounds ?? (quick ? 3 : 9));
const roundMs = 15;  // per dtype per round at m = 1: short, so that a round sees one machine state

if (!fs.existsSync(modulePath)) throw new Error(`bench module not found at ${modulePath}: cmake --build build/wasm --target tensorpad_bench`);
const M = await require(modulePath)({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });

const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); const i = (s.length - 1) * q, lo = Math.floor(i); return s[lo] + (s[Math.ceil(i)] - s[lo]) * (i - lo); };

// One timed call of fn(reps): wall and this process's CPU milliseconds.
function time(fn, reps) {
  const c0 = process.cpuUsage(), t0 = performance.now();
  fn(reps);
  const wall = performance.now() - t0, c = process.cpuUsage(c0);
  return { wall, cpu: Math.max((c.user + c.system) / 1000, 1e-3) };
}

const projections = [
  { name: 'q_proj', k: 1024, n: 2048 },
  { name: 'k/v_proj', k: 1024, n: 1024 },
  { name: 'o_proj', k: 2048, n: 1024 },
  { name: 'gate/up', k: 1024, n: 3072 },
  { name: 'down_proj', k: 3072, n: 1024 },
];
const label = (m, p) => `${m === 1 ? '' : `T=${m} `}${p.name} ${p.k}->${p.n}`;
// W small enough (384 KB as float32) to stay in L2 under any load: the loops' own speed, which k/v_proj
// shows only on an idle machine (there its 4 MB float32 W stays in L3; under load it is evicted and f32 slows).
const l2Resident = { name: 'W in L2', k: 1024, n: 96 };
const vocab = Number(args.vocab);
if (!Number.isInteger(vocab) || vocab < 0) throw new Error(`--vocab must be a whole number, got ${args.vocab}`);
const lmHead = vocab > 0 ? [{ name: 'lm_head (DRAM)', k: 1024, n: vocab }] : [];
const shapes = [
  ...(only === 'gemm' ? [] : [...[0, 3, 4, 1].map((i) => projections[i]), l2Resident, ...lmHead].map((p) => ({ m: 1, ...p }))),
  ...(only === 'm1' ? [] : [512, 1024].flatMap((m) => projections.map((p) => ({ m, ...p })))),
].map((s) => ({ ...s, label: label(s.m, s) }));
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const loadBefore = os.loadavg();
console.log(`(m,k) x W^T (n,k), W as bf16 / f16 against float32, single thread; ${cpu}, ${os.cpus().length} cores, ` +
  `load average ${loadBefore.map((l) => l.toFixed(2)).join(' ')}; Node ${process.version}` + (f16Kind === 2 ? '; f16 passed as finite' : '') +
  `; WebAssembly: ${WASM_TIER}`);
console.log(`m = 1: ${roundsM1} rounds of ~${roundMs} ms per dtype; m = T: ${roundsGemm} rounds of one call per dtype; dtypes back ` +
  'to back in each round; ratio = median over rounds of f32 CPU time / half CPU time (quartiles in brackets); wall: ratio of the median wall times');
console.log('shape                       | f32 GFLOPS | bf16 GFLOPS | f16 GFLOPS | bf16/f32 cpu [q1-q3]  | f16/f32 cpu [q1-q3]   | bf16/f32 wall | f16/f32 wall');
const results = [];
for (const { label, m, k, n } of shapes) {
  const rounds = m === 1 ? roundsM1 : roundsGemm;
  // Every buffer first, then views of the heap (growing it detaches earlier views): the lm_head's W is
  // filled in place, without a second copy of its 622 MB in JavaScript.
  const x = M.allocFloats(m * k), w32 = M.allocFloats(k * n), y = M.allocFloats(m * n);
  const half = { bf16: M.allocFloats(Math.ceil(k * n / 2)), f16: M.allocFloats(Math.ceil(k * n / 2)) };
  const wf = M.HEAPF32.subarray(w32 / 4, w32 / 4 + k * n);
  randomFill(wf, 2);
  randomFill(M.HEAPF32.subarray(x / 4, x / 4 + m * k), 1);
  for (const kind of ['bf16', 'f16']) new Uint16Array(M.HEAPU8.buffer, half[kind], k * n).set(toHalfBits(wf, kind));
  const fns = {
    f32: (reps) => M.gemm(-1, m, n, k, x, w32, y, false, true, 0, 0, 0, reps),
    bf16: (reps) => M.gemmHalf(0, m, n, k, x, half.bf16, y, false, reps),
    f16: (reps) => M.gemmHalf(f16Kind, m, n, k, x, half.f16, y, false, reps),
  };
  const names = Object.keys(fns);
  // Warm-up (the engine tiers the code up), then reps so one call of f32 takes ~roundMs.
  for (const name of names) for (let i = 0; i < (m === 1 ? 5 : 1); i++) fns[name](1);
  let reps = 1;
  while (m === 1 && time(fns.f32, reps).wall < roundMs / 2 && reps < 1 << 16) reps *= 2;
  const t = Object.fromEntries(names.map((d) => [d, { wall: [], cpu: [] }]));
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const d = names[(r + i) % names.length];
      const s = time(fns[d], reps);
      t[d].wall.push(s.wall);
      t[d].cpu.push(s.cpu);
    }
  }
  const flops = 2 * m * n * k * reps;
  const gflops = (d) => flops / quantile(t[d].cpu, 0.5) / 1e6;
  const ratio = (d, clock) => t.f32[clock].map((f, r) => f / t[d][clock][r]);
  const q = (xs) => ({ median: quantile(xs, 0.5), q1: quantile(xs, 0.25), q3: quantile(xs, 0.75) });
  const row = { shape: label, m, k, n, reps, rounds, gflops_cpu: Object.fromEntries(names.map((d) => [d, gflops(d)])),
    ratio_cpu: { bf16: q(ratio('bf16', 'cpu')), f16: q(ratio('f16', 'cpu')) },
    // Wall time: a call preempted by another process inflates one round's ratio, so the medians' ratio.
    ratio_wall: { bf16: quantile(t.f32.wall, 0.5) / quantile(t.bf16.wall, 0.5), f16: quantile(t.f32.wall, 0.5) / quantile(t.f16.wall, 0.5) } };
  results.push(row);
  const fr = (r) => `${r.median.toFixed(2)} [${r.q1.toFixed(2)}-${r.q3.toFixed(2)}]`.padEnd(21);
  console.log(`${label.padEnd(27)} | ${gflops('f32').toFixed(1).padStart(10)} | ${gflops('bf16').toFixed(1).padStart(11)} | ${gflops('f16').toFixed(1).padStart(10)} | ` +
    `${fr(row.ratio_cpu.bf16)} | ${fr(row.ratio_cpu.f16)} | ${row.ratio_wall.bf16.toFixed(2).padStart(13)} | ${row.ratio_wall.f16.toFixed(2).padStart(12)}`);
  for (const p of [x, w32, y, half.bf16, half.f16]) M.freeFloats(p);
}
const loadAfter = os.loadavg();
console.log(`load average after: ${loadAfter.map((l) => l.toFixed(2)).join(' ')} (goal: bf16/f32 and f16/f32 >= 0.9)`);
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'gemv-half-latest.json'),
  JSON.stringify({ date: new Date().toISOString(), cpu, wasm_tier: WASM_TIER, load_before: loadBefore, load_after: loadAfter, results }, null, 1));
