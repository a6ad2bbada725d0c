// The CLI's sandbox for a learner's code: one child process per solution (sandbox-host.js), in its own
// process group, under Node's permission model. What it protects against is listed in web/judge/README.md
// ("How it isolates a solution"); in short:
//   - reads: only the judge's shared code, the tp API, its WebAssembly core and acorn (never exercises/,
//     a --cases folder, or other submissions); the solution's file and the files it imports (imports.js), one by one
//   - no writes, no child processes, no worker threads, no network (see sandbox-host.js)
//   - time: the judge's limits kill the whole process group, so nothing it started outlives the verdict
//   - memory: V8's heap limit, plus the process's resident size polled against rssMb (WebAssembly and
//     other off-heap buffers count there)
//   sandboxSpawn({ memoryMb, rssMb, files }) → WorkerHandle (see core/judge.js)

import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, resolve, join } from 'node:path';

const HOST = fileURLToPath(new URL('./sandbox-host.js', import.meta.url));
const ROOT = resolve(dirname(HOST), '../../..');
const POLL_MS = 50;
// acorn's folder, wherever npm put it (beside tensorpad when tensorpad is itself installed as a package)
const ACORN = dirname(dirname(fileURLToPath(import.meta.resolve('acorn'))));
const live = new Set();

// Whatever happens to the judge, no sandbox outlives it.
process.once('exit', () => { for (const pid of live) killGroup(pid); });

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');   // the group: whatever the solution started goes too
  } catch {
    try {
      process.kill(pid, 'SIGKILL');  // where there are no process groups (Windows), the sandbox itself
    } catch {
      // already gone
    }
  }
  live.delete(pid);
}

function readable(files) {
  const wasmDir = process.env.TP_WASM_DIR ? resolve(process.env.TP_WASM_DIR, 'node') : join(ROOT, 'build/wasm/node');
  const paths = [join(ROOT, 'package.json'), join(ROOT, 'wasm/js/*'), join(wasmDir, '*'), join(ROOT, 'web/judge/core/*'),
    HOST, join(dirname(HOST), 'harden.js'), join(ROOT, 'web/runtime/*'), join(ACORN, '*')];
  // the solution and the helpers it imports, file by file: never a folder (in a flat layout of submissions
  // the folder holds the other students' files)
  return paths.concat(files.map((f) => resolve(f)));
}

// Resident memory of a process in MB (Linux), or null where /proc cannot say.
function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export function sandboxSpawn({ memoryMb = 256, rssMb: rssLimit = memoryMb + 512, files = [] } = {}) {
  const child = fork(HOST, [], {
    // one flag per path: Node 20 reads a comma in the value as part of the path
    execArgv: ['--experimental-permission', ...readable(files).map((p) => `--allow-fs-read=${p}`),
      `--max-old-space-size=${memoryMb}`, '--stack-size=4000', '--no-warnings'],
    env: process.env.TP_WASM_DIR ? { TP_WASM_DIR: process.env.TP_WASM_DIR } : {},
    cwd: ROOT,
    detached: true,                      // its own process group, killed as one
    serialization: 'advanced',           // typed arrays and nested data, as worker_threads carry them
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  live.add(child.pid);
  let exited = false;
  let stderrTail = '';
  let overMemory = 0;
  const exitHandlers = [];
  child.stdout.resume();
  // TP_SANDBOX_DEBUG=1 shows what the sandbox writes to stderr (Node's own errors, before the solution loads)
  child.stderr.on('data', (d) => { stderrTail = (stderrTail + d).slice(-4000); if (process.env.TP_SANDBOX_DEBUG) process.stderr.write(d); });
  const poll = setInterval(() => {
    const mb = rssMb(child.pid);
    if (mb !== null && mb > rssLimit) {
      overMemory = mb;   // the resident size that crossed the limit, for the message
      killGroup(child.pid);
    }
  }, POLL_MS);
  poll.unref();
  const finish = (code, signal) => {
    if (exited) return;
    exited = true;
    clearInterval(poll);
    killGroup(child.pid);
    // which limit was hit, and the value measured: the resident size polled, or V8's last heap size before
    // it gave up ("Mark-Compact 255.1 (258.3) -> 254.9 (258.3) MB" in its report), so the message says so
    let error = null;
    if (overMemory) {
      error = Object.assign(new Error('memory limit'), { code: 'ERR_WORKER_OUT_OF_MEMORY', what: 'rss', limitMb: rssLimit, measuredMb: overMemory });
    } else if (/heap out of memory|Allocation failed/.test(stderrTail)) {
      const gcs = [...stderrTail.matchAll(/(?:Mark-Compact|Scavenge|Mark-sweep)[^\n]*?([\d.]+) \([\d.]+\) MB/g)];
      const heap = gcs.length ? Number(gcs[gcs.length - 1][1]) : null;
      error = Object.assign(new Error('memory limit'), { code: 'ERR_WORKER_OUT_OF_MEMORY', what: 'heap', limitMb: memoryMb, measuredMb: heap });
    } else if (signal) {
      error = new Error(`ended by ${signal}`);
    }
    for (const h of exitHandlers) h({ code: code ?? 1, error });
  };
  child.on('exit', finish);
  child.on('error', (err) => { if (!exited) { for (const h of exitHandlers) h({ code: 1, error: err }); exited = true; killGroup(child.pid); } });
  return {
    post: (msg) => { if (!exited && child.connected) child.send(msg); },
    onMessage: (fn) => child.on('message', fn),
    onExit: (fn) => exitHandlers.push(fn),
    terminate: () => {
      if (exited) return;
      exited = true;
      exitHandlers.length = 0;
      clearInterval(poll);
      killGroup(child.pid);
      if (child.connected) child.disconnect();
    },
  };
}
