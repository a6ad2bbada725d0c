// Persistent helper threads for run_parts (work_pool.hpp): an atomic word tells the helpers that new
// parts are posted, a counter tells the caller that they are done; both sides poll briefly, then sleep.
#include "work_pool.hpp"

#include <algorithm>

#if TP_HAS_THREADS
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>
#endif

namespace tp::detail {

#if TP_HAS_THREADS
namespace {

// True on a helper, and on a caller while its parts run: a part that splits again (attention's tile
// products inside a split over heads) runs its own parts in order rather than wait on the pool it is in.
thread_local bool t_in_part = false;

// How long a waiting thread polls before it sleeps: a futex wake-up costs ~70 us under Node and in
// Chromium (measured), more than a small product's whole part, while products often come in runs.
constexpr auto kSpin = std::chrono::microseconds(50);

// Polls ready() until it holds or kSpin has passed; true when it holds.
template <class Ready>
bool spin_until(const Ready& ready) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (;;) {
    for (int i = 0; i < 64; ++i)
      if (ready()) return true;
    if (std::chrono::steady_clock::now() > until) return false;
  }
}

class WorkPool {
 public:
  ~WorkPool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    posted_.notify_all();
    for (auto& t : helpers_) t.join();
  }

  // False (nothing run) when another thread is using the pool.
  bool try_run(int parts, PartFn fn, const void* context) {
    std::unique_lock<std::mutex> caller(caller_mu_, std::try_to_lock);
    if (!caller.owns_lock()) return false;
    const int helpers = grow(parts - 1);
    {
      std::lock_guard<std::mutex> lock(mu_);
      fn_ = fn;
      context_ = context;
      pending_.store(helpers, std::memory_order_relaxed);
      posted_word_.store(next_word(posted_word_.load(std::memory_order_relaxed), helpers), std::memory_order_release);
    }
    posted_.notify_all();
    fn(context, 0);
    for (int p = helpers + 1; p < parts; ++p) fn(context, p);
    const auto all_done = [&] { return pending_.load(std::memory_order_acquire) == 0; };
    const auto wait_from = std::chrono::steady_clock::now();
    if (!spin_until(all_done)) {
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, all_done);
    }
    caller_wait_ns_.fetch_add(nanoseconds_since(wait_from), std::memory_order_relaxed);
    return true;
  }

  PoolCounters counters() const {
    PoolCounters c;
    c.helper_parts = helper_parts_.load(std::memory_order_relaxed);
    c.helper_ns = helper_ns_.load(std::memory_order_relaxed);
    c.caller_wait_ns = caller_wait_ns_.load(std::memory_order_relaxed);
    return c;
  }

 private:
  static int64_t nanoseconds_since(std::chrono::steady_clock::time_point from) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - from).count();
  }

  // The posted word: a generation count above 8 bits that say how many helpers (1..n) take part in it,
  // so a helper learns both from one atomic load.
  static uint64_t next_word(uint64_t word, int helpers) { return ((word >> 8) + 1) << 8 | uint64_t(helpers); }
  static int helpers_in(uint64_t word) { return int(word & 0xff); }

  // Starts helpers until there are `wanted` (or starting one fails); returns how many there are, at most wanted.
  int grow(int wanted) {
    wanted = std::min(wanted, 255);
    while (int(helpers_.size()) < wanted) {
      try {
        helpers_.emplace_back(&WorkPool::serve, this, int(helpers_.size()) + 1,
                              posted_word_.load(std::memory_order_relaxed));
      } catch (const std::system_error&) {
        break;
      }
    }
    return std::min(wanted, int(helpers_.size()));
  }

  // Helper `part` runs its part of every posted word after `seen` that it takes part in.
  void serve(int part, uint64_t seen) {
    t_in_part = true;
    for (;;) {
      const auto posted = [&] { return posted_word_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(posted)) {
        std::unique_lock<std::mutex> lock(mu_);
        posted_.wait(lock, [&] { return stop_ || posted(); });
        if (stop_) return;
      }
      seen = posted_word_.load(std::memory_order_acquire);
      if (part > helpers_in(seen)) continue;
      const auto from = std::chrono::steady_clock::now();
      fn_(context_, part);
      helper_ns_.fetch_add(nanoseconds_since(from), std::memory_order_relaxed);
      helper_parts_.fetch_add(1, std::memory_order_relaxed);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard<std::mutex> lock(mu_);  // so the caller cannot miss the notification
        done_.notify_one();
      }
    }
  }

  std::mutex caller_mu_;  // one caller at a time
  std::mutex mu_;         // guards stop_ and the sleeps on the two condition variables
  std::condition_variable posted_, done_;
  std::vector<std::thread> helpers_;  // helper i runs part i + 1
  // Written by the caller before it posts; read by the helpers that take part.
  PartFn fn_ = nullptr;
  const void* context_ = nullptr;
  std::atomic<uint64_t> posted_word_{0};
  std::atomic<int> pending_{0};  // parts posted to helpers and not yet finished
  std::atomic<int64_t> helper_parts_{0}, helper_ns_{0}, caller_wait_ns_{0};  // for pool_counters()
  bool stop_ = false;
};

WorkPool& pool() {
  static WorkPool p;
  return p;
}

}  // namespace

void run_parts(int parts, PartFn fn, const void* context) {
  if (parts > 1 && !t_in_part) {
    t_in_part = true;
    const bool ran = pool().try_run(parts, fn, context);
    t_in_part = false;
    if (ran) return;
  }
  for (int p = 0; p < parts; ++p) fn(context, p);
}

PoolCounters pool_counters() { return pool().counters(); }

#else

void run_parts(int parts, PartFn fn, const void* context) {
  for (int p = 0; p < parts; ++p) fn(context, p);
}

PoolCounters pool_counters() { return {}; }

#endif

}  // namespace tp::detail
