// Node entry of the tp API: loads the CommonJS core and hands it the .wasm bytes directly,
// because Emscripten 3.1.6's loader would try to fetch() a file path under Node 20.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { createApi } from './api.js';

export { TensorpadError } from './errors.js';

const buildDir = fileURLToPath(new URL('../../build/wasm/node/', import.meta.url));
let shared = null;

async function load() {
  const js = buildDir + 'tensorpad_core.js', wasm = buildDir + 'tensorpad_core.wasm';
  if (!existsSync(js) || !existsSync(wasm)) {
    throw new Error(`tensorpad: the WebAssembly core is not built (${js} is missing); run "npm run build"`);
  }
  const factory = createRequire(import.meta.url)(js);
  const core = await factory({ wasmBinary: readFileSync(wasm), print: () => {}, printErr: () => {} });
  return createApi(core);
}

// Resolves to the tp API. One core per process unless {fresh: true} asks for another.
export function init({ fresh = false } = {}) {
  if (fresh) return load();
  shared ??= load();
  return shared;
}
