// Benchmark-only entry point for tests/bench/eigh-stages.mjs: eigh's float32 route (symmetric_eig from
// kInverseIterationFrom) stage by stage on a symmetric Gaussian matrix, so a profile says where its time
// goes: tridiagonalization, eigenvalues, eigenvectors of the tridiagonal, back-transformation.
// Not built into tensorpad_bench_mt (which compiles the GEMM alone).
#include <emscripten/bind.h>

#include <cstdint>
#include <algorithm>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"
#include "tensorpad/linalg.hpp"

namespace {

namespace d = tp::linalg::detail;

d::ColMat eigh_input;  // the lower triangle of (G + G^T) / 2, G Gaussian
std::vector<float> eigh_input_float;  // the same matrix, whole, row-major float (tp::linalg::eigh's input)
std::vector<float> eigh_w, eigh_v;   // its outputs, made once (stage 5 times tp::linalg::eigh alone)

void eigh_setup(int n, int seed) {
  std::mt19937_64 rng{uint64_t(seed)};
  std::normal_distribution<double> g;
  std::vector<float> G(size_t(n) * size_t(n));
  for (float& x : G) x = float(g(rng));
  eigh_input = d::ColMat(n, n);
  eigh_input_float.assign(size_t(n) * size_t(n), 0.0f);
  eigh_w.assign(size_t(n), 0.0f), eigh_v.assign(size_t(n) * size_t(n), 0.0f);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      const float x = 0.5f * (G[size_t(i * n + j)] + G[size_t(j * n + i)]);
      eigh_input(i, j) = double(x);
      eigh_input_float[size_t(i * n + j)] = eigh_input_float[size_t(j * n + i)] = x;
    }
}

// The stages of the route, each a call so that the caller can take its CPU time: 0 tridiagonalizes a
// copy of the input, 1 finds the eigenvalues (root-free QL, sorted), 2 the tridiagonal's vectors by
// inverse iteration, 3 eigenvalues and vectors by divide and conquer instead, 4 back-transforms them;
// 5 is the whole float32 tp::linalg::eigh with vectors, into outputs made in eigh_setup (what the stages leave
// out: its copies, sorting).
// Returns a checksum, so nothing is optimized away.
struct State {
  d::ColMat W, Z;
  std::vector<double> dg, e, tau, lambda;
} state;

double eigh_stage(int stage) {
  State& s = state;
  const int64_t n = eigh_input.rows;
  if (stage == 0) {
    s.W = eigh_input;
    d::tridiagonalize_blocked(s.W, s.dg, s.e, s.tau, true);
    return s.dg[0];
  }
  if (stage == 1) {
    s.lambda = s.dg;
    if (!d::tridiagonal_values_root_free(s.lambda, s.e, d::kMaxQlIterationsPerValue)) return -1.0;
    std::sort(s.lambda.begin(), s.lambda.end());
    return s.lambda[0];
  }
  if (stage == 2) {
    s.Z = d::ColMat(n, n);
    d::tridiagonal_block_vectors(s.dg.data(), s.e.data(), n, s.lambda.data(), n, s.Z.col(0), n, 0, 1);  // eigh's one extra solve
    return s.Z.a[0];
  }
  if (stage == 3) {
    d::tridiagonal_divide_conquer(s.dg, s.e, s.lambda, s.Z);
    return s.Z.a[0];
  }
  if (stage == 5) {
    tp::linalg::eigh(eigh_input_float.data(), n, eigh_w.data(), eigh_v.data());
    return double(eigh_w[0]) + double(eigh_v[0]) + double(eigh_v[size_t(n * n - 1)]);
  }
  return d::apply_q_blocked(s.W, s.tau, 1, s.Z).a[0];
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_eigh) {
  emscripten::function("eighSetup", &eigh_setup);
  emscripten::function("eighStage", &eigh_stage);
}
