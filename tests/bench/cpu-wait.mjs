// Where a thread's wall time goes when it is not on a CPU (Linux): a worker thread samples, every 10 ms, the
// scheduler's counters of every thread of a process tree (/proc/PID/task/TID/schedstat: ns run on a CPU, ns
// spent runnable but waiting for one) and the machine's busy time (/proc/stat), stamped on CLOCK_MONOTONIC,
// the clock of Chromium's trace timestamps. window(from, to) then says, for a trace slice, how long a thread
// waited for a CPU and who had the CPUs meanwhile: the tree's other threads, or other processes.
// Elsewhere (no /proc) start() returns null and callers print no such figures.
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

const PERIOD_MS = 10;

// The sampler, run in a worker thread so that the page's driver (Playwright) is not held up by its reads.
const samplerSource = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const { root, period } = workerData;
const samples = [];
let pids = [];
let lastScan = 0;
// The processes descended from root (the browser and its renderers, GPU and utility processes).
function scan() {
  const parent = new Map();
  for (const p of fs.readdirSync('/proc')) {
    if (!/^\\d+$/.test(p)) continue;
    try { const s = fs.readFileSync('/proc/' + p + '/stat', 'utf8'); parent.set(+p, +s.slice(s.lastIndexOf(')') + 2).split(' ')[1]); } catch {}
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) { grew = false; for (const [p, pp] of parent) if (!tree.has(p) && tree.has(pp)) { tree.add(p); grew = true; } }
  tree.delete(root);
  pids = [...tree];
}
function sample() {
  const t = Number(process.hrtime.bigint() / 1000n);
  if (t - lastScan > 100e3) { scan(); lastScan = t; }
  // Jiffies (10 ms) of each CPU: busy = user + nice + system + irq + softirq; steal = time the host ran others.
  let busy = 0, steal = 0;
  for (const l of fs.readFileSync('/proc/stat', 'utf8').split('\\n')) {
    if (!/^cpu\\d/.test(l)) continue;
    const f = l.trim().split(/\\s+/).slice(1).map(Number);
    busy += f[0] + f[1] + f[2] + f[5] + f[6];
    steal += f[7] || 0;
  }
  const threads = [];
  for (const p of pids) {
    let tasks;
    try { tasks = fs.readdirSync('/proc/' + p + '/task'); } catch { continue; }
    for (const tid of tasks) {
      try { const [run, wait] = fs.readFileSync('/proc/' + p + '/task/' + tid + '/schedstat', 'utf8').split(' '); threads.push([p, +tid, +run, +wait]); } catch {}
    }
  }
  samples.push({ t, busy: busy * 10, steal: steal * 10, threads });
  // Two minutes of samples at most.
  if (samples.length > 12000) samples.splice(0, samples.length - 12000);
}
parentPort.on('message', ({ from, to }) => {
  const lo = samples.findLastIndex((s) => s.t <= from);
  const hi = samples.findIndex((s) => s.t >= to);
  parentPort.postMessage(lo < 0 || hi < 0 ? null : [samples[lo], samples[hi]]);
});
setInterval(sample, period);
sample();
`;

/** Starts sampling the process tree under `root` (default: this process); null where /proc has no schedstat. */
export function start(root = process.pid) {
  if (!fs.existsSync(`/proc/${process.pid}/task/${process.pid}/schedstat`)) return null;
  const worker = new Worker(samplerSource, { eval: true, workerData: { root, period: PERIOD_MS } });
  worker.unref();
  let pending = Promise.resolve();
  return {
    /**
     * For a slice [from, to] (µs, CLOCK_MONOTONIC, e.g. a trace event's ts and ts + dur) of thread `tid` in the
     * tree: ms the thread ran and waited for a CPU, ms the other threads of its process ran (`process`), ms the
     * tree's other processes ran (`tree`), ms the rest of the machine ran (`others`, from 10 ms jiffies), ms the
     * host took (steal), over the samples around the slice (up to a period wider each side).
     * Resolves null if the samples do not cover it (yet: it waits a period for the one after `to`).
     */
    window(tid, from, to) {
      const ask = async () => {
        await new Promise((r) => setTimeout(r, 2 * PERIOD_MS));
        const got = await new Promise((resolve) => { worker.once('message', resolve); worker.postMessage({ from, to }); });
        if (!got) return null;
        const [a, b] = got;
        const before = new Map(a.threads.map((r) => [r[1], r]));
        const pid = b.threads.find((r) => r[1] === tid)?.[0];
        let ran = 0, waited = 0, process = 0, tree = 0;
        for (const r of b.threads) {
          const s = before.get(r[1]);
          if (!s) continue;
          const run = (r[2] - s[2]) / 1e6;
          if (r[1] === tid) { ran = run; waited = (r[3] - s[3]) / 1e6; } else if (r[0] === pid) process += run; else tree += run;
        }
        return { span: (b.t - a.t) / 1000, ran, waited, process, tree, others: Math.max(0, b.busy - a.busy - ran - process - tree), steal: b.steal - a.steal };
      };
      pending = pending.then(ask, ask);
      return pending;
    },
    stop: () => worker.terminate(),
  };
}
