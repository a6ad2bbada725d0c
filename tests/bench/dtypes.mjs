// Run: `node tests/bench/dtypes.mjs [--quick] [--baseline BUILD_DIR]` (after `npm run build`).
// The dtype-generic paths beside float32, in one process: add, mul, where, lt (a comparison), sum, amax and
// .to(dtype) on 1M elements of float32, int32, bool, float16 and bfloat16, in GB/s (bytes read + written per
// CPU-second of this process, median of the trials, interleaved across dtypes) and as a ratio to float32's GB/s for the same op. The header names the CPU and
// the load average (other processes share the cores). --baseline DIR runs the float32 rows again on the core
// of another build (e.g. main's build/wasm) in a child process and prints them beside ours: a regression check
// of the float32 paths. Writes tests/bench/results/dtypes-latest.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { init } from 'tensorpad';
import { benchArgs } from './args.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = benchArgs('node tests/bench/dtypes.mjs [--quick] [--baseline BUILD_DIR]', {
  quick: { type: 'boolean' }, baseline: { type: 'string' }, 'f32-only-json': { type: 'boolean' },
});
const quick = args.quick;
const f32Only = args['f32-only-json'];  // the baseline child's mode
const baseline = args.baseline ?? null;
const trials = quick ? 5 : 15;
const N = 1 << 20;
const DTYPES = f32Only ? ['float32'] : ['float32', 'int32', 'bool', 'float16', 'bfloat16'];
const SIZE = { float32: 4, int32: 4, bool: 1, float16: 2, bfloat16: 2 };

// Time of one call in CPU milliseconds of this process (user + system): on a machine shared with other
// processes the wall clock counts their time too, the CPU time only ours. The core runs on one thread.
function cpuMs(fn) {
  const t = process.cpuUsage();
  fn();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

const tp = await init();
const x32 = tp.randn([N], { seed: 1 }), y32 = tp.randn([N], { seed: 2 });
const cond = x32.gt(0);
// Integer operands hold small values so sums and products stay in range; bool ones are x > 0.
const operand = (t, d) => (d === 'bool' ? t.gt(0) : d === 'int32' ? t.mul(100).to('int32') : t.to(d));

// op name -> (dtype, a, b) -> {run, bytes}
const OPS = {
  add: (d, a, b) => ({ run: () => a.add(b).dispose(), bytes: 3 * N * SIZE[d] }),
  mul: (d, a, b) => ({ run: () => a.mul(b).dispose(), bytes: 3 * N * SIZE[d] }),
  where: (d, a, b) => ({ run: () => tp.where(cond, a, b).dispose(), bytes: N + 3 * N * SIZE[d] }),
  lt: (d, a, b) => ({ run: () => a.lt(b).dispose(), bytes: 2 * N * SIZE[d] + N }),
  sum: (d, a) => ({ run: () => a.sum().dispose(), bytes: N * SIZE[d] }),
  amax: (d, a) => ({ run: () => a.amax().dispose(), bytes: N * SIZE[d] }),
  // float32 converts to float16, every other dtype to float32.
  to: (d, a) => {
    const target = d === 'float32' ? 'float16' : 'float32';
    return { run: () => a.to(target).dispose(), bytes: N * (SIZE[d] + SIZE[target]), note: `-> ${target}` };
  },
};

// The trials of one op go round the dtypes in turn, so a change of load while the op runs falls on every
// dtype alike and the ratios stay fair.
const operands = Object.fromEntries(DTYPES.map((d) => [d, [operand(x32, d), operand(y32, d)]]));
const rows = [];
for (const [op, make] of Object.entries(OPS)) {
  const cases = DTYPES.map((d) => {
    try {
      const c = make(d, ...operands[d]);
      c.run();  // warm up (and surface an error once)
      return { d, c, times: [] };
    } catch (e) {
      return { d, error: e.message };
    }
  });
  for (let t = 0; t < trials; t++) for (const k of cases) if (k.c) k.times.push(cpuMs(k.c.run));
  for (const k of cases) {
    const ms = k.c ? median(k.times) : null;
    rows.push({ op, dtype: k.d, gbps: k.c ? k.c.bytes / (Math.max(ms, 1e-3) * 1e6) : null, cpuMs: ms, error: k.error ?? null, note: k.c?.note });
  }
}
for (const [a, b] of Object.values(operands)) tp.dispose(a, b);

if (f32Only) {
  process.stdout.write(JSON.stringify(rows));
  process.exit(0);
}

let base = null;
if (baseline) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--f32-only-json', ...(quick ? ['--quick'] : [])],
    { env: { ...process.env, TP_WASM_DIR: path.resolve(baseline) }, encoding: 'utf8' });
  if (r.status === 0) base = JSON.parse(r.stdout);
  else console.log(`(baseline ${baseline} failed: ${r.stderr.split('\n')[0]})`);
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`dtype paths, ${N} elements, median CPU time of ${trials} (GB/s per CPU-second); ${cpu}, ${os.cpus().length} cores, load average ${load}; Node ${process.version}`);
console.log(`${'op'.padEnd(8)} ${DTYPES.map((d) => `${d} GB/s (x f32)`.padEnd(22)).join(' ')}${base ? ' f32 on baseline' : ''}`);
for (const op of Object.keys(OPS)) {
  const f = rows.find((r) => r.op === op && r.dtype === 'float32');
  const cells = DTYPES.map((d) => {
    const r = rows.find((x) => x.op === op && x.dtype === d);
    if (r.gbps === null) return `error: ${r.error}`.slice(0, 22).padEnd(22);
    const ratio = d === 'float32' ? '' : ` (${(r.gbps / f.gbps).toFixed(2)}x)`;
    return `${r.gbps.toFixed(2)}${ratio}${r.note && d !== 'float32' ? '' : ''}`.padEnd(22);
  });
  const b = base?.find((r) => r.op === op);
  const baseCell = b ? ` ${b.gbps?.toFixed(2) ?? 'error'} (ours ${(f.gbps / b.gbps).toFixed(2)}x)` : '';
  console.log(`${op.padEnd(8)} ${cells.join(' ')}${baseCell}`);
}
console.log('(to: float32 -> float16, the others -> float32; where: bool condition, both branches of the dtype; lt gives bool)');
fs.mkdirSync(path.join(here, 'results'), { recursive: true });
fs.writeFileSync(path.join(here, 'results', 'dtypes-latest.json'),
  JSON.stringify({ date: new Date().toISOString(), cpu, load: os.loadavg(), trials, rows, baseline: base && { dir: baseline, rows: base } }, null, 1));
