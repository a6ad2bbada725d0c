// A/B of two builds' model forward in one run, single thread in Node: each build's core runs in its own
// worker_thread (TP_WASM_DIR), both load the same random Qwen3-0.6B-shaped BF16 checkpoint (model.mjs),
// then their forwards alternate (A B B A ...) so load from other processes hits both alike. Prints the
// median wall and CPU seconds of each (CPU: process.cpuUsage around the forward; one worker runs at a
// time, so the process's CPU is that forward's, less exposed to other processes' load than wall time),
// A/B, each op's median ms per layer (model.forward's profile, wall) and the load average.
//   node tests/bench/model-ab.mjs --a /path/to/build-a [--b build/wasm] [--layers 2] [--tokens 1024] [--trials 4]
// A build dir holds node/tensorpad_core.{js,wasm}. Not a test: no thresholds.
import os from 'node:os';
import path from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';
import { median } from './stats.mjs';

if (!isMainThread) {
  const { init } = await import('../../wasm/js/node.js');
  const tp = await init();
  const model = await tp.model.load(workerData.dir);
  parentPort.on('message', async (T) => {
    const ids = Array.from({ length: T }, (_, k) => k % model.config.vocabSize);
    const t0 = performance.now(), u0 = process.cpuUsage();
    const { logits, profile } = await model.forward(ids, { profile: true });
    const ms = performance.now() - t0, u = process.cpuUsage(u0);
    logits.dispose();
    parentPort.postMessage({ ms, cpuMs: (u.user + u.system) / 1000, profile });
  });
  parentPort.postMessage('ready');
} else {
  const usage = 'node tests/bench/model-ab.mjs --a /path/to/build-a [--b build/wasm] [--layers 2] [--tokens 1024] [--trials 4]';
  const args = benchArgs(usage, {
    a: { type: 'string', default: '' }, b: { type: 'string', default: 'build/wasm' }, layers: { type: 'string', default: '2' },
    tokens: { type: 'string', default: '1024' }, trials: { type: 'string', default: '4' },
  });
  const { checkpoint, machine } = await import('./model.mjs');
  const layers = Number(args.layers), T = Number(args.tokens), trials = Number(args.trials);
  const dirs = { A: path.resolve(args.a), B: path.resolve(args.b) };
  if (!args.a) throw new Error(`--a <build dir> is required: ${usage}`);
  const { dir } = checkpoint(layers);
  console.log(`A: ${dirs.A}\nB: ${dirs.B}\n${layers} layers of Qwen3-0.6B's shape, ${T} tokens, ${trials} trials each, alternated`);
  console.log(machine());
  const workers = {};
  for (const [name, build] of Object.entries(dirs)) {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { dir }, env: { ...process.env, TP_WASM_DIR: build } });
    await new Promise((res, rej) => { w.once('message', res); w.once('error', rej); });
    workers[name] = w;
  }
  const run = (name) => new Promise((res, rej) => { workers[name].once('message', res); workers[name].once('error', rej); workers[name].postMessage(T); });
  await run('A');  // warm-up: V8's optimized code, first touches
  await run('B');
  const got = { A: [], B: [] };
  for (let t = 0; t < trials; t++) {
    for (const name of t % 2 ? ['B', 'A'] : ['A', 'B']) {
      const r = await run(name);
      got[name].push(r);
      console.log(`  trial ${t} ${name}: ${(r.ms / 1000).toFixed(2)} s, CPU ${(r.cpuMs / 1000).toFixed(2)} s (load ${os.loadavg()[0].toFixed(1)})`);
    }
  }
  const ms = (name, key = 'ms') => median(got[name].map((r) => r[key]));
  const range = (name) => got[name].map((r) => r.cpuMs / 1000);
  console.log(`median wall: A ${(ms('A') / 1000).toFixed(2)} s, B ${(ms('B') / 1000).toFixed(2)} s, A/B ${(ms('A') / ms('B')).toFixed(3)} (> 1: B faster)`);
  console.log(`median CPU: A ${(ms('A', 'cpuMs') / 1000).toFixed(2)} s [${Math.min(...range('A')).toFixed(2)}-${Math.max(...range('A')).toFixed(2)}], ` +
    `B ${(ms('B', 'cpuMs') / 1000).toFixed(2)} s [${Math.min(...range('B')).toFixed(2)}-${Math.max(...range('B')).toFixed(2)}], A/B ${(ms('A', 'cpuMs') / ms('B', 'cpuMs')).toFixed(3)}`);
  const perOp = (name) => {
    const out = new Map();
    for (const r of got[name]) for (const p of r.profile) (out.get(p.op) ?? out.set(p.op, []).get(p.op)).push(p.ms);
    return new Map([...out].map(([op, v]) => [op, median(v)]));
  };
  const pa = perOp('A'), pb = perOp('B');
  const per = (op) => (['embed', 'final_norm', 'lm_head'].includes(op) ? 1 : layers);
  console.log('op           | A ms/layer | B ms/layer | A/B');
  for (const [op, a] of pa) {
    const b = pb.get(op) ?? NaN;
    console.log(`${op.padEnd(12)} | ${(a / per(op)).toFixed(1).padStart(10)} | ${(b / per(op)).toFixed(1).padStart(10)} | ${(a / b).toFixed(2)}`);
  }
  console.log(machine().replace('CPU', 'after: CPU'));
  for (const w of Object.values(workers)) await w.terminate();
}
