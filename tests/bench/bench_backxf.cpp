// Benchmark-only entry points for the back-transformation of eigh and svd (apply_q_blocked: Q C for Q a
// product of Householder reflectors), with the GEMM shapes it is made of, for tests/bench/backxf.mjs.
// Not built into tensorpad_bench_mt (which compiles the GEMM alone).
#include <emscripten/bind.h>

#include <cstdint>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"
#include "tensorpad/gemm.hpp"

namespace {

using tp::linalg::detail::ColMat;

// The problem set up by backxf_setup: reflectors V (n, K) with factors tau (from the Householder QR of a
// Gaussian matrix, shifted down by `shift` rows as tridiagonalization's are) and the (n, cols) matrix C.
struct Problem {
  int64_t n = 0, cols = 0, shift = 0;
  ColMat V, C;
  std::vector<double> tau;
  std::vector<float> A, B, out;  // operands of the plain GEMM of the same flops
};
Problem problem;

void backxf_setup(int n, int cols, int shift, int seed) {
  Problem& p = problem;
  p.n = n, p.cols = cols, p.shift = shift;
  std::mt19937_64 rng{uint64_t(seed)};
  std::normal_distribution<double> g;
  ColMat R(n - shift, n - shift);
  for (double& x : R.a) x = g(rng);
  tp::linalg::detail::householder_qr(R, p.tau);
  if (shift) p.tau.pop_back();  // as tridiagonalization: n - 1 reflectors, the last one empty
  p.V = ColMat(n, int64_t(p.tau.size()));
  for (int64_t j = 0; j < p.V.cols; ++j)
    for (int64_t i = j + 1; i < n - shift; ++i) p.V(i + shift, j) = R(i, j);
  p.C = ColMat(n, cols);
  for (double& x : p.C.a) x = g(rng);
  p.A.assign(size_t(n) * size_t(n), 0.5f);
  p.B.assign(size_t(n) * size_t(cols), 0.25f);
  p.out.assign(size_t(n) * size_t(cols), 0.0f);
}

// Useful flops of Q C: 4 len cols per reflector (a dot product and an update of each column).
double backxf_flops() {
  double f = 0.0;
  for (int64_t j = 0; j < problem.V.cols; ++j) f += 4.0 * double(problem.n - j - problem.shift) * double(problem.cols);
  return f;
}

// which 0: apply_q_blocked; 1: form_q_blocked (k = n); 2: the plain sgemm (n, cols, n), row-major
// operands, 2 n^2 cols flops. block and slab: the back-transformation's (0: its defaults).
double backxf_run(int which, int reps, int block, int slab) {
  Problem& p = problem;
  double check = 0.0;
  for (int r = 0; r < reps; ++r) {
    if (which == 0) {
      check += tp::linalg::detail::apply_q_blocked(p.V, p.tau, p.shift, p.C, block, slab).a[0];
    } else if (which == 1) {
      check += tp::linalg::detail::form_q_blocked(p.V, p.tau, p.shift, p.n, block, slab).a[0];
    } else {
      tp::kernels::sgemm(p.n, p.cols, p.n, p.A.data(), p.n, 1, p.B.data(), p.cols, 1, p.out.data(), p.cols, false);
      check += p.out[0];
    }
  }
  return check;
}

// One GEMM with explicit strides (C row stride rsc), reps times: the shapes apply_block is made of.
void backxf_gemm(int m, int n, int k, int rsa, int csa, int rsb, int csb, int rsc, bool accumulate, int reps) {
  Problem& p = problem;
  static std::vector<float> A, B, C;
  auto need = [](int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
    return size_t((rows - 1) * rs + (cols - 1) * cs + 1);
  };
  A.resize(std::max(A.size(), need(m, k, rsa, csa)), 0.5f);
  B.resize(std::max(B.size(), need(k, n, rsb, csb)), 0.25f);
  C.resize(std::max(C.size(), size_t(m) * size_t(rsc) + size_t(n)), 0.0f);
  (void)p;
  for (int r = 0; r < reps; ++r)
    tp::kernels::sgemm(m, n, k, A.data(), rsa, csa, B.data(), rsb, csb, C.data(), rsc, accumulate);
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_backxf) {
  emscripten::function("backxfSetup", &backxf_setup);
  emscripten::function("backxfFlops", &backxf_flops);
  emscripten::function("backxfRun", &backxf_run);
  emscripten::function("backxfGemm", &backxf_gemm);
}
