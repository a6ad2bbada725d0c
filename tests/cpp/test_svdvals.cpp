// svdvals' two-stage tridiagonalization (cpp/src/linalg_svdvals.cpp: dense to band by blocked reflectors,
// band to tridiagonal by rotations) against the one-stage reduction's eigenvalues, for every band and
// tail shape, and svdvals_double on that route against the double bidiagonal SVD (svd_f64).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"

namespace {

namespace d = tp::linalg::detail;

// Eigenvalues, ascending, of the tridiagonal (dg, e) by implicit QL.
std::vector<double> tridiagonal_values(std::vector<double> dg, std::vector<double> e) {
  d::tridiagonal_ql(dg, e, nullptr, d::kMaxQlIterationsPerValue);
  std::sort(dg.begin(), dg.end());
  return dg;
}

}  // namespace

TEST_CASE("two-stage tridiagonalization keeps the eigenvalues of the one-stage reduction, every band and tail") {
  // Sizes around the band (one panel, a panel and a row, none at all) and a split trailing matrix
  // (from kSplitFrom rows); one matrix with a cluster of equal eigenvalues (rank-2 plus identity).
  std::mt19937_64 rng{11};
  std::normal_distribution<double> g;
  for (int64_t n : {1, 2, 3, 5, 7, 8, 9, 13, 40, 203}) {
    for (int64_t band : {2, 4, 6, 8, 64}) {
      for (int kind = 0; kind < 2; ++kind) {
        CAPTURE(n);
        CAPTURE(band);
        CAPTURE(kind);
        d::ColMat A(n, n);
        std::vector<double> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) x[size_t(i)] = g(rng), y[size_t(i)] = g(rng);
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = j; i < n; ++i)
            A(i, j) = kind == 0 ? g(rng) : x[size_t(i)] * x[size_t(j)] + y[size_t(i)] * y[size_t(j)] + (i == j);
        d::ColMat W1 = A, W2 = A;
        std::vector<double> d1, e1, tau, d2, e2;
        d::tridiagonalize_unblocked(W1, d1, e1, tau);
        d::tridiagonalize_two_stage(W2, band, d2, e2);
        REQUIRE(d2.size() == size_t(n));
        REQUIRE(e2.size() == size_t(std::max<int64_t>(n - 1, 0)));
        const std::vector<double> want = tridiagonal_values(d1, e1), got = tridiagonal_values(d2, e2);
        double scale = 0.0, err = 0.0;
        for (int64_t i = 0; i < n; ++i) {
          scale = std::max(scale, std::fabs(want[size_t(i)]));
          err = std::max(err, std::fabs(want[size_t(i)] - got[size_t(i)]));
        }
        CHECK(err <= 1e-13 * std::max(scale, 1.0) * double(n));
      }
    }
  }
}

TEST_CASE("svdvals through the two-stage route matches the double bidiagonal SVD to the Gram route's bound") {
  // 300x280 (k >= kTwoStageFrom): Gaussian columns scaled 1 .. 1e-3, so the singular values spread over
  // three decades and more. The Gram route is backward stable for sigma^2: each eigenvalue within
  // c eps64 sigma_1^2, so sigma_i within c eps64 sigma_1^2 / (2 sigma_i); c eps64 = 2e-13 leaves ~50x
  // over the 3072x1024 case of the kind (4.5 eps64 sigma_1^2 measured). svd_f64 reduces A itself to
  // bidiagonal form, in double.
  const int64_t m = 300, n = 280;
  REQUIRE(n >= d::kTwoStageFrom);
  std::mt19937_64 rng{5};
  std::normal_distribution<double> g;
  std::vector<float> A(static_cast<size_t>(m * n));
  std::vector<double> Ad(A.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      A[size_t(i * n + j)] = float(g(rng) * std::pow(1e-3, double(j) / double(n - 1)));
      Ad[size_t(i * n + j)] = A[size_t(i * n + j)];
    }
  std::vector<double> S, want;
  d::svdvals_double(A.data(), m, n, S);
  d::svd_f64(Ad.data(), m, n, want, nullptr, nullptr);
  REQUIRE(S.size() == want.size());
  REQUIRE(want.back() < 1e-3 * want.front());
  int64_t outside = 0;
  for (size_t i = 0; i < S.size(); ++i)
    outside += std::fabs(S[i] - want[i]) > 1e-13 * want[0] * want[0] / want[i];
  CHECK(outside == 0);
}
