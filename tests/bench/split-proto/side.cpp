// Side module: one function calling the main module's sgemm (an import resolved at load time), and one
// that hands a function pointer of its own code to the main module's work pool (helper threads must call it).
#include <atomic>
#include <cstdint>
#include "tensorpad/gemm.hpp"
#include "../../../cpp/src/work_pool.hpp"

extern "C" {
// C (m,n) = A (m,k) B (k,n) through the core's kernel; returns C[0] + C[m*n-1] as a checksum.
__attribute__((used, visibility("default"))) double side_matmul(int m, int n, int k, const float* A, const float* B, float* C) {
  tp::kernels::sgemm(m, n, k, A, k, 1, B, n, 1, C, n, false);
  return double(C[0]) + double(C[int64_t(m) * n - 1]);
}
// Sum over parts of (part+1), each part run by the pool: side-module code on helper threads.
__attribute__((used, visibility("default"))) int side_parts(int parts) {
  std::atomic<int> sum{0};
  tp::detail::run_parts(parts, [&](int p) { sum += p + 1; });
  return sum.load();
}
}
