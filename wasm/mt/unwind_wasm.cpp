// The WebAssembly exception unwinder (Emscripten's libunwind/src/Unwind-wasm.c) for the pthreads core,
// with its landing-pad context as an ordinary global instead of a thread_local one.
// Why: Emscripten 3.1.6's libunwind defines __wasm_lpad_context thread_local, but clang 14 emits the
// landing pads' accesses to it as to an ordinary global. With -pthread the two are different addresses:
// the personality function writes the matched catch clause where the landing pad never reads it, so
// catch (...) works and every typed catch misses (the exception escaped to JS as a WebAssembly.Exception).
// The core therefore used Emscripten's JS-based exceptions in this flavour, whose invoke_* wrapper around
// every call that may throw made it ~39 KB (gzipped) bigger than the single-thread core.
// With this file linked, the pthreads core uses -fwasm-exceptions like the others; the linker takes these
// definitions and never pulls libunwind's. One thread at a time may be inside a typed catch's landing pad:
// only the calling thread catches (the API boundary, tpw::run_guarded); the pool's workers run kernels
// that do not throw.
// Compiled without LTO (CMakeLists.txt): the LTO code generator emits the calls to
// _Unwind_CallPersonality after it has picked what to keep.
#include <cstdint>

extern "C" {

using Reason = int;
constexpr Reason kForeignExceptionCaught = 1;  // _URC_FOREIGN_EXCEPTION_CAUGHT
constexpr int kCleanupPhase = 2;               // _UA_CLEANUP_PHASE
struct UnwindException {  // the head of libunwind's _Unwind_Exception
  uint64_t exception_class;
  void (*exception_cleanup)(Reason, UnwindException*);
};
struct LandingPadContext {
  uintptr_t lpad_index;  // in: the landing pad's index
  uintptr_t lsda;        // in: its language-specific data
  uintptr_t selector;    // out: the catch clause that matched
};

Reason __gxx_personality_wasm0(int version, int actions, uint64_t exception_class, UnwindException* e,
                               LandingPadContext* context);

LandingPadContext __wasm_lpad_context;

// Called from the compiler's landing pads: wasm has no two-phase unwinding, so only the cleanup phase.
Reason _Unwind_CallPersonality(void* exception) {
  auto* e = static_cast<UnwindException*>(exception);
  __wasm_lpad_context.selector = 0;
  return __gxx_personality_wasm0(1, kCleanupPhase, e->exception_class, e, &__wasm_lpad_context);
}

// Called by __cxa_throw.
Reason _Unwind_RaiseException(UnwindException* e) { __builtin_wasm_throw(0, e); }

// Called by __cxa_end_catch.
void _Unwind_DeleteException(UnwindException* e) {
  if (e->exception_cleanup) e->exception_cleanup(kForeignExceptionCaught, e);
}

// The personality function sets the selector (register 1) and reads the landing pad's index and data.
void _Unwind_SetGR(LandingPadContext* c, int index, uintptr_t value) {
  if (index == 1) c->selector = value;
}
uintptr_t _Unwind_GetIP(LandingPadContext* c) { return c->lpad_index + 2; }  // used as a 1-based index - 1
void _Unwind_SetIP(LandingPadContext*, uintptr_t) {}
uintptr_t _Unwind_GetLanguageSpecificData(LandingPadContext* c) { return c->lsda; }
uintptr_t _Unwind_GetRegionStart(LandingPadContext*) { return 0; }

}  // extern "C"
