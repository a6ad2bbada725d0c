// Imported first by the benches that time WebAssembly calls in Node, so that they time optimised code.
// V8 runs a module's functions in its baseline tier (Liftoff) at first and swaps in optimised (TurboFan) code
// when a background compile of a hot function finishes; a call already running keeps its baseline code to
// its end. A warm-up call therefore does not guarantee optimised code: gemm.mjs printed GEMM/peak from 0.69
// to 0.99 depending on the build (session 22), and blocks.mjs saw the int8 kernel 3x slow for 9 trials.
// --no-liftoff compiles every function of every module (ours and the peers' alike) with TurboFan up front:
// the steady state a page reaches after its first calls.
import v8 from 'node:v8';

v8.setFlagsFromString('--no-liftoff');

/** How the WebAssembly being timed was compiled, for the benches' headers and JSON. */
export const WASM_TIER = 'TurboFan only (V8 --no-liftoff: steady-state code, no baseline tier)';
