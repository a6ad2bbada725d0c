// A/B of two builds' attention at the model's shape (Qwen3-0.6B: 16 query heads on 8 K/V heads of 128,
// causal, GQA), single thread in Node, in one run: each build's core runs in its own worker_thread
// (TP_WASM_DIR), their calls alternate (A B B A ...) so load from other processes hits both alike. Each trial
// times `reps` calls of tp.nn.scaledDotProductAttention and one f32 GEMM [T, 1024] x [1024, 3072] (the
// forward's typical product) in CPU time (process.cpuUsage; one worker runs at a time), and prints each
// build's median attention seconds, A/B, and attention's GFLOPS (causal flops, 4·heads·d·T(T+1)/2) over the
// GEMM's. Not a test: no thresholds.
//   node tests/bench/model-attention.mjs --a /path/to/build-a [--b build/wasm] [--tokens 512,1024] [--trials 5] [--reps 3]
// A build dir holds node/tensorpad_core.{js,wasm}.
import os from 'node:os';
import path from 'node:path';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { median, cpuSeconds } from './stats.mjs';

const H = 16, KV = 8, D = 128, hidden = 1024, inter = 3072;

if (!isMainThread) {
  const { init } = await import('../../wasm/js/node.js');
  const tp = await init();
  parentPort.on('message', ({ T, reps }) => {
    const q = tp.randn([H, T, D]), k = tp.randn([KV, T, D]), v = tp.randn([KV, T, D]);
    const a = tp.randn([T, hidden]), b = tp.randn([hidden, inter]);
    const attn = () => tp.nn.scaledDotProductAttention(q, k, v, { causal: true, enableGqa: true });
    attn().dispose();  // first touches
    const sec = cpuSeconds(() => { for (let r = 0; r < reps; r++) attn().dispose(); }) / reps;
    const gemm = cpuSeconds(() => tp.matmul(a, b).dispose());
    tp.dispose(q, k, v, a, b);
    parentPort.postMessage({ sec, gemm });
  });
  parentPort.postMessage('ready');
} else {
  const usage = 'node tests/bench/model-attention.mjs --a /path/to/build-a [--b build/wasm] [--tokens 512,1024] [--trials 5] [--reps 3]';
  const args = benchArgs(usage, {
    a: { type: 'string', default: '' }, b: { type: 'string', default: 'build/wasm' }, tokens: { type: 'string', default: '512,1024' },
    trials: { type: 'string', default: '5' }, reps: { type: 'string', default: '3' },
  });
  if (!args.a) throw new Error(`--a <build dir> is required: ${usage}`);
  const dirs = { A: path.resolve(args.a), B: path.resolve(args.b) };
  const trials = Number(args.trials), reps = Number(args.reps);
  console.log(`A: ${dirs.A}\nB: ${dirs.B}\nattention [${H}, T, ${D}] on [${KV}, T, ${D}], causal, ${trials} trials of ${reps} calls each, alternated`);
  console.log(`CPU: ${os.cpus()[0].model} (${os.cpus().length} CPUs), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const workers = {};
  for (const [name, build] of Object.entries(dirs)) {
    const w = new Worker(fileURLToPath(import.meta.url), { env: { ...process.env, TP_WASM_DIR: build } });
    await new Promise((res, rej) => { w.once('message', res); w.once('error', rej); });
    workers[name] = w;
  }
  const run = (name, T) => new Promise((res, rej) => {
    const w = workers[name];
    w.once('error', rej);
    w.once('message', (r) => { w.off('error', rej); res(r); });
    w.postMessage({ T, reps });
  });
  for (const T of args.tokens.split(',').map(Number)) {
    const flops = (4 * H * D * T * (T + 1)) / 2, gemmFlops = 2 * T * hidden * inter;
    await run('A', T);  // warm-up
    await run('B', T);
    const got = { A: [], B: [] };
    for (let t = 0; t < trials; t++)
      for (const name of t % 2 ? ['B', 'A'] : ['A', 'B']) got[name].push(await run(name, T));
    const sec = (n) => median(got[n].map((r) => r.sec));
    const range = (n) => `${Math.min(...got[n].map((r) => r.sec)).toFixed(4)}-${Math.max(...got[n].map((r) => r.sec)).toFixed(4)}`;
    const ratio = (n) => median(got[n].map((r) => (flops / r.sec) / (gemmFlops / r.gemm)));
    console.log(`T ${T}: A ${sec('A').toFixed(4)} s [${range('A')}], B ${sec('B').toFixed(4)} s [${range('B')}], A/B ${(sec('A') / sec('B')).toFixed(3)} (> 1: B faster); ` +
      `attention/GEMM GFLOPS A ${ratio('A').toFixed(2)}, B ${ratio('B').toFixed(2)} (load ${os.loadavg()[0].toFixed(1)})`);
  }
  for (const w of Object.values(workers)) await w.terminate();
}
