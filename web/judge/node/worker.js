// Entry of a judge worker under Node's worker_threads (see core/worker-core.js for what it does).
import { parentPort, workerData } from 'node:worker_threads';
import { startWorker } from '../core/worker-core.js';
import { hardenProcess } from './harden.js';

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
  harden: hardenProcess,   // no process.exit, no raw writes to the terminal (harden.js)
});
