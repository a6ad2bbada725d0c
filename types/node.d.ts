// Generated from wasm/js/api-doc.json by wasm/js/api-types.mjs: edit those, not this file.
import type { Tp } from './tp.js';
export * from './tp.js';

/** Loads the core once per process and resolves to tp; fresh: a core of its own; wasmModule: an already compiled core (see compiledCore). @example import { init } from 'tensorpad'; const tp = await init(); */
export declare function init(opts?: { fresh?: boolean; wasmModule?: WebAssembly.Module; finalizers?: boolean }): Promise<Tp>;
/** The core compiled once, to hand to worker_threads (init({ wasmModule })). @example import { compiledCore } from 'tensorpad'; const m = compiledCore(); */
export declare function compiledCore(): WebAssembly.Module;
/** The error class, for instanceof without a tp. @example import { TensorpadError } from 'tensorpad'; */
export { TensorpadError } from './tp.js';
