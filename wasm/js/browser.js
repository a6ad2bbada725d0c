// Browser (and Web Worker) entry of the tp API: the ES6 core finds its .wasm beside the bundle
// through import.meta.url, with streaming compilation.
// On a crossOriginIsolated page it loads the pthreads core instead (build/wasm/web-mt), whose GEMM
// splits large products over one thread per core (a pool of 2 to 8 workers plus the caller); anything
// that stops it falls back to the single-thread core.
import createTensorpadCore from '../../build/wasm/web/tensorpad_core.js';
import { createApi } from './api.js';

export { TensorpadError } from './errors.js';

// The pthreads core is never bundled: its pool workers import the core script again by URL
// (Emscripten 3.1.6), so it stays a file of its own beside its tensorpad_core.worker.js and .wasm.
// web/build.mjs copies it to dist/mt/ and defines __TP_MT_CORE__ (null when it was not built);
// unbundled, it is in the build tree.
/* global __TP_MT_CORE__ */
const MT_CORE = typeof __TP_MT_CORE__ !== 'undefined' ? __TP_MT_CORE__ : '../../build/wasm/web-mt/tensorpad_core.js';

/** Whether this context may run the pthreads core (shared memory needs cross-origin isolation). */
export const threadsSupported = () => globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';

async function loadThreaded() {
  const { default: create } = await import(new URL(MT_CORE, import.meta.url).href);
  const core = await create({});
  const tp = createApi(core);
  const cores = globalThis.navigator?.hardwareConcurrency || 2;
  tp.setNumThreads(Math.max(1, Math.min(cores, core.maxThreads())));
  return tp;
}

let shared = null;

// Resolves to the tp API. `locateFile` points the single-thread loader at another .wasm URL (and so
// keeps to that core); `threads: false` keeps to the single-thread core as well.
// tp.coreFlavor says which core runs: 'web-mt' (pthreads) or 'web'; tp.threadsFallback why not 'web-mt'.
export function init({ fresh = false, locateFile, threads = true } = {}) {
  const load = async () => {
    let reason = !threads || locateFile ? 'not requested' : !threadsSupported() ? 'page not crossOriginIsolated'
      : !MT_CORE ? 'no pthreads core in this build' : null;
    if (!reason) {
      try {
        const tp = await loadThreaded();
        tp.coreFlavor = 'web-mt';
        return tp;
      } catch (e) {
        reason = `pthreads core failed to load: ${e?.message ?? e}`;
      }
    }
    const tp = createApi(await createTensorpadCore(locateFile ? { locateFile } : {}));
    tp.coreFlavor = 'web';
    tp.threadsFallback = reason;
    return tp;
  };
  if (fresh) return load();
  shared ??= load();
  return shared;
}
