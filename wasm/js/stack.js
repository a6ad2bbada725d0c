// The core module with every call restoring the WebAssembly stack pointer, however the call ends.
// Why: a JS exception thrown while a call is inside the core (a Proxy or getter that a binding reads
// through embind, a trap) unwinds the WASM frames without their epilogues, so the stack space they
// reserved is never given back (32 bytes per exception: after ~164k of them every call failed with
// "memory access out of bounds"). Saving the stack pointer before the call and restoring it in a
// finally gives it back on every exit path.

// Emscripten's own helpers; wrapping them would make them save and restore around themselves.
const UNWRAPPED = new Set(['stackSave', 'stackRestore', 'stackAlloc']);

// A view of core whose functions restore the stack; every other property (HEAP views, which the
// runtime replaces when memory grows) reads through to core itself. A core without stackSave (a test
// double) is returned as it is.
export function restoringStack(core) {
  const { stackSave, stackRestore } = core;
  if (typeof stackSave !== 'function' || typeof stackRestore !== 'function') return core;
  const out = Object.create(core);
  for (const key of Object.keys(core)) {
    if (typeof core[key] !== 'function' || UNWRAPPED.has(key)) continue;
    // Looked up at each call, as a caller of core itself would.
    out[key] = function restoring(...args) {
      const sp = stackSave();
      try {
        return core[key](...args);
      } finally {
        stackRestore(sp);
      }
    };
  }
  return out;
}
