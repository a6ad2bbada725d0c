// Run after building build/wasm: `node tests/bench/vcpus.mjs [--seconds S]`.
//
// Whether this machine's CPUs add up: the bench module's SIMD peak loop (12 f32x4 mul+add chains, registers
// only, no memory traffic) in one process, then in two processes at once, then one again. On two real cores
// the pair gives 2x one; on SMT siblings or a throttled VM less, and no 2-thread speed-up of compute-bound
// code (GEMM, the model forward) can pass that ratio by much. Then the same for memory: two 64 MB arrays
// copied into each other (far past L3), GB/s read + written: what memory-bound code (m = 1 products,
// elementwise ops) can gain from a second thread. It does not predict the compute-bound forward: at 1024
// tokens that went 1.44x-1.96x on two threads within 20 idle minutes, and gave 1.94x between two memory
// pairs of 1.46x and 1.51x. Prints medians over 200 ms windows.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';

const here = fileURLToPath(import.meta.url);
const args = process.argv.slice(2);  // passed on to the forked children
const seconds = Number(benchArgs('node tests/bench/vcpus.mjs [--seconds 6]', { seconds: { type: 'string', default: '6' } }).seconds);

// GB/s read + written by copying one 64 MB array into another and back (typed-array set: memcpy).
function memoryWindows() {
  const a = new Float64Array(8 << 20), b = new Float64Array(8 << 20).fill(1), windows = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 200) { a.set(b); b.set(a); n += 2; }
    windows.push((2 * a.byteLength * n) / ((performance.now() - t0) * 1e6));
  }
  return windows;
}

if (process.env.TP_VCPUS_CHILD === 'memory') {
  const windows = memoryWindows().sort((x, y) => x - y);
  process.send(windows[windows.length >> 1]);
} else if (process.env.TP_VCPUS_CHILD) {
  const modulePath = path.resolve(path.dirname(here), '../../build/wasm/bench/tensorpad_bench.js');
  const M = await createRequire(here)(modulePath)({ wasmBinary: fs.readFileSync(modulePath.replace(/\.js$/, '.wasm')) });
  const iters = 200000, windows = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 200) { M.simdPeak(iters, 0.999, 0.001); ++n; }
    windows.push((96 * iters * n) / ((performance.now() - t0) * 1e6));
  }
  windows.sort((a, b) => a - b);
  process.send(windows[windows.length >> 1]);
} else {
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  for (const [kind, title, unit] of [['peak', 'SIMD peak loop', 'GFLOPS'], ['memory', 'memory copy (64 MB arrays)', 'GB/s']]) {
    const run = () => new Promise((resolve, reject) => {
      const child = fork(here, args, { env: { ...process.env, TP_VCPUS_CHILD: kind } });
      child.on('message', resolve);
      child.on('exit', (code) => code && reject(new Error(`vcpus: a ${title} process exited with ${code}`)));
    });
    console.log(`${title}, one process then two at once then one; ${os.cpus()[0].model}, ${os.cpus().length} CPUs, load ${load()}`);
    const alone = [await run()];
    const pair = await Promise.all([run(), run()]);
    alone.push(await run());
    const one = (alone[0] + alone[1]) / 2, both = pair[0] + pair[1];
    console.log(`one process: ${alone.map((g) => g.toFixed(1)).join(', ')} ${unit}; two at once: ${pair.map((g) => g.toFixed(1)).join(' + ')} = ${both.toFixed(1)}`);
    console.log(`two processes deliver ${(both / one).toFixed(2)}x one (2.00 on two free cores); load after ${load()}`);
  }
}
