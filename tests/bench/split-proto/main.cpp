// Main module of the dynamic-linking prototype: the project's sgemm (gemm.cpp, linked in), a GEMM
// timing entry, and a hook that JS calls after loading the side module.
#include <emscripten.h>
#include <cstdint>
#include <cstdlib>
#include "tensorpad/gemm.hpp"
#include "../../../cpp/src/work_pool.hpp"

extern "C" {
EMSCRIPTEN_KEEPALIVE float* tpx_alloc(int n) { return (float*)std::aligned_alloc(64, ((size_t)n * 4 + 63) / 64 * 64); }
EMSCRIPTEN_KEEPALIVE void tpx_free(float* p) { std::free(p); }
// C (n,n) = A B, reps times; returns ms
EMSCRIPTEN_KEEPALIVE double tpx_time_gemm(int n, int reps, float* A, float* B, float* C) {
  double t0 = emscripten_get_now();
  for (int r = 0; r < reps; ++r) tp::kernels::sgemm(n, n, n, A, n, 1, B, n, 1, C, n, false);
  return emscripten_get_now() - t0;
}
EMSCRIPTEN_KEEPALIVE void tpx_set_threads(int t) { tp::kernels::set_sgemm_threads(t); }
}
