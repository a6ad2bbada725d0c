// Embind bindings of the GEMM's thread count. In the pthreads flavour (web-mt) sgemm splits large
// products over the pool of workers; in the single-thread flavours the count stays 1.
#include <emscripten/bind.h>

#include <algorithm>

#include "tensorpad/gemm.hpp"

namespace {

#ifdef __EMSCRIPTEN_PTHREADS__
// The calling thread plus the pool (PTHREAD_POOL_SIZE=2 in CMakeLists.txt): more threads than that
// would need new workers, which a thread blocked in a product cannot wait for.
constexpr int kMaxThreads = 3;
#else
constexpr int kMaxThreads = 1;
#endif

// Clamps to [1, maxThreads()] and returns the count now in use.
int set_threads(int threads) {
  tp::kernels::set_sgemm_threads(std::clamp(threads, 1, kMaxThreads));
  return tp::kernels::sgemm_threads();
}

}  // namespace

EMSCRIPTEN_BINDINGS(tp_threads) {
  emscripten::function("setThreads", &set_threads);
  emscripten::function("getThreads", &tp::kernels::sgemm_threads);
  emscripten::function("maxThreads", +[] { return kMaxThreads; });
}
