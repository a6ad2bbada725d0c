// The tridiagonal divide-and-conquer eigensolver (cpp/src/linalg_divide_conquer.cpp) against closed forms
// and against implicit QL's eigenvalues, with leaf size 1 (a merge at every size, down to 2x2) and the
// default leaf; every case checks residuals ||T z - lambda z|| and orthonormality.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"

namespace {

namespace d = tp::linalg::detail;

struct Errors {
  double values = 0, residual = 0, orthogonality = 0;
};

// Solves (diag, off) by divide and conquer and measures it: eigenvalues against implicit QL's (sorted), and
// max |T z - lambda z| and max |Z^T Z - I|, all relative to max |T|.
Errors measure(const std::vector<double>& diag, const std::vector<double>& off, int64_t leaf) {
  const int64_t n = int64_t(diag.size());
  std::vector<double> w;
  d::ColMat Z;
  REQUIRE(d::tridiagonal_divide_conquer(diag, off, w, Z, d::kMaxQlIterationsPerValue, leaf));
  REQUIRE(int64_t(w.size()) == n);
  REQUIRE(Z.rows == n);
  REQUIRE(Z.cols == n);
  double tmax = 0;
  for (double x : diag) tmax = std::max(tmax, std::fabs(x));
  for (double x : off) tmax = std::max(tmax, std::fabs(x));
  if (tmax == 0) tmax = 1;
  std::vector<double> ql = diag, qe = off;
  d::tridiagonal_ql(ql, qe, nullptr, d::kMaxQlIterationsPerValue);
  std::sort(ql.begin(), ql.end());
  Errors err;
  for (int64_t j = 0; j < n; ++j) {
    if (j > 0) CHECK_MESSAGE(w[size_t(j)] >= w[size_t(j - 1)], "not ascending at ", j);
    err.values = std::max(err.values, std::fabs(w[size_t(j)] - ql[size_t(j)]) / tmax);
    const double* z = Z.col(j);
    for (int64_t i = 0; i < n; ++i) {
      double tz = (diag[size_t(i)] - w[size_t(j)]) * z[i];
      if (i > 0) tz += off[size_t(i - 1)] * z[i - 1];
      if (i + 1 < n) tz += off[size_t(i)] * z[i + 1];
      err.residual = std::max(err.residual, std::fabs(tz) / tmax);
    }
    for (int64_t k = 0; k <= j; ++k) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += z[i] * Z(i, k);
      err.orthogonality = std::max(err.orthogonality, std::fabs(s - (k == j ? 1.0 : 0.0)));
    }
  }
  return err;
}

// Float32 GEMMs in the merges: vectors to float rounding; values from the double secular equation.
void check_bar(const std::string& name, const std::vector<double>& diag, const std::vector<double>& off) {
  for (const int64_t leaf : {int64_t(1), d::kDivideConquerLeaf}) {
    const Errors e = measure(diag, off, leaf);
    CHECK_MESSAGE(e.values <= 1e-13, name, " leaf ", leaf, ": eigenvalues off QL's by ", e.values);
    CHECK_MESSAGE(e.residual <= 2e-6, name, " leaf ", leaf, ": residual ", e.residual);
    CHECK_MESSAGE(e.orthogonality <= 2e-6, name, " leaf ", leaf, ": orthogonality ", e.orthogonality);
  }
}

}  // namespace

TEST_CASE("divide and conquer solves n = 1, 2, 3 exactly as their closed forms") {
  std::vector<double> w;
  d::ColMat Z;
  REQUIRE(d::tridiagonal_divide_conquer({-2.5}, {}, w, Z, d::kMaxQlIterationsPerValue, 1));
  CHECK(w[0] == -2.5);
  CHECK(Z(0, 0) == 1.0);
  // [[2, 1], [1, 2]]: 1 and 3, vectors (1, -1) and (1, 1) over sqrt(2), up to sign; one merge of two leaves.
  REQUIRE(d::tridiagonal_divide_conquer({2.0, 2.0}, {1.0}, w, Z, d::kMaxQlIterationsPerValue, 1));
  CHECK(std::fabs(w[0] - 1.0) <= 1e-14);
  CHECK(std::fabs(w[1] - 3.0) <= 1e-14);
  CHECK(std::fabs(std::fabs(Z(0, 0)) - std::sqrt(0.5)) <= 1e-14);  // boundary rows are summed in double
  CHECK(Z(0, 0) * Z(1, 0) < 0);
  CHECK(Z(0, 1) * Z(1, 1) > 0);
  // A negative coupling flips the sign of the lower half in the rank-one term.
  REQUIRE(d::tridiagonal_divide_conquer({2.0, 2.0}, {-1.0}, w, Z, d::kMaxQlIterationsPerValue, 1));
  CHECK(std::fabs(w[0] - 1.0) <= 1e-14);
  CHECK(Z(0, 0) * Z(1, 0) > 0);
  // tridiag(-1, 2, -1) of order 3: 2 - sqrt(2), 2, 2 + sqrt(2).
  REQUIRE(d::tridiagonal_divide_conquer({2, 2, 2}, {-1, -1}, w, Z, d::kMaxQlIterationsPerValue, 1));
  CHECK(std::fabs(w[0] - (2 - std::sqrt(2.0))) <= 1e-14);
  CHECK(std::fabs(w[1] - 2) <= 1e-14);
  CHECK(std::fabs(w[2] - (2 + std::sqrt(2.0))) <= 1e-14);
  check_bar("n = 2", {2.0, 2.0}, {1.0});
  check_bar("n = 3", {2, 2, 2}, {-1, -1});
  check_bar("n = 3 zero", {0, 0, 0}, {0, 0});
}

TEST_CASE("divide and conquer gives the second-difference matrix's closed-form eigenvalues and vectors") {
  // tridiag(-1, 2, -1) of order n: lambda_k = 2 - 2 cos(k pi / (n+1)), v_k(i) = sin(i k pi / (n+1)).
  const double pi = std::acos(-1.0);
  for (const int64_t n : {int64_t(33), int64_t(200)}) {
    for (const int64_t leaf : {int64_t(1), int64_t(32)}) {
      CAPTURE(n);
      CAPTURE(leaf);
      std::vector<double> w;
      d::ColMat Z;
      REQUIRE(d::tridiagonal_divide_conquer(std::vector<double>(size_t(n), 2.0), std::vector<double>(size_t(n - 1), -1.0),
                                            w, Z, d::kMaxQlIterationsPerValue, leaf));
      double worst_value = 0, worst_vector = 0;
      for (int64_t k = 0; k < n; ++k) {
        worst_value = std::max(worst_value, std::fabs(w[size_t(k)] - (2.0 - 2.0 * std::cos(double(k + 1) * pi / double(n + 1)))));
        double dotp = 0, nv = 0;
        for (int64_t i = 0; i < n; ++i) {
          const double v = std::sin(double((i + 1) * (k + 1)) * pi / double(n + 1));
          dotp += v * Z(i, k);
          nv += v * v;
        }
        worst_vector = std::max(worst_vector, 1.0 - std::fabs(dotp) / std::sqrt(nv));
      }
      CHECK(worst_value <= 1e-13);
      CHECK(worst_vector <= 1e-6);  // the merges' float32 GEMMs
    }
  }
}

TEST_CASE("divide and conquer keeps close and repeated eigenvalues apart: Wilkinson, glued and split matrices") {
  // Wilkinson W_{2m+1}^+: pairs of eigenvalues equal to ~1e-14 relative (deflation by rotation).
  for (const int64_t n : {int64_t(21), int64_t(101)}) {
    std::vector<double> diag(static_cast<size_t>(n)), off(size_t(n - 1), 1.0);
    for (int64_t i = 0; i < n; ++i) diag[size_t(i)] = double(std::abs(n / 2 - i));
    check_bar("Wilkinson W" + std::to_string(n) + "+", diag, off);
  }
  // Identical blocks glued by tiny couplings: 1e-300 (z deflates), 1e-12 (close but not negligible), 0 (a
  // split), each block the second-difference matrix of order 10: every eigenvalue 6-fold.
  for (const double glue : {0.0, 1e-300, 1e-12}) {
    std::vector<double> diag(60, 2.0), off(59, -1.0);
    for (int64_t i = 9; i < 59; i += 10) off[size_t(i)] = glue;
    check_bar("glued blocks " + std::to_string(glue), diag, off);
  }
  // The identity (every z deflates at every merge) and a constant diagonal with one coupling.
  check_bar("identity 100", std::vector<double>(100, 1.0), std::vector<double>(99, 0.0));
  std::vector<double> one(99, 0.0);
  one[49] = 0.5;
  check_bar("one coupling", std::vector<double>(100, 3.0), one);
}

TEST_CASE("divide and conquer meets the bar on graded, random and scaled tridiagonals") {
  // Graded: diagonal 1 .. 1e-12, coupling 1e-3 of the smaller neighbour.
  const int64_t n = 150;
  std::vector<double> diag(static_cast<size_t>(n)), off(size_t(n - 1));
  for (int64_t i = 0; i < n; ++i) diag[size_t(i)] = std::pow(10.0, -12.0 * double(i) / double(n - 1));
  for (int64_t i = 0; i + 1 < n; ++i) off[size_t(i)] = 1e-3 * diag[size_t(i + 1)];
  check_bar("graded", diag, off);
  // Pseudo-random entries in (-1, 1) at 257 (odd splits, a tail leaf), then scaled by 1e-200 and 1e200.
  uint64_t s = 12345;
  auto next = [&] {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return double(s >> 11) * 0x1p-52 - 1.0;
  };
  std::vector<double> rd(257), re(256);
  for (double& x : rd) x = next();
  for (double& x : re) x = next();
  check_bar("random 257", rd, re);
  for (const double scale : {1e-200, 1e200}) {
    std::vector<double> sd = rd, se = re;
    for (double& x : sd) x *= scale;
    for (double& x : se) x *= scale;
    check_bar("random 257 scaled " + std::to_string(scale), sd, se);
  }
  // Eigenvalues in clusters: a diagonal of 0, 1, 2 repeated with couplings 1e-6.
  std::vector<double> cd(120), ce(119, 1e-6);
  for (int64_t i = 0; i < 120; ++i) cd[size_t(i)] = double(i % 3);
  check_bar("clusters 0, 1, 2", cd, ce);
}
