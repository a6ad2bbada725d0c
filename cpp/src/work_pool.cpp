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
    if (!spin_until(all_done)) {
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, all_done);
    }
    return true;
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
    for (;;) {
      const auto posted = [&] { return posted_word_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(posted)) {
        std::unique_lock<std::mutex> lock(mu_);
        posted_.wait(lock, [&] { return stop_ || posted(); });
        if (stop_) return;
      }
      seen = posted_word_.load(std::memory_order_acquire);
      if (part > helpers_in(seen)) continue;
      fn_(context_, part);
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
  bool stop_ = false;
};

}  // namespace

void run_parts(int parts, PartFn fn, const void* context) {
  static WorkPool pool;
  if (parts > 1 && pool.try_run(parts, fn, context)) return;
  for (int p = 0; p < parts; ++p) fn(context, p);
}

#else

void run_parts(int parts, PartFn fn, const void* context) {
  for (int p = 0; p < parts; ++p) fn(context, p);
}

#endif

}  // namespace tp::detail
