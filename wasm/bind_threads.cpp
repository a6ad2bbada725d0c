// Embind bindings of the GEMM's thread count. In the pthreads flavour (web-mt) sgemm splits large
// products over the pool of workers; in the single-thread flavours the count stays 1.
#include <emscripten/bind.h>
#include <emscripten/threading.h>

#include <algorithm>

#include "tensorpad/gemm.hpp"

namespace {

#ifdef __EMSCRIPTEN_PTHREADS__
// The calling thread plus the pool, whose size CMakeLists.txt sets to the same expression of the
// cores the browser reports (2 to 8 workers): more threads than that would need new workers, which a
// thread blocked in a product cannot wait for.
int max_threads() { return std::max(2, std::min(emscripten_num_logical_cores(), 8)) + 1; }
#else
int max_threads() { return 1; }
#endif

// Clamps to [1, max_threads()] and returns the count now in use.
int set_threads(int threads) {
  tp::kernels::set_sgemm_threads(std::clamp(threads, 1, max_threads()));
  return tp::kernels::sgemm_threads();
}

}  // namespace

EMSCRIPTEN_BINDINGS(tp_threads) {
  emscripten::function("setThreads", &set_threads);
  emscripten::function("getThreads", &tp::kernels::sgemm_threads);
  emscripten::function("maxThreads", &max_threads);
}
