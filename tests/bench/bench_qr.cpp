// Benchmark-only entry points for tests/bench/qr-stages.mjs: the blocked QR (linalg::detail::qr_blocked)
// stage by stage on a Gaussian (m, n) matrix, so a profile says where its time goes: the factorization
// (panels, the blocks' own updates, the trailing updates) and forming Q. Also sgemm on operands of the
// same sizes, for the GEMM speed the stages' flops would take.
// Not built into tensorpad_bench_mt (which compiles the GEMM alone).
#include <emscripten/bind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"
#include "tensorpad/gemm.hpp"

namespace {

struct Problem {
  int64_t m = 0, n = 0;
  std::vector<float> A, Q, R, B, C;
} problem;

void qr_setup(int m, int n, int seed) {
  Problem& p = problem;
  p.m = m, p.n = n;
  std::mt19937_64 rng{uint64_t(seed)};
  std::normal_distribution<float> g;
  p.A.resize(size_t(m) * size_t(n));
  for (float& x : p.A) x = g(rng);
  const int64_t k = std::min(p.m, p.n);
  p.Q.assign(size_t(m * k), 0.0f);
  p.R.assign(size_t(k * n), 0.0f);
  p.B.assign(size_t(k * n), 0.25f);
  p.C.assign(size_t(m * n), 0.0f);
}

// stage 0: the whole qr_blocked; 1: factorization (R, reflectors kept); 2: factorization without the
// trailing updates; 3: Q from the reflectors kept by the last 1 or 2; 4: sgemm (m, n, k) on row-major
// operands, 2 m n k flops; 5 and 6 the panels' double work alone (below). apply, form_block: qr_blocked's
// block sizes (0: its defaults).
// Returns a checksum, so nothing is optimized away.
double qr_stage(int stage, int apply, int form_block) {
  Problem& p = problem;
  namespace d = tp::linalg::detail;
  d::QrTuning tune;
  tune.apply = apply, tune.form_block = form_block;
  if (stage == 0) {
    d::qr_blocked(p.A.data(), p.m, p.n, p.Q.data(), p.R.data(), tune);
    return p.Q[0] + p.R[0];
  }
  if (stage == 1 || stage == 2)
    return d::qr_blocked_stage(stage - 1, p.A.data(), p.m, p.n, p.Q.data(), p.R.data(), tune);
  if (stage == 3) return d::qr_blocked_stage(2, p.A.data(), p.m, p.n, p.Q.data(), p.R.data(), tune);
  if (stage == 5 || stage == 6) {
    // The panels' own double work alone: qr_blocked's k / 16 panels (m - c0, 16) from A's columns c0..,
    // gathered (5) and factored by householder_qr (6: gathered once before, factored each call).
    static std::vector<d::ColMat> panels;
    const int64_t k = std::min(p.m, p.n);
    double check = 0.0;
    if (stage == 5 || panels.empty()) {
      panels.clear();
      for (int64_t c0 = 0; c0 + 16 <= k; c0 += 16) {
        panels.emplace_back(p.m - c0, 16);
        d::gather_columns(p.A.data() + c0 * p.n + c0, p.n, panels.back());
      }
      if (stage == 5) return panels[0].a[0];
    }
    std::vector<double> tau;
    for (const d::ColMat& P : panels) {
      d::ColMat W = P;
      d::householder_qr(W, tau);
      check += W.a[0];
    }
    return check;
  }
  const int64_t k = std::min(p.m, p.n);
  tp::kernels::sgemm(p.m, p.n, k, p.A.data(), p.n, 1, p.B.data(), p.n, 1, p.C.data(), p.n, false);
  return p.C[0];
}

// ||Q R - A|| / ||A|| and ||Q^T Q - I|| / sqrt(k) (Frobenius), in double, from the last stage 0.
double qr_errors(int which) {
  const Problem& p = problem;
  const int64_t m = p.m, n = p.n, k = std::min(m, n);
  double num = 0.0, den = 0.0;
  if (which == 0) {
    std::vector<double> row(static_cast<size_t>(n));
    for (int64_t i = 0; i < m; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (int64_t l = 0; l < k; ++l) {
        const double q = p.Q[size_t(i * k + l)];
        for (int64_t j = l; j < n; ++j) row[size_t(j)] += q * p.R[size_t(l * n + j)];
      }
      for (int64_t j = 0; j < n; ++j) {
        const double a = p.A[size_t(i * n + j)];
        num += (row[size_t(j)] - a) * (row[size_t(j)] - a), den += a * a;
      }
    }
    return std::sqrt(num / den);
  }
  std::vector<double> G(size_t(k * k), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t a = 0; a < k; ++a) {
      const double qa = p.Q[size_t(i * k + a)];
      for (int64_t b = 0; b < k; ++b) G[size_t(a * k + b)] += qa * p.Q[size_t(i * k + b)];
    }
  for (int64_t a = 0; a < k; ++a)
    for (int64_t b = 0; b < k; ++b) {
      const double x = G[size_t(a * k + b)] - (a == b ? 1.0 : 0.0);
      num += x * x;
    }
  return std::sqrt(num / double(k));
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench_qr) {
  emscripten::function("qrSetup", &qr_setup);
  emscripten::function("qrStage", &qr_stage);
  emscripten::function("qrErrors", &qr_errors);
}
