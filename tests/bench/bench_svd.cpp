// Benchmark-only entry point for tests/bench/svd-stages.mjs: svd's float32 route for a square matrix
// (svd_double through bidiagonal_route from kBlockedQrFrom) stage by stage on a Gaussian matrix, so a
// profile says where its time goes: bidiagonalization, the bidiagonal's values, its vectors, and the
// back-transformation of both factors. Not built into tensorpad_bench_mt (which compiles the GEMM alone).
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"
#include "tensorpad/linalg.hpp"

namespace {

namespace d = tp::linalg::detail;

d::ColMat svd_input;  // (n, n) Gaussian, as svd_double loads a float matrix
// The same matrix row-major float (tp::linalg::svd's input) and the whole call's outputs, made once in svd_setup:
// stage 4 times tp::linalg::svd alone, not the bench's own conversion (strided reads of svd_input, ~5 ms).
std::vector<float> svd_input_float, svd_u, svd_s, svd_vh;

void svd_setup(int n, int seed) {
  std::mt19937_64 rng{uint64_t(seed)};
  std::normal_distribution<double> g;
  svd_input = d::ColMat(n, n);
  for (double& x : svd_input.a) x = double(float(g(rng)));
  svd_input_float.resize(size_t(n) * size_t(n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) svd_input_float[size_t(i * n + j)] = float(svd_input(i, j));
  svd_u.assign(svd_input_float.size(), 0.0f), svd_s.assign(size_t(n), 0.0f), svd_vh.assign(svd_input_float.size(), 0.0f);
}

// The stages of the route, each a call so that the caller can take its CPU time: 0 bidiagonalizes a copy
// of the input (float updates, as svd's route), 1 finds the bidiagonal's singular values alone (root-free
// QL on B^T B, else QR without vectors, as stage 2 does), 2 its values and vectors by inverse iteration on
// the Golub-Kahan form (svd's route; it repeats stage 1's values first), 3 back-transforms both factors, 4 is the whole float32
// tp::linalg::svd on svd_input_float into outputs made in svd_setup (what the stages leave out: its copies,
// sorting). Returns a checksum, so nothing is
// optimized away; -1 when stage 2 declined (the route would take the QR rotations).
struct State {
  d::ColMat W, Ub, Vb;
  std::vector<double> dg, e, tauq, taup, s;
} state;

double svd_stage(int stage) {
  State& s = state;
  const int64_t n = svd_input.rows;
  if (stage == 0) {
    s.W = svd_input;
    d::bidiagonal_reduce_blocked(s.W, s.dg, s.e, s.tauq, s.taup, true);
    return s.dg[0];
  }
  if (stage == 1) {  // as svd's route finds them
    d::bidiagonal_values(s.dg, s.e, d::bidiagonal_unreduced_max(s.dg, s.e), s.s);
    return s.s[0];
  }
  if (stage == 2) {
    s.s = s.dg;
    return d::bidiagonal_vectors_by_inverse_iteration(s.s, s.e, nullptr, s.Ub, s.Vb) ? s.Ub.a[0] : -1.0;
  }
  if (stage == 4) {
    tp::linalg::svd(svd_input_float.data(), n, n, svd_u.data(), svd_s.data(), svd_vh.data());
    return double(svd_s[0]) + double(svd_u[0]) + double(svd_vh[size_t(n * n - 1)]);
  }
  // Both factors' back-transformations as the route runs them: the blocks of Q (W's columns) and P (W's
  // rows) prepared, then Q Ub and P Vb in one split.
  d::BackJob jobs[2];
  d::bidiagonal_back_jobs(s.W, s.tauq, s.taup, jobs);
  jobs[0].c = s.Ub.a.data(), jobs[1].c = s.Vb.a.data();
  for (d::BackJob& job : jobs) job.crows = job.ldc = n;
  d::prepare_back(jobs, 2);
  d::apply_back(jobs, 2);
  return jobs[0].out.a[0] + jobs[1].out.a[size_t(n - 1)];
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_svd) {
  emscripten::function("svdSetup", &svd_setup);
  emscripten::function("svdStage", &svd_stage);
}
