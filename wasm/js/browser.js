// Browser (and Web Worker) entry of the tp API: the ES6 core finds its .wasm beside the bundle
// through import.meta.url, with streaming compilation.
import createTensorpadCore from '../../build/wasm/web/tensorpad_core.js';
import { createApi } from './api.js';

export { TensorpadError } from './errors.js';

let shared = null;

// Resolves to the tp API; `locateFile` may point the loader at another .wasm URL.
export function init({ fresh = false, locateFile } = {}) {
  const load = async () => createApi(await createTensorpadCore(locateFile ? { locateFile } : {}));
  if (fresh) return load();
  shared ??= load();
  return shared;
}
