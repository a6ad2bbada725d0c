// Splits a piece of work into parts run at once: part 0 on the calling thread, the others on helper
// threads that are started once and then wait for work, so a split costs a wake-up, not a thread start
// (in the browser a thread start is a message to a pooled Web Worker). Not a public header.
#pragma once
#include <cstdint>

// Threads exist natively and in WASM builds made with -pthread; a plain WASM build runs the parts one
// after another on the calling thread.
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
#define TP_HAS_THREADS 1
#else
#define TP_HAS_THREADS 0
#endif

namespace tp::detail {

using PartFn = void (*)(const void* context, int part);

// Runs fn(context, 0) .. fn(context, parts - 1) and returns when all have returned. Parts that no helper
// can take (no threads, a helper that could not be started, or another caller using the helpers) run
// on the calling thread, in order. fn must not throw.
void run_parts(int parts, PartFn fn, const void* context);

template <class Part>
void run_parts(int parts, const Part& part) {
  run_parts(parts, [](const void* c, int p) { (*static_cast<const Part*>(c))(p); }, &part);
}

// What the helpers did since the program started, for profiles (model.forward's): the parts they ran,
// the wall time they spent in them, and the time callers spent waiting for them after finishing their
// own parts (the imbalance of a split, or a helper that had no core). Zero without threads.
struct PoolCounters {
  int64_t helper_parts = 0, helper_ns = 0, caller_wait_ns = 0;
};
PoolCounters pool_counters();

}  // namespace tp::detail
