// The root-free QL iteration for a symmetric tridiagonal's eigenvalues (Pal-Walker-Kahan, LAPACK dsterf;
// linalg_eigh.cpp) against implicit QL's eigenvalues and closed forms, on the shapes that stress it:
// sizes 1-3, 2x2 blocks left after deflation, Wilkinson's nearly equal pairs, a graded diagonal, a
// tridiagonal that splits into blocks, zeros and a random one. Then the svd's use of it: a bidiagonal's
// values from B^T B (bidiagonal_values_root_free) against the QR sweeps', and the inverse-iteration route
// that takes them as shifts.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"

namespace {

namespace d = tp::linalg::detail;

// max |root-free value - QL value| over the sorted values, relative to max |T| (1 for T = 0).
double value_error(const std::vector<double>& diag, const std::vector<double>& off) {
  std::vector<double> pwk = diag, ql = diag, qe = off;
  REQUIRE(d::tridiagonal_values_root_free(pwk, off, d::kMaxQlIterationsPerValue));
  d::tridiagonal_ql(ql, qe, nullptr, d::kMaxQlIterationsPerValue);
  std::sort(pwk.begin(), pwk.end());
  std::sort(ql.begin(), ql.end());
  double tmax = 0, err = 0;
  for (double x : diag) tmax = std::max(tmax, std::fabs(x));
  for (double x : off) tmax = std::max(tmax, std::fabs(x));
  for (size_t i = 0; i < pwk.size(); ++i) err = std::max(err, std::fabs(pwk[i] - ql[i]));
  return err / (tmax == 0 ? 1.0 : tmax);
}

}  // namespace

TEST_CASE("root-free QL gives implicit QL's eigenvalues to 1e-13 on small, clustered, graded, split and random tridiagonals") {
  struct Case {
    std::string name;
    std::vector<double> diag, off;
  };
  std::vector<Case> cases = {{"1x1", {3.5}, {}},
                             {"2x2", {1.0, -2.0}, {0.75}},
                             {"3x3", {2.0, 2.0, 2.0}, {-1.0, -1.0}},
                             {"zero 5x5", std::vector<double>(5, 0.0), std::vector<double>(4, 0.0)}};
  // Second differences: a 2x2 block is left once the rest deflates, at every size from 2 to 9.
  for (int n = 2; n < 10; ++n) cases.push_back({"second difference " + std::to_string(n), std::vector<double>(size_t(n), 2.0),
                                                std::vector<double>(size_t(n - 1), -1.0)});
  std::vector<double> wd(101), we(100, 1.0);
  for (int i = 0; i < 101; ++i) wd[size_t(i)] = std::abs(50 - i);
  cases.push_back({"Wilkinson W101+", wd, we});
  std::vector<double> gd(200), ge(199);
  for (int i = 0; i < 200; ++i) gd[size_t(i)] = std::pow(10.0, -12.0 * i / 199.0);
  for (int i = 0; i < 199; ++i) ge[size_t(i)] = 1e-3 * gd[size_t(i + 1)];
  cases.push_back({"graded 1 .. 1e-12", gd, ge});
  std::mt19937_64 rng(11);
  std::normal_distribution<double> g;
  std::vector<double> rd(300), re(299);
  for (double& x : rd) x = g(rng);
  for (double& x : re) x = g(rng);
  cases.push_back({"random 300", rd, re});
  for (int i : {50, 51, 200}) re[size_t(i)] = 0.0;
  cases.push_back({"random 300 split in four blocks", rd, re});
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const double err = value_error(c.diag, c.off);
    CHECK(err <= 1e-13);
  }
  // Closed form: tridiag(-1, 2, -1) of size 64 has eigenvalues 2 - 2 cos(k pi / 65).
  std::vector<double> sd(64, 2.0), se(63, -1.0);
  REQUIRE(d::tridiagonal_values_root_free(sd, se, d::kMaxQlIterationsPerValue));
  std::sort(sd.begin(), sd.end());
  double worst = 0;
  for (int k = 1; k <= 64; ++k) worst = std::max(worst, std::fabs(sd[size_t(k - 1)] - (2.0 - 2.0 * std::cos(k * std::acos(-1.0) / 65.0))));
  CHECK(worst <= 1e-14 * 4);
}

TEST_CASE("root-free QL reports a value it cannot converge within the iteration limit") {
  std::vector<double> diag(20, 0.0), off(19, 1.0);
  CHECK_FALSE(d::tridiagonal_values_root_free(diag, off, 0));
}

namespace {

// max |d_i|, |e_i|: bidiagonal_values_root_free's bmax, as bidiagonal_vectors_by_inverse_iteration passes it.
double bidiagonal_max(const std::vector<double>& dg, const std::vector<double>& e) {
  double m = 0.0;
  for (double x : dg) m = std::max(m, std::fabs(x));
  for (double x : e) m = std::max(m, std::fabs(x));
  return m;
}

struct Bidiagonal {
  std::string name;
  std::vector<double> d, e;
};

// Upper bidiagonals for the svd's values: a Gaussian (n, n) matrix's (Dumitriu-Edelman: d_i ~ chi_{n-i},
// e_i ~ chi_{n-i-1}, the distribution Householder bidiagonalization leaves), graded, clustered, scaled by
// 1e+-30, and the tail sizes 1-9.
std::vector<Bidiagonal> bidiagonal_cases() {
  std::vector<Bidiagonal> cases;
  std::mt19937_64 rng(23);
  auto chi = [&](int64_t k) { return std::sqrt(std::gamma_distribution<double>(0.5 * double(k), 2.0)(rng)); };
  auto gaussian_like = [&](int64_t n) {
    Bidiagonal b{"Gaussian " + std::to_string(n), std::vector<double>(size_t(n)), std::vector<double>(size_t(n - 1))};
    for (int64_t i = 0; i < n; ++i) b.d[size_t(i)] = chi(n - i);
    for (int64_t i = 0; i + 1 < n; ++i) b.e[size_t(i)] = chi(n - i - 1);
    return b;
  };
  for (int64_t n = 1; n <= 9; ++n) cases.push_back(gaussian_like(n));
  for (int64_t n : {64, 97, 300, 1024}) cases.push_back(gaussian_like(n));
  for (double scale : {1e-30, 1e30}) {
    Bidiagonal b = gaussian_like(200);
    for (double& x : b.d) x *= scale;
    for (double& x : b.e) x *= scale;
    b.name += scale < 1 ? " times 1e-30" : " times 1e+30";
    cases.push_back(b);
  }
  // Graded 1 .. 1e-3 along the diagonal, e_i a tenth of d_{i+1}: most values sit near 0 on the scale of sigma_1.
  Bidiagonal g{"graded 1 .. 1e-3", std::vector<double>(200), std::vector<double>(199)};
  for (int i = 0; i < 200; ++i) g.d[size_t(i)] = std::pow(10.0, -3.0 * i / 199.0);
  for (int i = 0; i < 199; ++i) g.e[size_t(i)] = 0.1 * g.d[size_t(i + 1)];
  cases.push_back(g);
  // Clusters: 100 diagonal entries 1 and 100 entries 0.5 coupled by 1e-9, values within ~1e-9 of each other.
  Bidiagonal c{"two clusters of 100", std::vector<double>(200), std::vector<double>(199, 1e-9)};
  for (int i = 0; i < 200; ++i) c.d[size_t(i)] = i < 100 ? 1.0 : 0.5;
  cases.push_back(c);
  return cases;
}

}  // namespace

TEST_CASE("root-free bidiagonal values are within n eps sigma_1 / 2 of the QR sweeps' values, or declined") {
  namespace d = tp::linalg::detail;
  // bidiagonal_values_root_free promises n eps sigma_1 / 2 (shifts for inverse iteration); the QR sweeps'
  // own error is a few eps sigma_1, hence the 8 eps more.
  for (const Bidiagonal& b : bidiagonal_cases()) {
    CAPTURE(b.name);
    const int64_t n = int64_t(b.d.size());
    std::vector<double> qr = b.d, f = b.e, s;
    d::bidiagonal_svd(qr, f, nullptr, nullptr);
    const bool taken = d::bidiagonal_values_root_free(b.d, b.e, bidiagonal_max(b.d, b.e), s);
    // Graded: sigma_i < 8 sigma_1 / n for most i, beyond n / 8 + 16 bisections: declined. The others taken.
    CHECK(taken == (b.name.rfind("graded", 0) != 0));
    if (!taken) continue;
    REQUIRE(int64_t(s.size()) == n);
    double worst = 0;
    for (int64_t i = 0; i < n; ++i) {
      worst = std::max(worst, std::fabs(s[size_t(i)] - qr[size_t(i)]));
      if (i > 0) CHECK(s[size_t(i)] <= s[size_t(i - 1)]);
    }
    CHECK(worst <= (0.5 * double(n) + 8.0) * DBL_EPSILON * qr[0]);
  }
}

TEST_CASE("root-free bidiagonal values bisect at most n / 8 + 16 values near 0 and decline past that") {
  namespace d = tp::linalg::detail;
  // n = 64 with k diagonal entries 0.01 (sigma_i < 8 sigma_1 / n = 0.125: bisected) among entries in
  // [0.5, 1], coupled by 1e-3: k = 24 = n / 8 + 16 is taken and meets the bound, k = 25 is declined.
  for (int k : {24, 25}) {
    CAPTURE(k);
    std::vector<double> dg(64), e(63, 1e-3), s;
    for (int i = 0; i < 64; ++i) dg[size_t(i)] = i % 2 == 1 && i < 2 * k ? 0.01 : 0.5 + i / 128.0;
    const bool taken = d::bidiagonal_values_root_free(dg, e, bidiagonal_max(dg, e), s);
    CHECK(taken == (k == 24));
    if (!taken) continue;
    std::vector<double> qr = dg, f = e;
    d::bidiagonal_svd(qr, f, nullptr, nullptr);
    for (int i = 0; i < 64; ++i) CHECK(std::fabs(s[size_t(i)] - qr[size_t(i)]) <= (32.0 + 8.0) * DBL_EPSILON * qr[0]);
    // The bisected ones come out much closer than their squared route alone gives (~4 eps / 0.01 = 400 eps).
    for (int i = 64 - k; i < 64; ++i) CHECK(std::fabs(s[size_t(i)] - qr[size_t(i)]) <= 16.0 * DBL_EPSILON * qr[0]);
  }
}

TEST_CASE("svd's inverse-iteration route gives the QR sweeps' values to (n + 16) eps sigma_1 and B v = sigma u to 1e-14 sigma_1") {
  namespace d = tp::linalg::detail;
  // The values are the Rayleigh quotients u^T B v of the TGK vectors, whatever the root-free shifts' error:
  // a sum of n products (~sqrt(n) eps sigma_1 of rounding; 1.1e-14 sigma_1 = 50 eps at n = 1024).
  for (const Bidiagonal& b : bidiagonal_cases()) {
    const int64_t n = int64_t(b.d.size());
    if (n < 2) continue;
    CAPTURE(b.name);
    std::vector<double> qr = b.d, f = b.e, s = b.d;
    d::bidiagonal_svd(qr, f, nullptr, nullptr);
    d::ColMat Ub, Vb;
    if (!d::bidiagonal_vectors_by_inverse_iteration(s, b.e, nullptr, Ub, Vb)) {
      // Past n^2 / 8 Gram-Schmidt pairs (values chained by gaps under 2e-3 max |b|): the rotations' case.
      CHECK((b.name == "two clusters of 100" || b.name.rfind("graded", 0) == 0));
      continue;
    }
    double worst_value = 0, worst_residual = 0;
    for (int64_t j = 0; j < n; ++j) {
      worst_value = std::max(worst_value, std::fabs(s[size_t(j)] - qr[size_t(j)]));
      if (j > 0) CHECK(s[size_t(j)] <= s[size_t(j - 1)]);
      for (int64_t i = 0; i < n; ++i) {
        const double bv = b.d[size_t(i)] * Vb(i, j) + (i + 1 < n ? b.e[size_t(i)] * Vb(i + 1, j) : 0.0);
        worst_residual = std::max(worst_residual, std::fabs(bv - s[size_t(j)] * Ub(i, j)));
      }
    }
    CHECK(worst_value <= double(n + 16) * DBL_EPSILON * qr[0]);
    CHECK(worst_residual <= 1e-14 * qr[0]);
  }
}
