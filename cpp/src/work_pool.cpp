// Persistent helper threads for run_parts (work_pool.hpp): an atomic word tells the helpers that new
// parts are posted, a counter tells the caller that they are done; both sides poll briefly, then sleep.
#include "work_pool.hpp"

#include <algorithm>

#if TP_HAS_THREADS
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <vector>
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

// The pool is written against pthreads and clock_gettime, not std::thread, std::mutex,
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
    for (int i = 0; i < 64; ++i)
      if (ready()) return true;
    if (now_ns() > until) return false;
  }
}

// A scoped pthread mutex lock.
class Lock {
 public:
  explicit Lock(pthread_mutex_t& mu) : mu_(mu) { pthread_mutex_lock(&mu_); }
  ~Lock() { pthread_mutex_unlock(&mu_); }
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;

 private:
  pthread_mutex_t& mu_;
};

class WorkPool {
 public:
  ~WorkPool() {
    {
      Lock lock(mu_);
      stop_ = true;
    }
    pthread_cond_broadcast(&posted_);
    for (pthread_t t : helpers_) pthread_join(t, nullptr);
  }

  // False (nothing run) when another thread is using the pool, or when `team` and fewer than parts - 1
  // helpers could be started.
  bool try_run(int parts, PartFn fn, const void* context, bool team) {
    if (pthread_mutex_trylock(&caller_mu_) != 0) return false;
    const int helpers = grow(parts - 1);
    if (team && helpers < parts - 1) {
      pthread_mutex_unlock(&caller_mu_);
      return false;
    }
    team_parts_ = parts;
    {
      Lock lock(mu_);
      fn_ = fn;
      context_ = context;
      pending_.store(helpers, std::memory_order_relaxed);
      posted_word_.store(next_word(posted_word_.load(std::memory_order_relaxed), helpers), std::memory_order_release);
    }
    pthread_cond_broadcast(&posted_);
    fn(context, 0);
    for (int p = helpers + 1; p < parts; ++p) fn(context, p);
    const auto all_done = [&] { return pending_.load(std::memory_order_acquire) == 0; };
    const int64_t wait_from = now_ns();
    if (!spin_until(all_done)) {
      Lock lock(mu_);
      while (!all_done()) pthread_cond_wait(&done_, &mu_);
    }
    caller_wait_ns_.fetch_add(now_ns() - wait_from, std::memory_order_relaxed);
    pthread_mutex_unlock(&caller_mu_);
    return true;
  }

  // The barrier of run_team's parts: the last to arrive starts the next generation and wakes the sleepers,
  // if any. A sleeper counts itself before its last look at the generation, and the last arrival looks at
  // the count after the generation changed, both sequentially consistent: one of them sees the other.
  // WebAssembly sleeps on the generation word itself (Atomics.wait, which returns at once if the word
  // changed), natively on a condition variable (pthread's on WebAssembly was 1.2 KB of code).
  void sync() {
    const uint32_t g = team_generation_.load(std::memory_order_acquire);
    if (team_arrived_.fetch_add(1, std::memory_order_acq_rel) == team_parts_ - 1) {
      team_arrived_.store(0, std::memory_order_relaxed);
      team_generation_.store(g + 1);
      if (team_sleepers_.load() > 0) {
#ifdef __EMSCRIPTEN__
        emscripten_futex_wake(&team_generation_, team_parts_);
#else
        Lock lock(mu_);
        pthread_cond_broadcast(&team_cv_);
#endif
      }
      return;
    }
    const auto passed = [&] { return team_generation_.load() != g; };
    if (!spin_until(passed)) {
      team_sleeps_.fetch_add(1, std::memory_order_relaxed);
      team_sleepers_.fetch_add(1);
#ifdef __EMSCRIPTEN__
      while (!passed()) emscripten_futex_wait(&team_generation_, g, 1e300);
#else
      {
        Lock lock(mu_);
        while (!passed()) pthread_cond_wait(&team_cv_, &mu_);
      }
#endif
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
  // The posted word: a generation count above 8 bits that say how many helpers (1..n) take part in it,
  // so a helper learns both from one atomic load.
  static uint64_t next_word(uint64_t word, int helpers) { return ((word >> 8) + 1) << 8 | uint64_t(helpers); }
  static int helpers_in(uint64_t word) { return int(word & 0xff); }

  // Starts helpers until there are `wanted` (or starting one fails); returns how many there are, at most wanted.
  int grow(int wanted) {
    wanted = std::min(wanted, 255);
    while (int(helpers_.size()) < wanted) {
      // What a helper starts from: its part and the posted word it has seen (it runs only later ones).
      auto* s = new Start{this, int(helpers_.size()) + 1, posted_word_.load(std::memory_order_relaxed)};
      pthread_t t;
      if (pthread_create(&t, nullptr, &WorkPool::start, s) != 0) {  // e.g. the browser's pool is used up
        delete s;
        break;
      }
      helpers_.push_back(t);
    }
    return std::min(wanted, int(helpers_.size()));
  }

  struct Start {
    WorkPool* pool;
    int part;
    uint64_t seen;
  };
  static void* start(void* p) {
    const Start s = *static_cast<const Start*>(p);
    delete static_cast<Start*>(p);
    s.pool->serve(s.part, s.seen);
    return nullptr;
  }

  // Helper `part` runs its part of every posted word after `seen` that it takes part in.
  void serve(int part, uint64_t seen) {
    t_in_part = true;
    for (;;) {
      const auto posted = [&] { return posted_word_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(posted)) {
        Lock lock(mu_);
        while (!stop_ && !posted()) pthread_cond_wait(&posted_, &mu_);
        if (stop_) return;
      }
      seen = posted_word_.load(std::memory_order_acquire);
      if (part > helpers_in(seen)) continue;
      const int64_t from = now_ns();
      fn_(context_, part);
      helper_ns_.fetch_add(now_ns() - from, std::memory_order_relaxed);
      helper_parts_.fetch_add(1, std::memory_order_relaxed);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        Lock lock(mu_);  // so the caller cannot miss the notification
        pthread_cond_signal(&done_);
      }
    }
  }

  pthread_mutex_t caller_mu_ = PTHREAD_MUTEX_INITIALIZER;  // one caller at a time
  pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;  // guards stop_ and the sleeps on the two condition variables
  pthread_cond_t posted_ = PTHREAD_COND_INITIALIZER, done_ = PTHREAD_COND_INITIALIZER, team_cv_ = PTHREAD_COND_INITIALIZER;
  std::vector<pthread_t> helpers_;  // helper i runs part i + 1
  // Written by the caller before it posts; read by the helpers that take part.
  PartFn fn_ = nullptr;
  const void* context_ = nullptr;
  std::atomic<uint64_t> posted_word_{0};
  std::atomic<int> pending_{0};  // parts posted to helpers and not yet finished
  int team_parts_ = 0;  // the parts of the running call, for sync()
  std::atomic<int> team_arrived_{0}, team_sleepers_{0};
  std::atomic<uint32_t> team_generation_{0};
  std::atomic<int64_t> helper_parts_{0}, helper_ns_{0}, caller_wait_ns_{0}, team_sleeps_{0};  // for pool_counters()
  bool stop_ = false;
};

WorkPool& pool() {
  static WorkPool p;
  return p;
}

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

bool run_team(int parts, PartFn fn, const void* context) {
  if (parts <= 1 || t_in_part) return false;
  t_in_part = true;
  const bool ran = pool().try_run(parts, fn, context, true);
  t_in_part = false;
  return ran;
}

void team_sync() { pool().sync(); }

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
