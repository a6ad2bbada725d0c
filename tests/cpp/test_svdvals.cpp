// svdvals' route (cpp/src/linalg_svdvals.cpp: the double Gram matrix, its blocked tridiagonalization, the
// values by the root-free QL iteration) against the double bidiagonal SVD (svd_f64) on every shape it
// takes, and the trailing update of the blocked reductions (rank2k_update, linalg_rank2k.cpp) against its
// scalar reference, bit for bit, on every tail shape.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"

namespace {

namespace d = tp::linalg::detail;

std::vector<double> gaussian(uint64_t seed, int64_t count) {
  std::mt19937_64 rng{seed};
  std::normal_distribution<double> g;
  std::vector<double> out(static_cast<size_t>(count));
  for (double& x : out) x = g(rng);
  return out;
}

}  // namespace

TEST_CASE("rank2k_update gives the bits of its scalar reference for every column range, alignment and row tail") {
  // The reference: W(i, j) -= sum over p, in p order, of A1(i, p) B1(j, p) + A2(i, p) B2(j, p), for rows from
  // the diagonal (lower) or from r0. Column ranges of 1..9 columns (the tile's 4 and a last block of 1..3,
  // which runs the tile with zero columns into a scratch column), starting at every alignment; row counts
  // whose last rows fall outside a 4-row tile and past the 128-row blocks; b = 1 and 32 (the panels').
  for (int64_t b : {1, 32}) {
    for (bool lower : {true, false}) {
      for (int64_t m : {13, 141, 262}) {
        const int64_t n = lower ? m : 41;
        const auto g = gaussian(uint64_t(m * 7 + b + lower), m * n + 2 * m * b + 2 * n * b);
        std::vector<double> A1(g.begin() + m * n, g.begin() + m * n + m * b),
            A2(g.begin() + m * n + m * b, g.begin() + m * n + 2 * m * b),
            B1(g.begin() + m * n + 2 * m * b, g.begin() + m * n + 2 * m * b + n * b),
            B2(g.begin() + m * n + 2 * m * b + n * b, g.end());
        // A(i, p) at p*m + i; B1(j, p) at j*b + p (row-major), B2(j, p) at p*n + j (column-major).
        const d::Rank2kOperands ops{A1.data(), m, B1.data(), b, 1, A2.data(), m, B2.data(), 1, n, b};
        for (int64_t j0 : {0, 1, 2, 3, 5}) {
          for (int64_t width = 1; width <= 9 && j0 + width <= n; ++width) {
            CAPTURE(b);
            CAPTURE(lower);
            CAPTURE(m);
            CAPTURE(j0);
            CAPTURE(width);
            const int64_t j1 = j0 + width, r0 = lower ? j0 : 3;
            d::ColMat W(m, n), want(m, n);
            for (int64_t i = 0; i < m * n; ++i) W.a[size_t(i)] = want.a[size_t(i)] = g[size_t(i)];
            for (int64_t j = j0; j < j1; ++j)
              for (int64_t i = lower ? j : r0; i < m; ++i) {
                double s = 0.0;
                for (int64_t p = 0; p < b; ++p)
                  s += A1[size_t(p * m + i)] * B1[size_t(j * b + p)] + A2[size_t(p * m + i)] * B2[size_t(p * n + j)];
                want(i, j) -= s;
              }
            d::rank2k_update(W, r0, j0, j1, lower, ops);
            int64_t differ = 0;
            for (int64_t i = 0; i < m * n; ++i) differ += W.a[size_t(i)] != want.a[size_t(i)];
            CHECK(differ == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("svdvals (Gram matrix, tridiagonal, root-free QL) matches the double bidiagonal SVD to the Gram route's bound") {
  // The Gram route is backward stable for sigma^2: each eigenvalue within c eps64 sigma_1^2, so sigma_i
  // within c eps64 sigma_1^2 / (2 sigma_i), and a zero singular value within sqrt(c eps64) sigma_1. With
  // c eps64 = 1e-13 (the 3072x1024 Gaussian measured 4.5 eps64 sigma_1^2): tall and wide, Gaussian columns
  // graded 1 .. 1e-3, rank-deficient (rank 7 of 120 and of 8), scaled to 1e-30 and 1e30 (the Gram matrix near 1e-60
  // and 1e60, whose squares the root-free iteration takes), and the sizes around kBlockedQrFrom (the
  // unblocked and blocked tridiagonalizations) and the smallest. svd_f64 reduces A itself in double.
  struct Case {
    int64_t m, n;
    int kind;  // 0 Gaussian, 1 graded columns, 2 rank 7, 3 scaled 1e-30, 4 scaled 1e30
  };
  const int64_t nb = d::kBlockedQrFrom;
  const std::vector<Case> cases = {{300, 280, 1}, {150, 260, 0}, {200, 120, 2}, {260, 130, 3}, {130, 260, 4},
                                   {nb + 40, nb - 1, 0}, {nb + 40, nb, 1}, {nb + 40, nb + 1, 0}, {5, 1, 0},
                                   {1, 3, 0}, {2, 2, 1}, {9, 8, 2}};
  for (const Case& c : cases) {
    CAPTURE(c.m);
    CAPTURE(c.n);
    CAPTURE(c.kind);
    const int64_t m = c.m, n = c.n, k = std::min(m, n);
    const auto g = gaussian(uint64_t(31 * m + n + c.kind), m * n + 7 * (m + n));
    std::vector<float> A(static_cast<size_t>(m * n));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double x = g[size_t(i * n + j)];
        if (c.kind == 1) x *= std::pow(1e-3, double(j) / double(std::max<int64_t>(n - 1, 1)));
        if (c.kind == 2) {  // sum of 7 outer products x_r y_r^T
          x = 0.0;
          for (int64_t r = 0; r < 7; ++r) x += g[size_t(m * n + r * (m + n) + i)] * g[size_t(m * n + r * (m + n) + m + j)];
        }
        if (c.kind == 3) x *= 1e-30;
        if (c.kind == 4) x *= 1e30;
        A[size_t(i * n + j)] = float(x);
      }
    const std::vector<double> Ad(A.begin(), A.end());
    std::vector<double> S, want;
    d::svdvals_double(A.data(), m, n, S);
    d::svd_f64(Ad.data(), m, n, want, nullptr, nullptr);
    REQUIRE(S.size() == size_t(k));
    REQUIRE(want.size() == size_t(k));
    if (c.kind == 1 && k > 100) REQUIRE(want.back() < 1e-3 * want.front());
    if (c.kind == 2) REQUIRE(want.back() < 1e-6 * want.front());  // k > 7: rank-deficient
    const double ceps = 1e-13;
    int64_t outside = 0;
    for (int64_t i = 0; i < k; ++i) {
      const double si = want[size_t(i)], floor = std::sqrt(ceps) * want[0];
      const double bound = si > floor ? ceps * want[0] * want[0] / (2.0 * si) : floor;
      outside += !(std::fabs(S[size_t(i)] - si) <= bound);
    }
    CHECK(outside == 0);
    CHECK(std::is_sorted(S.rbegin(), S.rend()));
  }
}
