// Run after building build/wasm: `node tests/bench/vcpus.mjs [--seconds S]`.
//
// Whether this machine's CPUs add up: the bench module's SIMD peak loop (12 f32x4 mul+add chains, registers
// only, no memory traffic) in one process, then in two processes at once, then one again. On two real cores
// the pair gives 2x one; on SMT siblings or a throttled VM less, and no 2-thread speed-up of compute-bound
// code (GEMM, the model forward) can pass that ratio by much. Then the same for memory: two 64 MB arrays
// copied into each other (far past L3), GB/s read + written: what memory-bound code (m = 1 products,
// elementwise ops) can gain from a second thread. It does not predict the compute-bound forward: at 1024
// tokens that went 1.44x-1.96x on two threads within 20 idle minutes, and gave 1.94x between two memory
// pairs of 1.46x and 1.51x. Prints medians over 200 ms windows. hostPairs() (below) is the same check in
// one line, which the Chromium linalg benches print before and after their runs.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { benchArgs } from './args.mjs';

const here = fileURLToPath(import.meta.url);
// A child's measuring time, from its parent (the CLI's --seconds, or hostPairs' argument).
const seconds = Number(process.env.TP_VCPUS_SECONDS ?? 6);
const kinds = [['peak', 'SIMD peak loop', 'GFLOPS'], ['memory', 'memory copy (64 MB arrays)', 'GB/s']];

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
} else if (process.argv[1] === here) {
  const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const secs = benchArgs('node tests/bench/vcpus.mjs [--seconds 6]', { seconds: { type: 'string', default: '6' } }).seconds;
  for (const [kind, title, unit] of kinds) {
    console.log(`${title}, one process then two at once then one; ${os.cpus()[0].model}, ${os.cpus().length} CPUs, load ${load()}`);
    const { alone, pair, ratio } = await measurePair(kind, Number(secs));
    console.log(`one process: ${alone.map((g) => g.toFixed(1)).join(', ')} ${unit}; two at once: ${pair.map((g) => g.toFixed(1)).join(' + ')} = ${(pair[0] + pair[1]).toFixed(1)}`);
    console.log(`two processes deliver ${ratio.toFixed(2)}x one (2.00 on two free cores); load after ${load()}`);
  }
}

// One process of `kind`, then two at once, then one again: their medians and what the pair gives over one.
async function measurePair(kind, secs) {
  const run = () => new Promise((resolve, reject) => {
    const child = fork(here, [], { env: { ...process.env, TP_VCPUS_CHILD: kind, TP_VCPUS_SECONDS: String(secs) } });
    child.on('message', resolve);
    child.on('exit', (code) => code && reject(new Error(`vcpus: a ${kind} process exited with ${code}`)));
  });
  const alone = [await run()];
  const pair = await Promise.all([run(), run()]);
  alone.push(await run());
  return { alone, pair, ratio: (pair[0] + pair[1]) / ((alone[0] + alone[1]) / 2) };
}

/** What two processes deliver over one, compute (the SIMD peak loop) and memory (64 MB copies), measured for
 * `secs` seconds each: a line for a 2-thread bench to print before and after its runs, so that a run on a host
 * whose second vCPU or memory bandwidth is taken by a neighbour shows as one (2.00x on two free cores). */
export async function hostPairs(secs = 1) {
  try {
    const compute = (await measurePair('peak', secs)).ratio, memory = (await measurePair('memory', secs)).ratio;
    return `host: two processes deliver ${compute.toFixed(2)}x one on compute, ${memory.toFixed(2)}x on memory copies (2.00x on two free cores)`;
  } catch (e) {
    return `host: not measured (${e.message}; the compute check needs build/wasm/bench/tensorpad_bench.js)`;
  }
}
