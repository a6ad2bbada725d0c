// Persistent helper threads for run_parts (work_pool.hpp): an atomic word tells the helpers that new
// parts are posted, a counter tells the caller that they are done; both sides poll briefly, then sleep.
#include "work_pool.hpp"

#include <algorithm>

#include "for_size.hpp"

#if TP_HAS_THREADS
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <climits>
#include <cmath>
#include <cstdint>
#ifdef __EMSCRIPTEN__
#include <emscripten/threading.h>
#endif
#endif

namespace tp::detail {

#if TP_HAS_THREADS
namespace {

// True on a helper, and on a caller while its parts run: a part that splits again (attention's tile
// products inside a split over heads) runs its own parts in order rather than wait on the pool it is in.
thread_local bool t_in_part = false;

// The pool is written against atomic words, pthread_create and clock_gettime, not std::thread, std::mutex,
// std::condition_variable and steady_clock: those report failures as std::system_error, whose message
// formatting linked snprintf (the printf family, ~4 KB gzipped) into the pthreads core.

// Monotonic nanoseconds.
int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// How long a waiting thread polls before it sleeps: a futex wake-up costs ~70 us under Node and in
// Chromium (measured), more than a small product's whole part, while products often come in runs.
constexpr int64_t kSpinNs = 50000;

// Polls ready() until it holds or kSpinNs have passed; true when it holds.
template <class Ready>
bool spin_until(const Ready& ready) {
  const int64_t until = now_ns() + kSpinNs;
  for (;;) {
    TP_SCALAR_LOOP  // not unrolled: 64 copies of the look were ~0.8 KB in each of the three waits
    for (int i = 0; i < 64; ++i)
      if (ready()) return true;
    if (now_ns() > until) return false;
  }
}

// Every sleep of the pool is on one of its atomic words: sleep_while(word, seen) returns once the word is
// no longer `seen` (or spuriously: callers look again), and whoever changes a word that may have a sleeper
// calls wake_all on it after the change. WebAssembly sleeps on the word itself (Emscripten's futex:
// Atomics.wait in a worker, a polling loop on the browser's main thread), so the pthreads core links no
// mutex or condition variable of its own (musl's were ~2 KB of code with their timed waits). Natively
// one mutex and condition variable stand in for the futex: a sleeper looks at the word under the mutex,
// and a waker takes the mutex after its change, so the sleeper either sees the change or is already
// waiting when the broadcast comes.
#ifdef __EMSCRIPTEN__
template <class Word>
void sleep_while(std::atomic<Word>& word, Word seen) {
  static_assert(sizeof(Word) == 4, "a futex is 32 bits");
  emscripten_futex_wait(&word, uint32_t(seen), INFINITY);
}
template <class Word>
void wake_all(std::atomic<Word>& word) {
  emscripten_futex_wake(&word, INT_MAX);
}
#else
pthread_mutex_t g_sleep_mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t g_sleep_cv = PTHREAD_COND_INITIALIZER;
template <class Word>
void sleep_while(std::atomic<Word>& word, Word seen) {
  pthread_mutex_lock(&g_sleep_mu);
  if (word.load() == seen) pthread_cond_wait(&g_sleep_cv, &g_sleep_mu);
  pthread_mutex_unlock(&g_sleep_mu);
}
template <class Word>
void wake_all(std::atomic<Word>&) {
  pthread_mutex_lock(&g_sleep_mu);
  pthread_mutex_unlock(&g_sleep_mu);
  pthread_cond_broadcast(&g_sleep_cv);
}
#endif

// Constant-initialized at namespace scope (no function-local static): its first use needs no guard, so
// the pthreads core links no __cxa_guard_acquire for it, and no thread can find it half-built.
class WorkPool {
 public:
#ifndef __EMSCRIPTEN__
  // Natively the helpers stop and are joined at exit; a WebAssembly core's threads live as long as its page.
  ~WorkPool() {
    stop_.store(true);
    posted_word_.store(next_word(posted_word_.load(), 0));
    wake_all(posted_word_);
    for (int i = 0; i < helper_count_; ++i) pthread_join(helpers_[i], nullptr);
  }
#endif

  // False (nothing run) when another thread is using the pool, or when `team` and fewer than parts - 1
  // helpers could be started. Not inlined: run_parts and run_team share one copy.
  __attribute__((noinline)) bool try_run(int parts, PartFn fn, const void* context, bool team) {
    if (caller_busy_.exchange(true, std::memory_order_acquire)) return false;  // one caller at a time
    const int helpers = grow(parts - 1);
    if (team && helpers < parts - 1) {
      caller_busy_.store(false, std::memory_order_release);
      return false;
    }
    team_parts_ = parts;
    fn_ = fn;
    context_ = context;
    pending_.store(helpers, std::memory_order_relaxed);
    posted_word_.store(next_word(posted_word_.load(std::memory_order_relaxed), helpers));
    wake_all(posted_word_);
    fn(context, 0);
    for (int p = helpers + 1; p < parts; ++p) fn(context, p);
    const int64_t wait_from = now_ns();
    if (!spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; }))
      for (int left; (left = pending_.load(std::memory_order_acquire)) != 0;) sleep_while(pending_, left);
    caller_wait_ns_.fetch_add(now_ns() - wait_from, std::memory_order_relaxed);
    caller_busy_.store(false, std::memory_order_release);
    return true;
  }

  // The barrier of run_team's parts: the last to arrive starts the next generation and wakes the sleepers,
  // if any. A sleeper counts itself before its last look at the generation, and the last arrival looks at
  // the count after the generation changed, both sequentially consistent: one of them sees the other.
  void sync() {
    const uint32_t g = team_generation_.load(std::memory_order_acquire);
    if (team_arrived_.fetch_add(1, std::memory_order_acq_rel) == team_parts_ - 1) {
      team_arrived_.store(0, std::memory_order_relaxed);
      team_generation_.store(g + 1);
      if (team_sleepers_.load() > 0) wake_all(team_generation_);
      return;
    }
    const auto passed = [&] { return team_generation_.load() != g; };
    if (!spin_until(passed)) {
      team_sleeps_.fetch_add(1, std::memory_order_relaxed);
      team_sleepers_.fetch_add(1);
      while (!passed()) sleep_while(team_generation_, g);
      team_sleepers_.fetch_sub(1);
    }
  }

  PoolCounters counters() const {
    PoolCounters c;
    c.helper_parts = helper_parts_.load(std::memory_order_relaxed);
    c.helper_ns = helper_ns_.load(std::memory_order_relaxed);
    c.caller_wait_ns = caller_wait_ns_.load(std::memory_order_relaxed);
    c.team_sleeps = team_sleeps_.load(std::memory_order_relaxed);
    return c;
  }

 private:
  static constexpr int kMaxHelpers = 255;

  // The posted word: a generation count above 8 bits that say how many helpers (0..255) take part in it,
  // so a helper learns both from one atomic load. 32 bits, to be slept on: a helper that slept through
  // 2^24 posts would take the last one for the one it saw, and a post waits for its helpers.
  static uint32_t next_word(uint32_t word, int helpers) { return ((word >> 8) + 1) << 8 | uint32_t(helpers); }
  static int helpers_in(uint32_t word) { return int(word & 0xff); }

  // Starts helpers until there are `wanted` (or starting one fails); returns how many there are, at most wanted.
  int grow(int wanted) {
    wanted = std::min(wanted, kMaxHelpers);
    while (helper_count_ < wanted) {
      // What a helper starts from: its part and the posted word it has seen (it runs only later ones).
      auto* s = new Start{this, helper_count_ + 1, posted_word_.load(std::memory_order_relaxed)};
      if (pthread_create(&helpers_[helper_count_], nullptr, &WorkPool::start, s) != 0) {  // e.g. the browser's pool is used up
        delete s;
        break;
      }
      ++helper_count_;
    }
    return std::min(wanted, helper_count_);
  }

  struct Start {
    WorkPool* pool;
    int part;
    uint32_t seen;
  };
  static void* start(void* p) {
    const Start s = *static_cast<const Start*>(p);
    delete static_cast<Start*>(p);
    s.pool->serve(s.part, s.seen);
    return nullptr;
  }

  // Helper `part` runs its part of every posted word after `seen` that it takes part in.
  void serve(int part, uint32_t seen) {
    t_in_part = true;
    for (;;) {
      const auto posted = [&] { return posted_word_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(posted))
        while (!posted()) sleep_while(posted_word_, seen);
      seen = posted_word_.load(std::memory_order_acquire);
#ifndef __EMSCRIPTEN__
      if (stop_.load()) return;
#endif
      if (part > helpers_in(seen)) continue;
      const int64_t from = now_ns();
      fn_(context_, part);
      helper_ns_.fetch_add(now_ns() - from, std::memory_order_relaxed);
      helper_parts_.fetch_add(1, std::memory_order_relaxed);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) wake_all(pending_);
    }
  }

  std::atomic<bool> caller_busy_{false};  // one caller at a time
  pthread_t helpers_[kMaxHelpers] = {};  // helper i runs part i + 1
  int helper_count_ = 0;  // written by the caller that holds caller_busy_
  // Written by the caller before it posts; read by the helpers that take part.
  PartFn fn_ = nullptr;
  const void* context_ = nullptr;
  std::atomic<uint32_t> posted_word_{0};
  std::atomic<int> pending_{0};  // parts posted to helpers and not yet finished
  int team_parts_ = 0;  // the parts of the running call, for sync()
  std::atomic<int> team_arrived_{0}, team_sleepers_{0};
  std::atomic<uint32_t> team_generation_{0};
  std::atomic<int64_t> helper_parts_{0}, helper_ns_{0}, caller_wait_ns_{0}, team_sleeps_{0};  // for pool_counters()
#ifndef __EMSCRIPTEN__
  std::atomic<bool> stop_{false};
#endif
};

WorkPool g_pool;

WorkPool& pool() { return g_pool; }

}  // namespace

// Not inlined: inlined where fn is known, its serial loop inlined fn too, a second copy of each split's
// body (+2.5 KB gzipped in the pthreads core when try_run stopped being inlined into it).
__attribute__((noinline)) void run_parts(int parts, PartFn fn, const void* context) {
  if (parts > 1 && !t_in_part) {
    t_in_part = true;
    const bool ran = pool().try_run(parts, fn, context, false);
    t_in_part = false;
    if (ran) return;
  }
  for (int p = 0; p < parts; ++p) fn(context, p);
}

// Not inlined (nor team_sync): the LTO had copied them, the pool's wait and pthread_create included, into
// both reductions (tridiagonalize_blocked, bidiagonal_route); a call per meeting costs nothing beside it.
__attribute__((noinline)) bool run_team(int parts, PartFn fn, const void* context) {
  if (parts <= 1 || t_in_part) return false;
  t_in_part = true;
  const bool ran = pool().try_run(parts, fn, context, true);
  t_in_part = false;
  return ran;
}

__attribute__((noinline)) void team_sync() { pool().sync(); }

PoolCounters pool_counters() { return pool().counters(); }

#else

void run_parts(int parts, PartFn fn, const void* context) {
  for (int p = 0; p < parts; ++p) fn(context, p);
}

bool run_team(int, PartFn, const void*) { return false; }

void team_sync() {}

PoolCounters pool_counters() { return {}; }

#endif

}  // namespace tp::detail
