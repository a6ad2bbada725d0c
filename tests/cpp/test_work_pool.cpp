// run_parts (cpp/src/work_pool.hpp): every part runs exactly once, part 0 on the caller, and the helper
// threads survive many generations, changing part counts and two callers at once.
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "../../cpp/src/work_pool.hpp"

#if TP_HAS_THREADS
#include <thread>
#endif

namespace {

// Runs `parts` parts `rounds` times and returns how often each part ran.
std::vector<int> count_runs(int parts, int rounds) {
  std::vector<std::atomic<int>> runs(size_t(parts > 0 ? parts : 1));
  for (int r = 0; r < rounds; ++r)
    tp::detail::run_parts(parts, [&](int p) { runs[size_t(p)].fetch_add(1); });
  std::vector<int> out;
  for (int p = 0; p < parts; ++p) out.push_back(runs[size_t(p)].load());
  return out;
}

}  // namespace

TEST_CASE("run_parts runs each part exactly once per call, whatever the part count before it") {
  for (int parts : {1, 2, 3, 5, 2, 4, 1, 3}) {
    CAPTURE(parts);
    CHECK(count_runs(parts, 50) == std::vector<int>(size_t(parts), 50));
  }
  CHECK(count_runs(0, 3).empty());
}

TEST_CASE("run_parts returns only after every part has finished writing") {
  // Each part fills its own slice; a caller that returned early would read a half-written vector.
  std::vector<int64_t> slices(4 * 1000);
  for (int round = 1; round <= 200; ++round) {
    tp::detail::run_parts(4, [&](int p) {
      for (int i = 0; i < 1000; ++i) slices[size_t(p * 1000 + i)] = int64_t(round) * (p + 1);
    });
    int64_t sum = 0;
    for (int64_t v : slices) sum += v;
    REQUIRE(sum == int64_t(round) * 1000 * (1 + 2 + 3 + 4));
  }
}

#if TP_HAS_THREADS
TEST_CASE("run_parts runs part 0 on the calling thread and the others on helper threads") {
  std::vector<std::thread::id> ids(3);
  tp::detail::run_parts(3, [&](int p) { ids[size_t(p)] = std::this_thread::get_id(); });
  CHECK((ids[0] == std::this_thread::get_id()));  // thread ids do not print
  CHECK((ids[1] != ids[0]));
  CHECK((ids[2] != ids[0]));
  CHECK((ids[1] != ids[2]));
}

TEST_CASE("run_parts from two threads at once runs every part of both callers") {
  std::vector<int> first, second;
  std::thread other([&] { second = count_runs(3, 300); });
  first = count_runs(2, 300);
  other.join();
  CHECK(first == std::vector<int>{300, 300});
  CHECK(second == std::vector<int>{300, 300, 300});
}

TEST_CASE("run_team runs its parts at once, and team_sync lets no part past a meeting before all reach it") {
  // Each round every part writes its slot, meets, and reads every slot: a part let through early would read
  // a slot of the round before. 3 parts on 2 cores too (the meetings then sleep after spinning).
  for (int parts : {2, 3}) {
    CAPTURE(parts);
    std::vector<std::atomic<int>> slot(static_cast<size_t>(parts));
    std::atomic<int> stale{0};
    const bool ran = tp::detail::run_team(parts, [&](int p) {
      for (int round = 1; round <= 2000; ++round) {
        slot[size_t(p)].store(round, std::memory_order_relaxed);
        tp::detail::team_sync();
        for (int q = 0; q < parts; ++q)
          if (slot[size_t(q)].load(std::memory_order_relaxed) != round) stale.fetch_add(1);
        tp::detail::team_sync();  // no one writes the next round before all have read this one
      }
    });
    CHECK(ran);
    CHECK(stale.load() == 0);
    for (int q = 0; q < parts; ++q) CHECK(slot[size_t(q)].load() == 2000);
  }
  // From inside a part (here run_parts' part) no team can be had: it runs nothing.
  std::atomic<int> inner_ran{0}, declined{0};
  tp::detail::run_parts(2, [&](int) {
    if (!tp::detail::run_team(2, [&](int) { inner_ran.fetch_add(1); })) declined.fetch_add(1);
  });
  CHECK(inner_ran.load() == 0);
  CHECK(declined.load() == 2);
}
#else
TEST_CASE("run_team declines without threads, running nothing") {
  int ran = 0;
  CHECK_FALSE(tp::detail::run_team(2, [&](int) { ++ran; }));
  CHECK(ran == 0);
}
#endif
