// The trailing update of the blocked reductions (rank2k_update, linalg_rank2k.cpp) against its scalar
// reference, bit for bit, on every tail shape.
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
