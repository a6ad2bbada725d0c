// Entry of a judge worker under Node's worker_threads (see core/worker-core.js for what it does).
import { parentPort, workerData } from 'node:worker_threads';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { startWorker } from '../core/worker-core.js';

// A solution may not end the judge or write to its terminal: process.exit() becomes an error in
// the case that called it, and writes to stdout/stderr become that case's output.
function harden(out, say) {
  process.exit = (code) => {
    throw new Error(say().exitNotAllowed(code ?? ''));
  };
  process.reallyExit = process.exit;
  process.abort = () => { throw new Error(say().abortNotAllowed); };
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = (chunk, ...rest) => {
      out.write(String(chunk).replace(/\n$/, ''));
      const cb = rest.find((r) => typeof r === 'function');
      if (cb) cb();
      return true;
    };
  }
  const writeSync = fs.writeSync;
  fs.writeSync = (fd, buffer, ...rest) => {
    if (fd === 1 || fd === 2) {
      out.write(String(buffer).replace(/\n$/, ''));
      return typeof buffer === 'string' ? Buffer.byteLength(buffer) : buffer.length;
    }
    return writeSync(fd, buffer, ...rest);
  };
  syncBuiltinESMExports();
}

startWorker({
  post: (msg) => parentPort.postMessage(msg),
  listen: (handler) => parentPort.on('message', handler),
  importModule: (url) => import(url),
  initTp: async () => {
    const { init } = await import(workerData?.tpModule ?? 'tensorpad');
    // No FinalizationRegistry in a worker that is torn down after one judgement (see createApi in
    // wasm/js/api.js): the worker's end frees the whole core.
    return init({ ...(workerData?.wasmModule ? { wasmModule: workerData.wasmModule } : {}), finalizers: false });
  },
  harden,
});
