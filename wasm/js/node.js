// Node entry of the tp API: loads the CommonJS core and hands it the .wasm bytes directly,
// because Emscripten 3.1.6's loader would try to fetch() a file path under Node 20.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApi } from './api.js';

export { TensorpadError } from './errors.js';

// TP_WASM_DIR (a build dir such as build/h1-wasm) loads the core of another build: private builds side by side.
const buildDir = process.env.TP_WASM_DIR
  ? resolve(process.env.TP_WASM_DIR, 'node') + sep
  : fileURLToPath(new URL('../../build/wasm/node/', import.meta.url));
const jsPath = buildDir + 'tensorpad_core.js', wasmPath = buildDir + 'tensorpad_core.wasm';
let shared = null;
let compiled = null;

function checkBuilt() {
  if (!existsSync(jsPath) || !existsSync(wasmPath)) {
    throw new Error(`tensorpad: the WebAssembly core is not built (${jsPath} is missing); run "npm run build"`);
  }
}

// The core compiled once, as a WebAssembly.Module: worker_threads can receive it (workerData or
// postMessage) and pass it to init({wasmModule}), so a process compiles the core once, not per worker.
export function compiledCore() {
  checkBuilt();
  compiled ??= new WebAssembly.Module(readFileSync(wasmPath));
  return compiled;
}

async function load(wasmModule, finalizers) {
  checkBuilt();
  const factory = createRequire(import.meta.url)(jsPath);
  const options = { print: () => {}, printErr: () => {} };
  if (wasmModule) {
    options.instantiateWasm = (imports, done) => {
      WebAssembly.instantiate(wasmModule, imports).then((instance) => done(instance, wasmModule));
      return {};
    };
  } else {
    options.wasmBinary = readFileSync(wasmPath);
  }
  return createApi(await factory(options), { finalizers });
}

// Resolves to the tp API. One core per process unless {fresh: true} asks for another;
// {wasmModule} instantiates an already compiled core (see compiledCore); {finalizers: false}: no
// garbage-collector backstop, tensors are freed by dispose, tidy or the end of the instance (api.js).
export function init({ fresh = false, wasmModule, finalizers = true } = {}) {
  if (fresh || wasmModule || !finalizers) return load(wasmModule, finalizers);
  shared ??= load();
  return shared;
}
