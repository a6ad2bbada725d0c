// Generated from wasm/js/api-doc.json by wasm/js/api-types.mjs: edit those, not this file.
import type { Tp } from './tp.js';
export * from './tp.js';

/** Loads the core (the pthreads one in a crossOriginIsolated page) and resolves to tp; locateFile points at another .wasm URL. @example import { init } from 'tensorpad'; const tp = await init(); */
export declare function init(opts?: { fresh?: boolean; locateFile?: (path: string, prefix: string) => string; threads?: boolean }): Promise<Tp>;
/** Whether this page may run the pthreads core (crossOriginIsolated, SharedArrayBuffer). @example import { threadsSupported } from 'tensorpad'; threadsSupported(); */
export declare function threadsSupported(): boolean;
/** The error class, for instanceof without a tp. @example import { TensorpadError } from 'tensorpad'; */
export { TensorpadError } from './tp.js';
