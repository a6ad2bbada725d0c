// The root-free QL iteration for a symmetric tridiagonal's eigenvalues (Pal-Walker-Kahan, LAPACK dsterf;
// linalg_eigh.cpp) against implicit QL's eigenvalues and closed forms, on the shapes that stress it:
// sizes 1-3, 2x2 blocks left after deflation, Wilkinson's nearly equal pairs, a graded diagonal, a
// tridiagonal that splits into blocks, zeros and a random one.
#include <doctest/doctest.h>

#include <algorithm>
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
