// Benchmark-only entry points for tests/bench/svdvals-stages.mjs: svdvals_double (linalg_svdvals.cpp) stage by
// stage on a Gaussian float (m, n) matrix, so a profile says where its time goes: the double Gram matrix,
// its tridiagonalization, the eigenvalues of the tridiagonal. Not built into tensorpad_bench_mt (which
// compiles the GEMM alone).
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"

namespace {

namespace d = tp::linalg::detail;

struct State {
  int64_t m = 0, n = 0;
  std::vector<float> A;
  d::ColMat G, W;
  std::vector<double> dg, e, tau, lambda, S;
} state;

void svdvals_setup(int m, int n, int seed) {
  std::mt19937_64 rng{uint64_t(seed)};
  std::normal_distribution<double> g;
  state.m = m, state.n = n;
  state.A.resize(size_t(m) * size_t(n));
  for (float& x : state.A) x = float(g(rng));
}

// 0 the Gram matrix A^T A (tall A), 1 its tridiagonalization (a copy; one stage, LAPACK dsytrd's blocked
// scheme), 2 the tridiagonal's eigenvalues, 3 the whole of svdvals_double; from 4, the two-stage
// tridiagonalization of a copy with band half-width stage - 4 (then stage 2 takes its tridiagonal).
// Returns a checksum, so nothing is optimized away.
double svdvals_stage(int stage) {
  State& s = state;
  if (stage == 0) {
    s.G = d::gram_lower_rows(s.A.data(), s.m, s.n);
    return s.G.a[0];
  }
  if (stage == 1) {
    s.W = s.G;
    d::tridiagonalize_blocked(s.W, s.dg, s.e, s.tau, false);
    return s.dg[0];
  }
  if (stage == 2) {
    s.lambda = s.dg;
    std::vector<double> e = s.e;
    d::tridiagonal_ql(s.lambda, e, nullptr, d::kMaxQlIterationsPerValue);
    std::sort(s.lambda.begin(), s.lambda.end());
    return s.lambda[0];
  }
  if (stage == 3) {
    d::svdvals_double(s.A.data(), s.m, s.n, s.S);
    return s.S[0];
  }
  s.W = s.G;
  d::tridiagonalize_two_stage(s.W, stage - 4, s.dg, s.e);
  return s.dg[0];
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_svdvals) {
  emscripten::function("svdvalsSetup", &svdvals_setup);
  emscripten::function("svdvalsStage", &svdvals_stage);
}
