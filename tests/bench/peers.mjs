// The peers the benchmarks measure us against, loaded the same way everywhere.
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// tfjs with its WebAssembly backend (XNNPACK, SIMD) on one thread, its .wasm read from node_modules.
// Resolves to {tf, info}; throws when the backend cannot start.
export async function loadTfjs() {
  const tf = require('@tensorflow/tfjs-core');
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  const dist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  wasm.setWasmPaths(dist + path.sep);
  wasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend failed to initialise');
  await tf.ready();
  const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  const threads = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  const version = require('@tensorflow/tfjs-backend-wasm/package.json').version;
  return { tf, info: { version, simd, threads, binary: simd && !threads ? 'tfjs-backend-wasm-simd.wasm' : 'other' } };
}

// The same, or null (with a note) when tfjs is unavailable, for benches that can run without it.
export async function tryLoadTfjs() {
  try {
    return (await loadTfjs()).tf;
  } catch (e) {
    console.log(`(tfjs-backend-wasm unavailable: ${e.message})`);
    return null;
  }
}
