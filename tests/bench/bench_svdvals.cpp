// Benchmark-only entry points for tests/bench/svdvals-stages.mjs: svdvals_double (linalg_svdvals.cpp) stage by
// stage on a Gaussian float (m, n) matrix, so a profile says where its time goes: the double Gram matrix,
// its tridiagonalization, the eigenvalues of the tridiagonal. Not built into tensorpad_bench_mt (which
// compiles the GEMM alone).
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
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

// 0 the Gram matrix A^T A (tall A), 1 its tridiagonalization (a copy; LAPACK dsytrd's blocked scheme in
// double), 2 the tridiagonal's eigenvalues by implicit QL with rotations, 3 the same by the root-free QL
// (dsterf), 4 the whole of svdvals_double, 5 the tridiagonalization's trailing updates alone. Returns a checksum, so nothing is optimized away.
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
  if (stage == 2 || stage == 3) {
    s.lambda = s.dg;
    std::vector<double> e = s.e;
    if (stage == 2) d::tridiagonal_ql(s.lambda, e, nullptr, d::kMaxQlIterationsPerValue);
    else if (!d::tridiagonal_values_root_free(s.lambda, e, d::kMaxQlIterationsPerValue)) return -1.0;
    std::sort(s.lambda.begin(), s.lambda.end());
    return s.lambda[0];
  }
  if (stage == 4) {
    d::svdvals_double(s.A.data(), s.m, s.n, s.S);
    return s.S[0];
  }
  // 5: the tridiagonalization's trailing updates alone (rank2k_update on the same shapes: every panel of
  // kPanel = 32 columns, the lower triangle after it, in the 12 fixed column chunks), on a copy of G with
  // the Gram matrix's own columns as V and Y: what is left of stage 1 is the panels' symv and reflectors.
  s.W = s.G;
  const int64_t n = s.W.rows, b = 32;
  int64_t bounds[d::kChunks + 1];
  for (int64_t j0 = 0; j0 + b < n; j0 += b) {
    const int64_t t0 = j0 + b, len = n - t0;
    const d::Rank2kOperands ops{s.G.col(0), n, s.G.col(1), 1, n, s.G.col(1), n, s.G.col(0), 1, n, b};
    bounds[0] = t0;
    for (int64_t c = 1; c < d::kChunks; ++c)
      bounds[c] = n - int64_t(std::llround(double(len) * std::sqrt(1.0 - double(c) / d::kChunks)));
    bounds[d::kChunks] = n;
    if (stage == 5)
      for (int64_t c = 0; c < d::kChunks; ++c) d::rank2k_update(s.W, t0, bounds[c], bounds[c + 1], true, ops);
    else
      d::rank2k_update(s.W, t0, t0, n, true, ops);
  }
  return s.W.a[n * n - 1];
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_svdvals) {
  emscripten::function("svdvalsSetup", &svdvals_setup);
  emscripten::function("svdvalsStage", &svdvals_stage);
}
