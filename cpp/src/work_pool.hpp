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

// Runs fn(context, 0) .. fn(context, parts - 1) each on its own thread, all at once, and returns true; or
// runs nothing and returns false when that many threads cannot be had (no threads, a helper that could not
// be started, another caller using the helpers, or a call from inside a part). The parts may then meet
// with team_sync(), which a reduction's steps do once or more per column: a meeting is a spin on an
// atomic word (sleeping only after the pool's spin time), where a run_parts per step costs a fork, a join
// and, most steps, a helper's wake-up from sleep. fn must not throw.
bool run_team(int parts, PartFn fn, const void* context);

template <class Part>
bool run_team(int parts, const Part& part) {
  return run_team(parts, [](const void* c, int p) { (*static_cast<const Part*>(c))(p); }, &part);
}

// Returns when every part of the running team has called it as often as this part has (a barrier). Only
// inside run_team's parts.
void team_sync();

// What the helpers did since the program started, for profiles (model.forward's): the parts they ran,
// the wall time they spent in them, and the time callers spent waiting for them after finishing their
// own parts (the imbalance of a split, or a helper that had no core). Zero without threads.
struct PoolCounters {
  int64_t helper_parts = 0, helper_ns = 0, caller_wait_ns = 0;
  int64_t team_sleeps = 0;  // team_sync calls whose spin ran out (a partner without a core, or slow)
};
PoolCounters pool_counters();

}  // namespace tp::detail
