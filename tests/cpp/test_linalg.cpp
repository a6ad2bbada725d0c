// Decompositions against numpy/LAPACK float64 references (tests/fixtures/linalg, made by
// tests/fixtures/make_linalg_fixtures.py) with the issue's accuracy bar, plus errors and edge cases.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../../cpp/src/linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/ops.hpp"

namespace {

using Json = nlohmann::json;
namespace la = tp::linalg;

const Json& fixtures() {
  static const Json j = [] {
    std::ifstream f(std::string(TP_FIXTURES_DIR) + "/linalg/cases.json");
    REQUIRE_MESSAGE(f.good(), "missing tests/fixtures/linalg/cases.json");
    return Json::parse(f);
  }();
  return j;
}

std::vector<float> floats(const Json& a) { return a.get<std::vector<float>>(); }
std::vector<double> doubles(const Json& a) { return a.get<std::vector<double>>(); }

double fro(const std::vector<float>& A) {
  double s = 0;
  for (float x : A) s += double(x) * x;
  return std::sqrt(s);
}

// C = A^T B for row-major A (r,p), B (r,q), in double.
std::vector<double> atb(const std::vector<float>& A, const std::vector<float>& B, int64_t r, int64_t p, int64_t q) {
  std::vector<double> C(static_cast<size_t>(p * q), 0.0);
  for (int64_t k = 0; k < r; ++k)
    for (int64_t i = 0; i < p; ++i)
      for (int64_t j = 0; j < q; ++j) C[size_t(i * q + j)] += double(A[size_t(k * p + i)]) * B[size_t(k * q + j)];
  return C;
}

// max |X^T X - I| of the (r,c) row-major X: how far its columns are from orthonormal.
double orthogonality_error(const std::vector<float>& X, int64_t r, int64_t c) {
  const auto G = atb(X, X, r, c, c);
  double e = 0;
  for (int64_t i = 0; i < c; ++i)
    for (int64_t j = 0; j < c; ++j) e = std::max(e, std::fabs(G[size_t(i * c + j)] - (i == j ? 1.0 : 0.0)));
  return e;
}

// ||A V - V diag(w)||_F for the (n,n) row-major A and eigenvectors V (in columns), in double.
double eigh_residual(const std::vector<float>& A, int64_t n, const std::vector<float>& w, const std::vector<float>& V) {
  double res = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = -double(V[size_t(i * n + j)]) * w[size_t(j)];
      for (int64_t p = 0; p < n; ++p) s += double(A[size_t(i * n + p)]) * V[size_t(p * n + j)];
      res += s * s;
    }
  return std::sqrt(res);
}

std::vector<float> transpose(const std::vector<float>& X, int64_t r, int64_t c) {
  std::vector<float> T(X.size());
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j) T[size_t(j * r + i)] = X[size_t(i * c + j)];
  return T;
}

// The issue's singular value bar: |s - ref| <= 2e-5 sigma_1 (plus a denormal floor for the zero matrix).
void check_singular_values(const std::vector<float>& S, const std::vector<double>& ref, const std::string& name) {
  REQUIRE(S.size() == ref.size());
  const double s1 = ref.empty() ? 0.0 : ref[0];
  for (size_t i = 0; i < S.size(); ++i)
    CHECK_MESSAGE(std::fabs(S[i] - ref[i]) <= 2e-5 * s1 + 1e-37, name, ": sigma_", i, " = ", S[i], ", LAPACK ", ref[i]);
  for (size_t i = 1; i < S.size(); ++i) CHECK_MESSAGE(S[i] <= S[i - 1], name, ": not descending at ", i);
}

// Same stream as splitmix_gaussian in make_linalg_fixtures.py.
std::vector<float> splitmix_gaussian(uint64_t seed, int64_t count) {
  auto u = [&](uint64_t i) {
    uint64_t z = seed + i * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double(z >> 11) + 0.5) / 9007199254740992.0;
  };
  std::vector<float> out(static_cast<size_t>(count));
  const double two_pi = 6.283185307179586;
  for (int64_t p = 0; 2 * p < count; ++p) {
    const double u1 = u(uint64_t(2 * p + 1)), u2 = u(uint64_t(2 * p + 2));
    const double r = std::sqrt(-2.0 * std::log(u1));
    out[size_t(2 * p)] = float(r * std::cos(two_pi * u2));
    if (2 * p + 1 < count) out[size_t(2 * p + 1)] = float(r * std::sin(two_pi * u2));
  }
  return out;
}

}  // namespace

TEST_CASE("svdvals matches LAPACK within 2e-5 sigma_1 on every fixture matrix") {
  for (const auto& c : fixtures()["svd"]) {
    const int64_t m = c["m"], n = c["n"];
    const auto A = floats(c["A"]);
    std::vector<float> S(static_cast<size_t>(std::min(m, n)));
    la::svdvals(A.data(), m, n, S.data());
    check_singular_values(S, doubles(c["S"]), c["name"]);
  }
}

TEST_CASE("svd reconstructs A with orthonormal U and Vh on every fixture matrix") {
  for (const auto& c : fixtures()["svd"]) {
    const std::string name = c["name"];
    const int64_t m = c["m"], n = c["n"], k = std::min(m, n);
    const auto A = floats(c["A"]);
    std::vector<float> U(static_cast<size_t>(m * k)), S(static_cast<size_t>(k)), Vh(static_cast<size_t>(k * n));
    la::svd(A.data(), m, n, U.data(), S.data(), Vh.data());
    check_singular_values(S, doubles(c["S"]), name);
    double err = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += double(U[size_t(i * k + p)]) * S[size_t(p)] * Vh[size_t(p * n + j)];
        err += (s - A[size_t(i * n + j)]) * (s - A[size_t(i * n + j)]);
      }
    const double a = fro(A);
    CHECK_MESSAGE(std::sqrt(err) <= 1e-5 * a + 1e-37, name, ": ||A - U S Vh|| / ||A|| = ", std::sqrt(err) / a);
    CHECK_MESSAGE(orthogonality_error(U, m, k) <= 1e-4, name, ": U^T U");
    CHECK_MESSAGE(orthogonality_error(transpose(Vh, k, n), n, k) <= 1e-4, name, ": Vh Vh^T");
  }
}

// The issue's bar on qr(A): ||QR - A|| <= 1e-5 ||A||, ||Q^T Q - I||_max <= orth, R exactly upper-triangular.
void check_qr(const std::string& name, const std::vector<float>& A, int64_t m, int64_t n, double orth = 1e-4) {
  const int64_t k = std::min(m, n);
  std::vector<float> Q(static_cast<size_t>(m * k)), R(static_cast<size_t>(k * n));
  la::qr(A.data(), m, n, Q.data(), R.data());
  double err = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(Q[size_t(i * k + p)]) * R[size_t(p * n + j)];
      err += (s - A[size_t(i * n + j)]) * (s - A[size_t(i * n + j)]);
    }
  CHECK_MESSAGE(std::sqrt(err) <= 1e-5 * fro(A) + 1e-37, name, ": ||QR - A|| / ||A|| = ", std::sqrt(err) / fro(A));
  CHECK_MESSAGE(orthogonality_error(Q, m, k) <= orth, name, ": Q^T Q off by ", orthogonality_error(Q, m, k));
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < std::min(i, n); ++j) CHECK_MESSAGE(R[size_t(i * n + j)] == 0.0f, name, ": R below diagonal");
}

TEST_CASE("qr gives orthonormal Q and an exactly upper-triangular R with QR = A") {
  for (const auto& c : fixtures()["svd"]) check_qr(c["name"], floats(c["A"]), c["m"], c["n"]);
}

TEST_CASE("eigh gives ascending eigenvalues within 2e-5 max|lambda| and eigenvectors with small residual") {
  for (const auto& c : fixtures()["eigh"]) {
    const std::string name = c["name"];
    const int64_t n = c["n"];
    const auto A = floats(c["A"]);
    const auto ref = doubles(c["w"]);
    std::vector<float> w(static_cast<size_t>(n)), V(static_cast<size_t>(n * n)), w_only(static_cast<size_t>(n));
    la::eigh(A.data(), n, w.data(), V.data());
    la::eigh(A.data(), n, w_only.data(), nullptr);
    double lmax = 0;
    for (double x : ref) lmax = std::max(lmax, std::fabs(x));
    for (int64_t i = 0; i < n; ++i) {
      CHECK_MESSAGE(std::fabs(w[size_t(i)] - ref[size_t(i)]) <= 2e-5 * lmax + 1e-37, name, ": lambda_", i);
      CHECK_MESSAGE(std::fabs(w_only[size_t(i)] - ref[size_t(i)]) <= 2e-5 * lmax + 1e-37, name, ": eigvalsh ", i);
    }
    const double res = eigh_residual(A, n, w, V);
    CHECK_MESSAGE(res <= 1e-4 * fro(A) + 1e-37, name, ": ||AV - V Lambda|| / ||A|| = ", res / fro(A));
    CHECK_MESSAGE(orthogonality_error(V, n, n) <= 1e-4, name, ": V^T V");
  }
}

TEST_CASE("det, inv and solve match numpy; singular input is a clear error and det 0") {
  for (const auto& c : fixtures()["lu"]) {
    const std::string name = c["name"];
    const int64_t n = c["n"];
    const auto A = floats(c["A"]), B = floats(c["B"]);
    const double d = la::det(A.data(), n), dref = c["det"];
    CHECK_MESSAGE(std::fabs(d - dref) <= 1e-5 * std::fabs(dref), name, ": det ", d, " vs ", dref);
    std::vector<float> Ai(static_cast<size_t>(n * n)), X(static_cast<size_t>(n * 3));
    la::inv(A.data(), n, Ai.data());
    la::solve(A.data(), n, B.data(), 3, X.data());
    for (const auto& pair : {std::pair{&Ai, "inv"}, std::pair{&X, "X"}}) {
      // Plain locals, not structured bindings: doctest's CHECK captures them in a lambda (C++17).
      const auto got = pair.first;
      const char* key = pair.second;
      const auto ref = doubles(c[key]);
      double scale = 0;
      for (double x : ref) scale = std::max(scale, std::fabs(x));
      for (size_t i = 0; i < ref.size(); ++i)
        CHECK_MESSAGE(std::fabs((*got)[i] - ref[i]) <= 1e-4 * scale, name, ": ", key, "[", i, "]");
    }
  }
  const float S[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  float out[9], b[3] = {1, 2, 3};
  CHECK(la::det(S, 3) == 0.0);
  CHECK_THROWS_WITH_AS(la::inv(S, 3, out), doctest::Contains("linalg.inv: matrix of shape [3, 3] is singular"), tp::Error);
  CHECK_THROWS_WITH_AS(la::solve(S, 3, b, 1, out), doctest::Contains("singular"), tp::Error);
  const float Z[4] = {0, 0, 0, 0};
  CHECK_THROWS_AS(la::inv(Z, 2, out), tp::Error);
}

TEST_CASE("matrix norms match numpy and matrix_rank uses numpy's default tolerance") {
  for (const auto& c : fixtures()["norm_rank"]) {
    const std::string name = c["name"];
    const int64_t m = c["m"], n = c["n"];
    const auto A = floats(c["A"]);
    for (const auto& item : c["norms"].items()) {
      const std::string ord = item.key();
      const auto& ref = item.value();
      const double got = la::norm(A.data(), m, n, ord), r = ref.get<double>();
      const double s1 = c["norms"]["2"].get<double>();
      // Singular-value norms carry the 2e-5 sigma_1 bar; entry sums are near exact.
      CHECK_MESSAGE(std::fabs(got - r) <= 1e-5 * std::fabs(r) + 2e-5 * s1 * (ord == "nuc" ? n : 1) + 1e-37, name,
                    ": norm ", ord, " = ", got, " vs ", r);
    }
    if (c["rank_robust"].get<bool>())
      CHECK_MESSAGE(la::matrix_rank(A.data(), m, n) == c["rank"].get<int64_t>(), name, ": rank");
  }
  const float D[4] = {1, 0, 0, 1e-3f};
  CHECK(la::matrix_rank(D, 2, 2) == 2);
  CHECK(la::matrix_rank(D, 2, 2, 1e-2) == 1);
  CHECK_THROWS_WITH_AS(la::norm(D, 2, 2, "3"), doctest::Contains("unknown matrix norm order"), tp::Error);
}

TEST_CASE("every decomposition rejects NaN and Inf before any work") {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (float bad : {nan, inf, -inf}) {
    const float A[4] = {1, 2, bad, 4};
    float o1[4], o2[4], o3[4];
    CHECK_THROWS_WITH_AS(la::svdvals(A, 2, 2, o1), doctest::Contains("linalg.svdvals: input contains NaN or Inf"), tp::Error);
    CHECK_THROWS_WITH_AS(la::svd(A, 2, 2, o1, o2, o3), doctest::Contains("linalg.svd: input contains NaN or Inf"), tp::Error);
    CHECK_THROWS_WITH_AS(la::qr(A, 2, 2, o1, o2), doctest::Contains("linalg.qr: input contains NaN or Inf"), tp::Error);
    CHECK_THROWS_WITH_AS(la::eigh(A, 2, o1, o2), doctest::Contains("linalg.eigh: input contains NaN or Inf"), tp::Error);
    CHECK_THROWS_AS(la::det(A, 2), tp::Error);
    CHECK_THROWS_AS(la::inv(A, 2, o1), tp::Error);
    CHECK_THROWS_AS(la::norm(A, 2, 2, "fro"), tp::Error);
    CHECK_THROWS_AS(la::matrix_rank(A, 2, 2), tp::Error);
  }
}

TEST_CASE("solve broadcasts the batch dims of A and B like torch, matching numpy matrix by matrix") {
  for (const auto& c : fixtures()["solve_broadcast"]) {
    const std::string name = c["name"];
    const auto A = floats(c["A"]), B = floats(c["B"]);
    const auto want = doubles(c["X"]);
    const tp::Tensor X = la::solve(tp::Tensor::from(c["a_shape"].get<tp::Shape>(), A.data()),
                                   tp::Tensor::from(c["b_shape"].get<tp::Shape>(), B.data()));
    CHECK_MESSAGE(X.shape() == c["x_shape"].get<tp::Shape>(), name);
    double scale = 0;
    for (double w : want) scale = std::max(scale, std::fabs(w));
    for (size_t i = 0; i < want.size() && X.numel() == int64_t(want.size()); ++i)
      CHECK_MESSAGE(std::fabs(X.data()[i] - want[i]) <= 1e-5 * scale, name, " [", i, "]");
  }
  const tp::Tensor A = tp::Tensor::zeros({2, 3, 3}), B = tp::Tensor::zeros({3, 3, 1});
  CHECK_THROWS_WITH_AS(la::solve(A, B), doctest::Contains("linalg.solve: batch dims [2] of A (shape [2, 3, 3]) and [3] of B (shape [3, 3, 1]) do not broadcast"), tp::Error);
}

TEST_CASE("svd_lowrank finds the top singular triplets of a matrix with a decaying spectrum") {
  const auto& c = fixtures()["svd"][5];  // ill-conditioned 30x20, sigma 1 .. 1e-6
  const int64_t m = c["m"], n = c["n"], q = 6;
  const auto A = floats(c["A"]);
  const auto ref = doubles(c["S"]);
  const auto omega = splitmix_gaussian(3, n * q);
  std::vector<float> U(static_cast<size_t>(m * q)), S(static_cast<size_t>(q)), V(static_cast<size_t>(n * q));
  la::svd_lowrank(A.data(), m, n, q, 2, omega.data(), U.data(), S.data(), V.data());
  for (int64_t i = 0; i < q; ++i) CHECK(std::fabs(S[size_t(i)] - ref[size_t(i)]) <= 1e-3 * ref[0]);
  CHECK(orthogonality_error(U, m, q) <= 1e-4);
  CHECK(orthogonality_error(V, n, q) <= 1e-4);
  CHECK_THROWS_WITH_AS(la::svd_lowrank(A.data(), m, n, 21, 2, omega.data(), U.data(), S.data(), V.data()),
                       doctest::Contains("q must be in [1, min(m, n)]"), tp::Error);
}

TEST_CASE("svd_lowrank with q = min(m, n) is the exact SVD, through the Cholesky QR path or its fallback") {
  for (const int idx : {0, 1, 2, 7}) {  // Gaussian tall, wide, square; rank-deficient (falls back)
    const auto& c = fixtures()["svd"][size_t(idx)];
    const std::string name = c["name"];
    const int64_t m = c["m"], n = c["n"], q = std::min(m, n);
    const auto A = floats(c["A"]);
    const auto omega = splitmix_gaussian(11, n * q);
    std::vector<float> U(static_cast<size_t>(m * q)), S(static_cast<size_t>(q)), V(static_cast<size_t>(n * q));
    la::svd_lowrank(A.data(), m, n, q, 2, omega.data(), U.data(), S.data(), V.data());
    check_singular_values(S, doubles(c["S"]), name + " (svd_lowrank)");
    CHECK_MESSAGE(orthogonality_error(U, m, q) <= 1e-4, name, ": U");
    CHECK_MESSAGE(orthogonality_error(V, n, q) <= 1e-4, name, ": V");
  }
}

// Qa[:, :n] diag(sigma) Qb^T as a row-major float (m,n), m >= n, Qa and Qb random orthogonal.
std::vector<float> with_spectrum(int64_t m, int64_t n, const std::vector<double>& sigma, uint64_t seed) {
  const tp::Tensor Qa = la::random_orthogonal(m, seed), Qb = la::random_orthogonal(n, seed + 1);
  std::vector<float> A(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t k = 0; k < n; ++k) s += double(Qa.data()[i * m + k]) * sigma[size_t(k)] * Qb.data()[j * n + k];
      A[size_t(i * n + j)] = float(s);
    }
  return A;
}

TEST_CASE("blocked qr (min(m, n) >= 96) meets the bar on every case class, panel edges included") {
  // Sizes cut panels of 32 unevenly; the matrices are the issue's classes at sizes the blocked path takes.
  std::vector<double> ill(150), rank10(150, 0.0);
  for (int64_t i = 0; i < 150; ++i) ill[size_t(i)] = std::pow(10.0, -6.0 * double(i) / 149.0);
  for (int64_t i = 0; i < 10; ++i) rank10[size_t(i)] = 1.0 + double(i);
  auto scaled = [](std::vector<float> A, float s) {
    for (float& x : A) x *= s;
    return A;
  };
  const auto ill_A = with_spectrum(300, 150, ill, 51);
  check_qr("Gaussian 300x130", splitmix_gaussian(50, 300 * 130), 300, 130, 1e-5);
  check_qr("Gaussian wide 130x300", splitmix_gaussian(52, 130 * 300), 130, 300, 1e-5);
  check_qr("Gaussian 97x97", splitmix_gaussian(53, 97 * 97), 97, 97, 1e-5);
  // Three whole blocks of 128 reflectors and one of 6, tall and wide.
  check_qr("Gaussian 700x390", splitmix_gaussian(55, 700 * 390), 700, 390, 1e-5);
  check_qr("Gaussian wide 390x700", splitmix_gaussian(56, 390 * 700), 390, 700, 1e-5);
  check_qr("ill-conditioned 300x150, sigma 1 .. 1e-6", ill_A, 300, 150, 1e-5);
  check_qr("ill-conditioned, scaled by 1e8", scaled(ill_A, 1e8f), 300, 150, 1e-5);
  check_qr("ill-conditioned, scaled by 1e-8", scaled(ill_A, 1e-8f), 300, 150, 1e-5);
  check_qr("rank 10 of 300x150", with_spectrum(300, 150, rank10, 54), 300, 150, 1e-5);
  check_qr("zero 128x100", std::vector<float>(128 * 100, 0.0f), 128, 100, 1e-5);
}

TEST_CASE("blocked qr gives the double Householder QR's Q and R to float rounding, on every panel and block tail") {
  // The oracle is qr of the same matrix in float64 (unblocked reflectors in double, the same signs). Tall
  // Gaussian matrices are well conditioned (cond < 6 for m >= 2n), so Q and R are determined to ~1e-6:
  // a wrong entry of a block's T, a skipped row or column in forming Q, would show as O(1) errors.
  // Columns cut panels of 32 and blocks of 128 at 0, 1 and 31 past an edge; rows are odd and even.
  for (const auto& shape : {std::pair<int64_t, int64_t>{193, 96}, {195, 97}, {300, 127}, {256, 128}, {259, 129},
                            {321, 160}, {333, 161}, {511, 255}, {520, 257}, {700, 300}}) {
    // Plain locals, not a structured binding: clang 14 (em++) cannot capture one in doctest's message lambda.
    const int64_t m = shape.first, n = shape.second, k = n;
    const auto A = splitmix_gaussian(uint64_t(m * 1000 + n), m * n);
    const std::vector<double> Ad(A.begin(), A.end());
    std::vector<float> Q(size_t(m * k)), R(size_t(k * n));
    std::vector<double> Qd(size_t(m * k)), Rd(size_t(k * n));
    la::qr(A.data(), m, n, Q.data(), R.data());
    la::qr(Ad.data(), m, n, Qd.data(), Rd.data());
    double dq = 0, dr = 0, r_max = 0;
    for (size_t i = 0; i < Q.size(); ++i) dq = std::max(dq, std::fabs(Q[i] - Qd[i]));
    for (size_t i = 0; i < R.size(); ++i) dr = std::max(dr, std::fabs(R[i] - Rd[i])), r_max = std::max(r_max, std::fabs(Rd[i]));
    CHECK_MESSAGE(dq <= 2e-6, m, "x", n, ": max |Q - Q64| = ", dq);
    CHECK_MESSAGE(dr <= 2e-6 * r_max, m, "x", n, ": max |R - R64| / max |R64| = ", dr / r_max);
  }
}

TEST_CASE("blocked qr gives the same bits on 1, 2 and 3 threads, wide and tall, whatever its slabs") {
  // Forming Q splits its column slabs over the threads (uneven shares on 3; 2 and 3 threads cut the slabs
  // at other columns than 1 does), and the GEMMs split inside: none of it may change a bit of Q or R.
  for (const auto& shape : {std::pair<int64_t, int64_t>{700, 300}, {1100, 577}, {333, 161}, {200, 450}}) {
    const int64_t m = shape.first, n = shape.second, k = std::min(m, n);
    const auto A = splitmix_gaussian(uint64_t(m * 7 + n), m * n);
    std::vector<float> Q1(size_t(m * k)), R1(size_t(k * n));
    tp::kernels::set_sgemm_threads(1);
    la::qr(A.data(), m, n, Q1.data(), R1.data());
    for (int threads : {2, 3}) {
      std::vector<float> Q(size_t(m * k)), R(size_t(k * n));
      tp::kernels::set_sgemm_threads(threads, 0);  // min_flops 0: every GEMM splits too
      la::qr(A.data(), m, n, Q.data(), R.data());
      tp::kernels::set_sgemm_threads(1);
      CHECK_MESSAGE(Q == Q1, m, "x", n, ": Q on ", threads, " threads differs from 1 thread");
      CHECK_MESSAGE(R == R1, m, "x", n, ": R on ", threads, " threads differs from 1 thread");
    }
  }
}

TEST_CASE("svd_lowrank recovers a dominant 10-dimensional subspace with bases orthonormal to float precision") {
  // A = Qa diag(sigma) Qb^T (400x300): sigma 10, 9, ..., 1, then a tail 1e-3 * 0.9^k. With q = 20 the
  // basis between power iterations has condition ~3e4: the float Gram matrix refuses it and the double
  // one (CholeskyQR2) takes over, so this case runs the middle path of the orthonormalization.
  const int64_t m = 400, n = 300, q = 20;
  std::vector<double> sigma(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) sigma[size_t(i)] = i < 10 ? double(10 - i) : 1e-3 * std::pow(0.9, double(i - 10));
  const auto A = with_spectrum(m, n, sigma, 21);
  const auto omega = splitmix_gaussian(5, n * q);
  for (const int64_t niter : {0, 2}) {  // niter 0: Y = A omega has nearly dependent columns
    CAPTURE(niter);
    std::vector<float> U(static_cast<size_t>(m * q)), S(static_cast<size_t>(q)), V(static_cast<size_t>(n * q));
    la::svd_lowrank(A.data(), m, n, q, niter, omega.data(), U.data(), S.data(), V.data());
    for (int64_t i = 0; i < 10; ++i) CHECK(std::fabs(S[size_t(i)] - sigma[size_t(i)]) <= 1e-5 * sigma[0]);
    for (int64_t i = 10; i < q; ++i) CHECK(S[size_t(i)] <= 1.1e-3);
    CHECK(orthogonality_error(U, m, q) <= 1e-5);
    CHECK(orthogonality_error(V, n, q) <= 1e-5);
    // What the top q triplets leave out is the tail beyond them: ||A - U S V^T||_F ~ 1e-3 * 0.9^10 * 2.3.
    double resid = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = A[size_t(i * n + j)];
        for (int64_t k = 0; k < q; ++k) s -= double(U[size_t(i * q + k)]) * S[size_t(k)] * V[size_t(j * q + k)];
        resid += s * s;
      }
    CHECK(std::sqrt(resid) <= (niter == 0 ? 2.3e-3 : 1.5e-3));
  }
}

TEST_CASE("svd_lowrank returns bases orthonormal to float precision when the float Gram matrix was enough") {
  // Spectra under which every Cholesky QR pass is accepted with the float Gram matrix: flat (Gaussian)
  // and a moderate decay (sigma_i = 0.93^i, so Y = A omega has condition ~1e2). The float Gram matrix's
  // rounding, amplified by the squared condition, would leave up to ~1e-4 of non-orthogonality; the
  // final pass with the double Gram matrix brings it to float precision.
  const int64_t m = 600, n = 300, q = 40;
  std::vector<double> sigma(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) sigma[size_t(i)] = std::pow(0.93, double(i));
  const std::vector<std::vector<float>> mats = {splitmix_gaussian(31, m * n), with_spectrum(m, n, sigma, 33)};
  const auto omega = splitmix_gaussian(32, n * q);
  for (size_t which = 0; which < mats.size(); ++which)
    for (const int64_t niter : {0, 1}) {
      CAPTURE(which);
      CAPTURE(niter);
      std::vector<float> U(static_cast<size_t>(m * q)), S(static_cast<size_t>(q)), V(static_cast<size_t>(n * q));
      la::svd_lowrank(mats[which].data(), m, n, q, niter, omega.data(), U.data(), S.data(), V.data());
      CHECK(orthogonality_error(U, m, q) <= 2e-6);
      CHECK(orthogonality_error(V, n, q) <= 2e-6);
    }
}

TEST_CASE("a Gaussian 3072x1024 keeps numpy's energy fractions at k = 32, 128, 512 within 0.05 pp") {
  std::ifstream f(std::string(TP_FIXTURES_DIR) + "/linalg/energy.json");
  REQUIRE(f.good());
  const Json e = Json::parse(f);
  const int64_t m = e["m"], n = e["n"];
  const auto A = splitmix_gaussian(e["seed"].get<uint64_t>(), m * n);
  const auto first = floats(e["first"]);
  for (size_t i = 0; i < first.size(); ++i) REQUIRE(std::fabs(A[i] - first[i]) <= 1e-6f * std::fabs(first[i]));
  std::vector<float> S(static_cast<size_t>(n));
  la::svdvals(A.data(), m, n, S.data());
  double total = 0;
  for (float s : S) total += double(s) * s;
  const auto ks = e["k"].get<std::vector<int64_t>>();
  const auto ref = doubles(e["fraction_float32"]);
  for (size_t t = 0; t < ks.size(); ++t) {
    double top = 0;
    for (int64_t i = 0; i < ks[t]; ++i) top += double(S[size_t(i)]) * S[size_t(i)];
    CHECK_MESSAGE(std::fabs(100 * top / total - 100 * ref[t]) <= 0.05, "k = ", ks[t], ": ", 100 * top / total,
                  "% vs numpy ", 100 * ref[t], "%");
  }
  const auto head = doubles(e["S_head"]);
  for (size_t i = 0; i < head.size(); ++i) CHECK(std::fabs(S[i] - head[i]) <= 2e-5 * head[0]);
}

TEST_CASE("the Tensor-level ops batch over leading dims with torch's shapes") {
  const auto g = splitmix_gaussian(21, 2 * 3 * 5 * 4);
  const tp::Tensor A = tp::Tensor::from({2, 3, 5, 4}, g.data());
  const auto r = la::svd(A);
  CHECK(r.U.shape() == tp::Shape{2, 3, 5, 4});
  CHECK(r.S.shape() == tp::Shape{2, 3, 4});
  CHECK(r.Vh.shape() == tp::Shape{2, 3, 4, 4});
  // Matrix (1, 2) of the batch alone gives the same singular values.
  std::vector<float> S1(4);
  la::svdvals(g.data() + (1 * 3 + 2) * 20, 5, 4, S1.data());
  for (int i = 0; i < 4; ++i) CHECK(r.S.data()[(1 * 3 + 2) * 4 + i] == S1[size_t(i)]);
  const auto q = la::qr(tp::Tensor::from({3, 5, 4}, g.data()).contiguous());
  CHECK(q.Q.shape() == tp::Shape{3, 5, 4});
  CHECK(q.R.shape() == tp::Shape{3, 4, 4});
  CHECK(la::svdvals(tp::Tensor::from({6, 2, 5}, g.data())).shape() == tp::Shape{6, 2});
  const float sym[8] = {2, 1, 1, 3, 4, 0, 0, -1};
  const auto e = la::eigh(tp::Tensor::from({2, 2, 2}, sym));
  CHECK(e.eigenvalues.shape() == tp::Shape{2, 2});
  CHECK(e.eigenvectors.shape() == tp::Shape{2, 2, 2});
  CHECK(e.eigenvalues.data()[2] == doctest::Approx(-1.0));
  CHECK(e.eigenvalues.data()[3] == doctest::Approx(4.0));
  CHECK(la::det(tp::Tensor::from({2, 2, 2}, sym)).shape() == tp::Shape{2});
  CHECK(la::matrix_rank(tp::Tensor::zeros({4, 3, 3})).shape() == tp::Shape{4});
  CHECK(la::matrix_norm(tp::Tensor::from({2, 2, 2}, sym), "fro").shape() == tp::Shape{2});
  // solve: B with exactly A's shape without its last dim is a stack of vectors, else of matrices.
  const float b[4] = {1, 2, 3, 4};
  CHECK(la::solve(tp::Tensor::from({2, 2, 2}, sym), tp::Tensor::from({2, 2}, b)).shape() == tp::Shape{2, 2});
  CHECK(la::solve(tp::Tensor::from({2, 2}, sym), tp::Tensor::from({2, 2}, b)).shape() == tp::Shape{2, 2});
  CHECK_THROWS_WITH_AS(la::solve(tp::Tensor::from({2, 2}, sym), tp::Tensor::from({4}, b)),
                       doctest::Contains("linalg.solve: A of shape [2, 2] and B of shape [4] do not match"), tp::Error);
  CHECK_THROWS_WITH_AS(la::svd(tp::Tensor::from({4}, b)), doctest::Contains("linalg.svd: expects a matrix"), tp::Error);
  // NaN in the last matrix of a batch is refused before the first one is decomposed.
  std::vector<float> bad(g.begin(), g.begin() + 8);
  bad[7] = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH_AS(la::svdvals(tp::Tensor::from({2, 2, 2}, bad.data())),
                       doctest::Contains("linalg.svdvals: input contains NaN or Inf (element 7"), tp::Error);
  CHECK_THROWS_WITH_AS(la::inv(tp::Tensor::zeros({2, 3})), doctest::Contains("linalg.inv: expects square matrices, got shape [2, 3]"), tp::Error);
  const auto lr = la::svd_lowrank(tp::Tensor::from({5, 4}, g.data()), 2, 1, 7);
  CHECK(lr.U.shape() == tp::Shape{5, 2});
  CHECK(lr.S.shape() == tp::Shape{2});
  CHECK(lr.V.shape() == tp::Shape{4, 2});
}

TEST_CASE("empty matrices give empty factors and zero norms") {
  const tp::Tensor A = tp::Tensor::zeros({0, 3});
  const auto r = la::svd(A);
  CHECK(r.U.shape() == tp::Shape{0, 0});
  CHECK(r.S.shape() == tp::Shape{0});
  CHECK(r.Vh.shape() == tp::Shape{0, 3});
  CHECK(la::svdvals(tp::Tensor::zeros({3, 0})).shape() == tp::Shape{0});
  CHECK(la::qr(A).R.shape() == tp::Shape{0, 3});
  CHECK(la::eigh(tp::Tensor::zeros({0, 0})).eigenvalues.shape() == tp::Shape{0});
  CHECK(la::det(tp::Tensor::zeros({0, 0})).item() == 1.0f);
  CHECK(la::matrix_rank(A).item() == 0.0f);
  CHECK(la::matrix_norm(A, "2").item() == 0.0f);
  CHECK(la::svd(tp::Tensor::zeros({2, 0, 4})).S.shape() == tp::Shape{2, 0});
}

namespace {

// Checks the issue's bar on the SVD and (for square symmetric input) eigh of A, and that svdvals
// agrees with svd, for matrices built here rather than drawn from a fixture.
void check_decompositions(const std::string& name, const std::vector<float>& A, int64_t m, int64_t n, bool symmetric) {
  const int64_t k = std::min(m, n);
  std::vector<float> U(static_cast<size_t>(m * k)), S(static_cast<size_t>(k)), Vh(static_cast<size_t>(k * n)), S2(static_cast<size_t>(k));
  la::svd(A.data(), m, n, U.data(), S.data(), Vh.data());
  la::svdvals(A.data(), m, n, S2.data());
  double err = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = -double(A[size_t(i * n + j)]);
      for (int64_t p = 0; p < k; ++p) s += double(U[size_t(i * k + p)]) * S[size_t(p)] * Vh[size_t(p * n + j)];
      err += s * s;
    }
  CHECK_MESSAGE(std::sqrt(err) <= 1e-5 * fro(A), name, ": ||A - U S Vh|| / ||A|| = ", std::sqrt(err) / fro(A));
  CHECK_MESSAGE(orthogonality_error(U, m, k) <= 1e-4, name, ": U^T U");
  CHECK_MESSAGE(orthogonality_error(transpose(Vh, k, n), n, k) <= 1e-4, name, ": Vh Vh^T");
  for (int64_t i = 0; i < k; ++i) CHECK_MESSAGE(std::fabs(S[size_t(i)] - S2[size_t(i)]) <= 2e-5 * S[0], name, ": svdvals ", i);
  if (!symmetric) return;
  std::vector<float> w(static_cast<size_t>(n)), V(static_cast<size_t>(n * n));
  la::eigh(A.data(), n, w.data(), V.data());
  CHECK_MESSAGE(eigh_residual(A, n, w, V) <= 1e-4 * fro(A), name, ": ||AV - V Lambda|| / ||A||");
  CHECK_MESSAGE(orthogonality_error(V, n, n) <= 1e-4, name, ": V^T V");
}

}  // namespace

TEST_CASE("larger random matrices: a 160x120 SVD and a 150x150 eigh with clustered eigenvalues meet the bar") {
  check_decompositions("Gaussian 160x120", splitmix_gaussian(31, 160 * 120), 160, 120, false);
  // Eigenvalues in tight clusters (1 +- 1e-7, 2 +- 1e-7, ...) are the hard case for QL deflation.
  const int64_t k = 150;
  const auto G = splitmix_gaussian(41, k * k);
  std::vector<float> Q(static_cast<size_t>(k * k)), R(static_cast<size_t>(k * k));
  la::qr(G.data(), k, k, Q.data(), R.data());
  std::vector<float> B(static_cast<size_t>(k * k), 0.0f);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(Q[size_t(i * k + p)]) * (1 + p % 5 + 1e-7 * p) * Q[size_t(j * k + p)];
      B[size_t(i * k + j)] = float(s);
    }
  std::vector<float> w(static_cast<size_t>(k)), V(static_cast<size_t>(k * k));
  la::eigh(B.data(), k, w.data(), V.data());
  for (int64_t i = 0; i < k; ++i) CHECK(std::fabs(w[size_t(i)] - double(1 + i / 30)) <= 2e-5 * 5 + 1e-6);
  CHECK(orthogonality_error(V, k, k) <= 1e-4);
}

TEST_CASE("every QR iteration is bounded: exceeding the sweep budget is a clear error, never a hang") {
  namespace d = tp::linalg::detail;
  std::vector<double> diag = {3, 2, 1}, off = {1, 1};
  CHECK_THROWS_WITH_AS(d::bidiagonal_svd(diag, off, nullptr, nullptr, 0),
                       doctest::Contains("linalg.svd: the bidiagonal QR iteration did not converge in 0 sweeps"), tp::Error);
  d::ColMat W(3, 3);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) W(i, j) = 1.0 / (1 + i + j);
  std::vector<double> w;
  CHECK_THROWS_WITH_AS(d::symmetric_eig(W, w, nullptr, 0),
                       doctest::Contains("linalg.eigh: the tridiagonal QL iteration did not converge in 0 iterations"), tp::Error);
  // With the default budgets the same problems converge.
  diag = {3, 2, 1};
  off = {1, 1};
  d::bidiagonal_svd(diag, off, nullptr, nullptr);
  CHECK(diag[0] > diag[1]);
}


TEST_CASE("hard matrices: all-ones (rank 1), Kahan, Hilbert, graded rows, Wilkinson W21+") {
  // All-ones: the reductions push rounding noise down to 1e-160 and below, where unscaled squares
  // underflow (reflectors lose orthogonality) and a purely relative QL deflation test never fires.
  check_decompositions("all-ones 200x200", std::vector<float>(200 * 200, 1.0f), 200, 200, true);
  const int64_t n = 60;
  std::vector<float> K(size_t(n * n), 0.0f), H(size_t(n * n)), W(21 * 21, 0.0f), G(40 * 24);
  const double c = std::cos(1.2), s = std::sin(1.2);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (j >= i) K[size_t(i * n + j)] = float(std::pow(s, double(i)) * (i == j ? 1.0 : -c));
      H[size_t(i * n + j)] = 1.0f / float(i + j + 1);
    }
  check_decompositions("Kahan 60x60", K, n, n, false);
  check_decompositions("Hilbert 60x60", H, n, n, true);
  const auto g = splitmix_gaussian(51, 40 * 24);
  for (int64_t i = 0; i < 40; ++i)
    for (int64_t j = 0; j < 24; ++j) G[size_t(i * 24 + j)] = g[size_t(i * 24 + j)] * float(std::pow(10.0, double(i % 12) * 5 - 30));
  check_decompositions("rows graded 1e-30 .. 1e25", G, 40, 24, false);
  for (int64_t i = 0; i < 21; ++i) {
    W[size_t(i * 21 + i)] = float(std::abs(10 - i));
    if (i < 20) W[size_t(i * 21 + i + 1)] = W[size_t((i + 1) * 21 + i)] = 1.0f;
  }
  check_decompositions("Wilkinson W21+", W, 21, 21, true);
}

TEST_CASE("svd meets the bar on square matrices with clusters on either side of the switch from inverse iteration to rotations") {
  // 200 x 200: inverse iteration's Gram-Schmidt pairs within clusters against n^2 / 8 = 5000. A cluster
  // of 90 equal values (4005 pairs) stays with inverse iteration; 150 (11175 pairs) and 199 go to the QR
  // rotations. Either way the bar holds.
  for (const int64_t c : {90, 150, 199}) {
    std::vector<double> sigma(200);
    for (int64_t i = 0; i < 200; ++i) sigma[size_t(i)] = i < c ? 2.0 : 1.5 - 0.0125 * double(i - c);  // gaps 4x 1e-3 ||B||
    check_decompositions("200x200 with " + std::to_string(c) + " equal singular values", with_spectrum(200, 200, sigma, 70 + uint64_t(c)), 200, 200, false);
  }
}

TEST_CASE("svd meets the bar and gives the spectrum on either side of the root-free values' bisection cap") {
  // 128 x 128 (inverse iteration's route): values below ~8 sigma_1 / n are bisected on TGK, at most
  // n / 8 + 16 = 32 of them, else the QR sweeps find the values. k values geometric in [1e-6, 1e-3]
  // (near 0: bisected), the rest spread over [0.5, 1]; k = 1, 32 (taken) and 33 (declined). The values
  // come from the float32 matrix within its rounding, ~1e-7 sigma_1 (2e-6 allowed).
  for (const int64_t k : {1, 32, 33}) {
    std::vector<double> sigma(128);
    for (int64_t i = 0; i < 128; ++i)
      sigma[size_t(i)] = i < 128 - k ? 1.0 - 0.5 * double(i) / double(128 - k)
                                     : std::pow(10.0, -3.0 - 3.0 * double(i - (128 - k)) / double(std::max<int64_t>(k - 1, 1)));
    const std::string name = "128x128 with " + std::to_string(k) + " values in [1e-6, 1e-3]";
    const std::vector<float> A = with_spectrum(128, 128, sigma, 80 + uint64_t(k));
    check_decompositions(name, A, 128, 128, false);
    std::vector<float> U(128 * 128), S(128), Vh(128 * 128);
    la::svd(A.data(), 128, 128, U.data(), S.data(), Vh.data());
    for (int64_t i = 0; i < 128; ++i) CHECK_MESSAGE(std::fabs(S[size_t(i)] - sigma[size_t(i)]) <= 2e-6, name, ": value ", i);
  }
}

TEST_CASE("svd of a matrix at least twice as tall as wide, from 96 columns, goes through the blocked QR and meets the bar") {
  std::vector<double> ill(150), rank10(150, 0.0);
  for (int64_t i = 0; i < 150; ++i) ill[size_t(i)] = std::pow(10.0, -6.0 * double(i) / 149.0);
  for (int64_t i = 0; i < 10; ++i) rank10[size_t(i)] = 1.0 + double(i);
  auto ill_A = with_spectrum(300, 150, ill, 61);
  check_decompositions("Gaussian 300x130", splitmix_gaussian(60, 300 * 130), 300, 130, false);
  check_decompositions("Gaussian wide 100x250", splitmix_gaussian(62, 100 * 250), 100, 250, false);
  check_decompositions("ill-conditioned 300x150, sigma 1 .. 1e-6", ill_A, 300, 150, false);
  for (float& x : ill_A) x *= 1e8f;
  check_decompositions("ill-conditioned, scaled by 1e8", ill_A, 300, 150, false);
  check_decompositions("rank 10 of 300x150", with_spectrum(300, 150, rank10, 63), 300, 150, false);
}

TEST_CASE("a rotation log applies its rotations in row blocks exactly as one at a time, across flushes and threads") {
  // 130 rows (batched, with a partial last block of 32), 40 columns; 3000 rotations of random column
  // pairs and some sign flips, recorded with room for only 7 at a time, against rotate() applied at once;
  // on 1 and on 3 threads (the row blocks split unevenly), which must give the same bits.
  using tp::linalg::detail::ColMat;
  const int64_t rows = 130, cols = 40;
  const auto g = splitmix_gaussian(71, rows * cols + 4 * 3000);
  ColMat A(rows, cols), B(rows, cols);
  for (int64_t i = 0; i < rows * cols; ++i) A.a[size_t(i)] = B.a[size_t(i)] = g[size_t(i)];
  ColMat B3 = B;
  tp::linalg::detail::RotationLog log(&B, 7), log3(&B3, 7);
  for (int64_t r = 0; r < 3000; ++r) {
    const float* u = g.data() + rows * cols + 4 * r;
    const int64_t i = int64_t(std::fabs(u[0]) * 1000) % cols, j = (i + 1 + int64_t(std::fabs(u[1]) * 1000) % (cols - 1)) % cols;
    if (r % 97 == 0) {
      log.negate_column(i);
      log3.negate_column(i);
      for (int64_t k = 0; k < rows; ++k) A(k, i) = -A(k, i);
      continue;
    }
    const double t = std::atan2(double(u[2]), double(u[3])), c = std::cos(t), s = std::sin(t);
    log.rotate_columns(i, j, c, s);
    tp::kernels::set_sgemm_threads(3);
    log3.rotate_columns(i, j, c, s);  // flushes (every 7th) on 3 threads
    tp::kernels::set_sgemm_threads(1);
    tp::linalg::detail::rotate(A.col(i), A.col(j), rows, c, s);
  }
  log.flush();
  tp::kernels::set_sgemm_threads(3);
  log3.flush();
  tp::kernels::set_sgemm_threads(1);
  double diff = 0;
  for (size_t k = 0; k < A.a.size(); ++k) diff = std::max(diff, std::fabs(A.a[k] - B.a[k]));
  CHECK(diff <= 1e-12);
  CHECK(B3.a == B.a);
}

TEST_CASE("the double matrix product gives the bits of a plain sum over p in order, on every edge of its 4x4 blocks") {
  using tp::linalg::detail::ColMat;
  const std::vector<std::array<int64_t, 3>> shapes = {{1, 1, 1}, {7, 5, 3}, {9, 13, 6}, {64, 64, 64}, {1030, 67, 64}, {4, 4, 0}};
  for (const auto& shape : shapes) {
    const int64_t m = shape[0], k = shape[1], n = shape[2];  // not a structured binding: CAPTURE captures it
    CAPTURE(m);
    CAPTURE(k);
    CAPTURE(n);
    const auto g = splitmix_gaussian(uint64_t(m * 1000 + k * 10 + n), m * k + k * n);
    ColMat A(m, k), B(k, n);
    for (int64_t i = 0; i < m * k; ++i) A.a[size_t(i)] = g[size_t(i)];
    for (int64_t i = 0; i < k * n; ++i) B.a[size_t(i)] = g[size_t(m * k + i)];
    const ColMat C = tp::linalg::detail::multiply(A, B);
    REQUIRE(C.rows == m);
    REQUIRE(C.cols == n);
    int64_t mismatches = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0.0;
        for (int64_t p = 0; p < k; ++p) s += A(i, p) * B(p, j);
        mismatches += C(i, j) != s;
      }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("svdvals split over threads (Gram matrix and tridiagonalization) gives the same bits as one thread, tall and wide") {
  // 700x300 and 250x600 split the Gram matrix's panel fill and triangle tiles and the first ~60 steps
  // of the tridiagonalization (each above its split threshold); 3 threads give uneven shares. A changed
  // summation order would show in the last bits.
  for (const auto& shape : std::vector<std::pair<int64_t, int64_t>>{{700, 300}, {250, 600}}) {
    const int64_t m = shape.first, n = shape.second;
    CAPTURE(m);
    const auto A = splitmix_gaussian(uint64_t(m + n), m * n);
    std::vector<double> one, split;
    tp::kernels::set_sgemm_threads(1);
    tp::linalg::detail::svdvals_double(A.data(), m, n, one);
    for (int threads : {2, 3}) {
      CAPTURE(threads);
      tp::kernels::set_sgemm_threads(threads);
      tp::linalg::detail::svdvals_double(A.data(), m, n, split);
      tp::kernels::set_sgemm_threads(1);
      CHECK(split == one);
    }
    const tp::linalg::detail::ColMat G = tp::linalg::detail::gram_lower_rows(A.data(), m, n);
    tp::kernels::set_sgemm_threads(3);
    const tp::linalg::detail::ColMat G3 = tp::linalg::detail::gram_lower_rows(A.data(), m, n);
    tp::kernels::set_sgemm_threads(1);
    CHECK(G3.a == G.a);
  }
}

TEST_CASE("the double Gram matrix's SIMD tiles give the bits of their scalar reference, every tail shape") {
  // The scalar reference of gram_tile (linalg_svdvals.cpp), from A itself: per panel of kGramRows rows, the
  // even rows' and the odd rows' products summed apart in row order, then added. Row counts around the
  // panel and odd (a zero row pads the last pair), column counts around the 4-column slivers.
  const int64_t panel = tp::linalg::detail::kGramRows;
  for (int64_t m : {1, 2, 3, 255, 256, 257, 513}) {
    for (int64_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 150}) {  // 150: three 64-column blocks of tiles, the last partial
      CAPTURE(m);
      CAPTURE(n);
      const auto A = splitmix_gaussian(uint64_t(100 * m + n), m * n);
      const tp::linalg::detail::ColMat G = tp::linalg::detail::gram_lower_rows(A.data(), m, n);
      int64_t differ = 0;
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
          double want = 0.0;
          for (int64_t r0 = 0; r0 < m && i >= j; r0 += panel) {  // the upper part stays 0
            double even_rows = 0.0, odd_rows = 0.0;
            for (int64_t p = r0; p < std::min(m, r0 + panel); ++p)
              (p % 2 == 0 ? even_rows : odd_rows) += double(A[size_t(p * n + i)]) * double(A[size_t(p * n + j)]);
            want += even_rows + odd_rows;
          }
          differ += G(i, j) != want;
        }
      CHECK(differ == 0);
    }
  }
}

TEST_CASE("svdvals of a wide matrix (A A^T, its rows filled as panel columns) are those of its transpose (A^T A), bit for bit") {
  // The two fills put the same values in the same panel places, so the Gram matrices and values agree exactly.
  for (const auto& shape : std::vector<std::pair<int64_t, int64_t>>{{1, 5}, {3, 300}, {7, 257}, {130, 513}}) {
    const int64_t m = shape.first, n = shape.second;
    CAPTURE(m);
    CAPTURE(n);
    const auto A = splitmix_gaussian(uint64_t(7 * m + n), m * n);
    std::vector<float> At(size_t(m * n));
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) At[size_t(j * m + i)] = A[size_t(i * n + j)];
    std::vector<double> wide, tall;
    tp::linalg::detail::svdvals_double(A.data(), m, n, wide);
    tp::linalg::detail::svdvals_double(At.data(), n, m, tall);
    CHECK(wide.size() == size_t(m));
    CHECK(wide == tall);
  }
}

TEST_CASE("float32 svd and eigh through the public entries give the same bits on 1, 2 and 3 threads, tall and wide") {
  // What a reader calls: tp::linalg::eigh (n = 420: the blocked tridiagonalization with float updates, inverse
  // iteration, the back-transformation) and tp::linalg::svd of a tall (500, 300) and of the same data read as
  // wide (300, 500; the transposed route), with every GEMM split (min_flops 0) and 3 threads' uneven shares.
  // The existing split test calls svd_double and symmetric_eig; this one also covers the entries' own passes
  // (loads, copies, conversions), which a split over threads must leave bit for bit as one thread does.
  const int64_t n = 420;
  const auto G = splitmix_gaussian(77, n * n);
  std::vector<float> Sym(size_t(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) Sym[size_t(i * n + j)] = G[size_t(i * n + j)] + G[size_t(j * n + i)];
  struct Out {
    std::vector<float> w, V, U, S, Vh, Ut, St, Vht;
  };
  const int64_t m = 500, k = 300;  // svd of (m, k), then of its transpose (k, m)
  const auto A = splitmix_gaussian(78, m * k);
  auto run = [&](int threads) {
    Out o{std::vector<float>(size_t(n)), std::vector<float>(size_t(n * n)), std::vector<float>(size_t(m * k)),
          std::vector<float>(size_t(k)), std::vector<float>(size_t(k * k)), std::vector<float>(size_t(k * k)),
          std::vector<float>(size_t(k)), std::vector<float>(size_t(k * m))};
    tp::kernels::set_sgemm_threads(threads, 0);
    la::eigh(Sym.data(), n, o.w.data(), o.V.data());
    la::svd(A.data(), m, k, o.U.data(), o.S.data(), o.Vh.data());
    la::svd(A.data(), k, m, o.Ut.data(), o.St.data(), o.Vht.data());  // A's data read as (k, m): wide
    tp::kernels::set_sgemm_threads(1);
    return o;
  };
  const Out one = run(1);
  // An oracle for the 1-thread result, so a pass that wrote nothing on every thread count cannot pass:
  // eigh's A V = V diag(w) to float accuracy.
  double resid = 0.0;
  for (int64_t i = 0; i < n; i += 7)
    for (int64_t j = 0; j < n; j += 5) {
      double av = 0.0;
      for (int64_t p = 0; p < n; ++p) av += double(Sym[size_t(i * n + p)]) * double(one.V[size_t(p * n + j)]);
      resid = std::max(resid, std::fabs(av - double(one.w[size_t(j)]) * double(one.V[size_t(i * n + j)])));
    }
  CHECK(resid <= 1e-4 * std::fabs(double(one.w[size_t(n - 1)])));
  // svd's U S Vh = A (rows, cols) with k values, every di-th row and dj-th column: the largest error.
  const auto recon_error = [&](const std::vector<float>& U, const std::vector<float>& S, const std::vector<float>& Vh,
                               int64_t rows, int64_t cols, int64_t di, int64_t dj) {
    double err = 0.0;
    for (int64_t i = 0; i < rows; i += di)
      for (int64_t j = 0; j < cols; j += dj) {
        double a = 0.0;
        for (int64_t p = 0; p < k; ++p) a += double(U[size_t(i * k + p)]) * double(S[size_t(p)]) * double(Vh[size_t(p * cols + j)]);
        err = std::max(err, std::fabs(a - double(A[size_t(i * cols + j)])));
      }
    return err;
  };
  CHECK(recon_error(one.U, one.S, one.Vh, m, k, 11, 3) <= 1e-4 * double(one.S[0]));
  // And the wide one's, A read as (k, m): its back-transformation writes Ut and Vht directly, the factors'
  // roles swapped (A^T's Q is Vht's rows).
  CHECK(recon_error(one.Ut, one.St, one.Vht, k, m, 7, 5) <= 1e-4 * double(one.St[0]));
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    const Out o = run(threads);
    CHECK(o.w == one.w);
    CHECK(o.V == one.V);
    CHECK(o.U == one.U);
    CHECK(o.S == one.S);
    CHECK(o.Vh == one.Vh);
    CHECK(o.Ut == one.Ut);
    CHECK(o.St == one.St);
    CHECK(o.Vht == one.Vht);
  }
}

TEST_CASE("float32 svd and eigh give the same bits on 1, 2 and 3 threads on their other routes: a split tridiagonal, the rotations") {
  // eigh of diag(S1, S2) (two symmetric 150 x 150 blocks): the tridiagonal splits in two, each block's values
  // found beside the back-transformation's preparation, its vectors by inverse iteration. svd of an orthogonal
  // Q (200 x 200, from qr): one cluster of 200 values, too many pairs for inverse iteration, so the prepared
  // blocks form Q and P themselves and the QR rotations follow. Oracles: A V = V diag(w) and U S Vh = A.
  const int64_t h = 150, n = 2 * h, k = 200;
  const auto G = splitmix_gaussian(91, n * n);
  std::vector<float> Sym(size_t(n * n), 0.0f);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if ((i < h) == (j < h)) Sym[size_t(i * n + j)] = G[size_t(i * n + j)] + G[size_t(j * n + i)];
  const auto Gk = splitmix_gaussian(92, k * k);
  std::vector<float> Q(size_t(k * k)), R(size_t(k * k));
  la::qr(Gk.data(), k, k, Q.data(), R.data());
  auto run = [&](int threads) {
    std::vector<float> w(static_cast<size_t>(n)), V(static_cast<size_t>(n * n)), U(static_cast<size_t>(k * k)),
        S(static_cast<size_t>(k)), Vh(static_cast<size_t>(k * k));
    tp::kernels::set_sgemm_threads(threads, 0);
    la::eigh(Sym.data(), n, w.data(), V.data());
    la::svd(Q.data(), k, k, U.data(), S.data(), Vh.data());
    tp::kernels::set_sgemm_threads(1);
    return std::vector<std::vector<float>>{w, V, U, S, Vh};
  };
  const auto one = run(1);
  const std::vector<float>&w = one[0], &V = one[1], &U = one[2], &S = one[3], &Vh = one[4];
  double resid = 0.0, err = 0.0;
  for (int64_t i = 0; i < n; i += 7)
    for (int64_t j = 0; j < n; j += 5) {
      double av = 0.0;
      for (int64_t p = 0; p < n; ++p) av += double(Sym[size_t(i * n + p)]) * double(V[size_t(p * n + j)]);
      resid = std::max(resid, std::fabs(av - double(w[size_t(j)]) * double(V[size_t(i * n + j)])));
    }
  CHECK(resid <= 1e-4 * std::fabs(double(w[size_t(n - 1)])));
  for (int64_t i = 0; i < k; i += 3)
    for (int64_t j = 0; j < k; j += 7) {
      double a = 0.0;
      for (int64_t p = 0; p < k; ++p) a += double(U[size_t(i * k + p)]) * double(S[size_t(p)]) * double(Vh[size_t(p * k + j)]);
      err = std::max(err, std::fabs(a - double(Q[size_t(i * k + j)])));
    }
  CHECK(err <= 1e-5);
  CHECK(S[0] - S[size_t(k - 1)] < 1e-5f);  // one cluster: the route inverse iteration declines
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    CHECK(run(threads) == one);
  }
}

TEST_CASE("svd and eigh split over threads (bidiagonalization, tridiagonalization, rotations) give the same bits as one thread") {
  // 400x300: the bidiagonalization's first ~110 steps split (from 192 trailing columns), and the
  // rotations of U and V split by row blocks; eigh of a 300x300 symmetric matrix splits its reduction.
  const int64_t m = 400, n = 300;
  const auto A = splitmix_gaussian(2024, m * n);
  std::vector<float> Sym(size_t(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) Sym[size_t(i * n + j)] = A[size_t(i * n + j)] + A[size_t(j * n + i)];
  using tp::linalg::detail::ColMat;
  auto run = [&](int threads, std::vector<double>& s, ColMat& U, ColMat& V, std::vector<double>& w, ColMat& Z) {
    tp::kernels::set_sgemm_threads(threads);
    tp::linalg::detail::svd_double(A.data(), m, n, s, &U, &V);
    ColMat W(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j <= i; ++j) W(i, j) = Sym[size_t(i * n + j)];
    tp::linalg::detail::symmetric_eig(W, w, &Z);
    tp::kernels::set_sgemm_threads(1);
  };
  std::vector<double> s1, w1;
  ColMat U1, V1, Z1;
  run(1, s1, U1, V1, w1, Z1);
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    std::vector<double> s, w;
    ColMat U, V, Z;
    run(threads, s, U, V, w, Z);
    CHECK(s == s1);
    CHECK(U.a == U1.a);
    CHECK(V.a == V1.a);
    CHECK(w == w1);
    CHECK(Z.a == Z1.a);
  }
}

// ||QR - A||_F / ||A||_F in double, with A, Q, R first scaled by 2^scale_up (exact) so that a
// denormal-range A does not hide the error under double's own underflow.
static double qr_relative_error(const std::vector<float>& A, int64_t m, int64_t n, int scale_up = 0) {
  const int64_t k = std::min(m, n);
  std::vector<float> Q(static_cast<size_t>(m * k)), R(static_cast<size_t>(k * n));
  la::qr(A.data(), m, n, Q.data(), R.data());
  double err = 0, norm = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(Q[size_t(i * k + p)]) * std::ldexp(double(R[size_t(p * n + j)]), scale_up);
      const double a = std::ldexp(double(A[size_t(i * n + j)]), scale_up);
      err += (s - a) * (s - a);
      norm += a * a;
    }
  return std::sqrt(err / norm);
}

TEST_CASE("blocked qr of patterned rank-1 matrices meets the bar: rounding left under a column's float resolution is not reflected") {
  // All ones and rows of alternating sign: every column is the same up to sign, and reflectors built
  // from the rounding left below the first one summed their float updates coherently (1.5e-5).
  std::vector<float> alt(512 * 512);
  for (int64_t i = 0; i < 512; ++i)
    for (int64_t j = 0; j < 512; ++j) alt[size_t(i * 512 + j)] = i % 2 ? -1.0f : 1.0f;
  const double ones_error = qr_relative_error(std::vector<float>(512 * 512, 1.0f), 512, 512);
  CHECK_MESSAGE(ones_error <= 1e-5, "all-ones 512x512: ||QR - A|| / ||A|| = ", ones_error);
  const double alt_error = qr_relative_error(alt, 512, 512);
  CHECK_MESSAGE(alt_error <= 1e-5, "alternating rows 512x512: ||QR - A|| / ||A|| = ", alt_error);
  check_decompositions("all-ones 384x192 (tall svd through the blocked QR)", std::vector<float>(384 * 192, 1.0f), 384, 192, false);
}

TEST_CASE("the float32 GEMM paths scale a denormal-range matrix by a power of two: qr, tall svd and svd_lowrank meet the bar") {
  auto tiny = [](int64_t count, uint64_t seed) {
    auto A = splitmix_gaussian(seed, count);
    for (float& x : A) x = std::ldexp(x, -133);  // ~1e-40: float32 denormals
    return A;
  };
  const auto Aq = tiny(128 * 128, 71);
  const double e = qr_relative_error(Aq, 128, 128, 133);
  CHECK_MESSAGE(e <= 1e-5, "qr of a denormal 128x128: ||QR - A|| / ||A|| = ", e);
  // Singular values scale exactly with A: those of 2^-133 A are 2^-133 those of A (to float rounding).
  const auto G = splitmix_gaussian(72, 300 * 100);
  const auto At = tiny(300 * 100, 72);
  std::vector<float> U(300 * 100), S(100), Vh(100 * 100), Ut(300 * 100), St(100), Vt(100 * 100);
  la::svd(G.data(), 300, 100, U.data(), S.data(), Vh.data());
  la::svd(At.data(), 300, 100, Ut.data(), St.data(), Vt.data());
  for (int64_t i = 0; i < 100; ++i)
    CHECK_MESSAGE(std::fabs(std::ldexp(double(St[size_t(i)]), 133) - S[size_t(i)]) <= 2e-5 * S[0], "svd of 2^-133 A, sigma ", i);
  std::vector<float> omega = splitmix_gaussian(73, 100 * 8), Ul(300 * 8), Sl(8), Vl(100 * 8), Ult(300 * 8), Slt(8), Vlt(100 * 8);
  la::svd_lowrank(G.data(), 300, 100, 8, 2, omega.data(), Ul.data(), Sl.data(), Vl.data());
  la::svd_lowrank(At.data(), 300, 100, 8, 2, omega.data(), Ult.data(), Slt.data(), Vlt.data());
  for (int64_t i = 0; i < 8; ++i)
    CHECK_MESSAGE(std::fabs(std::ldexp(double(Slt[size_t(i)]), 133) - Sl[size_t(i)]) <= 1e-5 * Sl[0], "svd_lowrank of 2^-133 A, sigma ", i);
}

TEST_CASE("the GEMM scale exponent brings the largest magnitude into [1, 2) wherever it sits, and leaves 2^-32..2^32 alone") {
  using tp::linalg::detail::gemm_scale_exponent;
  // The largest entry in every SIMD lane and in the scalar tail (count 37 = two blocks of 16 and 5).
  for (int64_t at = 0; at < 37; ++at)
    for (float big : {0x1p-40f, -0x1p-40f, 0x1.8p40f, -0x1p-149f * 3}) {
      std::vector<float> A(37, big / 4);
      A[size_t(at)] = big;
      const int e = gemm_scale_exponent(A.data(), 37);
      const float scaled = std::fabs(std::ldexp(big, e));
      CHECK_MESSAGE((scaled >= 1.0f && scaled < 2.0f), "max |A| = ", big, " at ", at, " scaled by 2^", e);
    }
  const std::vector<float> inside = {0.5f, -3.0f, 0x1p31f, 0x1p-32f}, zero(20, 0.0f);
  CHECK(gemm_scale_exponent(inside.data(), 4) == 0);
  CHECK(gemm_scale_exponent(zero.data(), 20) == 0);
}

TEST_CASE("det, inv and solve take a graded but well-posed matrix (per-row scale) and still call a numerically singular one singular") {
  const float D[4] = {1.0f, 0.0f, 0.0f, 1e-7f};
  float Di[4], x[2];
  const float b[2] = {1.0f, 1e-7f};
  CHECK(std::fabs(la::det(D, 2) - 1e-7) <= 1e-13);
  la::inv(D, 2, Di);
  CHECK(std::fabs(Di[3] - 1e7f) <= 1.0f);
  la::solve(D, 2, b, 1, x);
  CHECK(std::fabs(x[1] - 1.0f) <= 1e-6f);
  // A rank-4 product of float32 factors, 8x8: LU's last pivots are rounding, not data.
  const auto B = splitmix_gaussian(74, 8 * 4), C = splitmix_gaussian(75, 4 * 8);
  std::vector<float> P(64, 0.0f), out(64);
  for (int64_t i = 0; i < 8; ++i)
    for (int64_t j = 0; j < 8; ++j)
      for (int64_t p = 0; p < 4; ++p) P[size_t(i * 8 + j)] += B[size_t(i * 4 + p)] * C[size_t(p * 8 + j)];
  CHECK(la::det(P.data(), 8) == 0.0);
  CHECK_THROWS_WITH_AS(la::inv(P.data(), 8, out.data()), doctest::Contains("singular"), tp::Error);
  // Columns graded from 1 to 1e-7 (A = G diag(10^-j)): well-posed column by column.
  const int64_t n = 8;
  const auto G = splitmix_gaussian(76, n * n);
  std::vector<float> Ag(size_t(n * n)), Ai(size_t(n * n));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) Ag[size_t(i * n + j)] = G[size_t(i * n + j)] * float(std::pow(10.0, -double(j)));
  la::inv(Ag.data(), n, Ai.data());
  double worst = 0;  // ||A Ai - I||_max
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = i == j ? -1.0 : 0.0;
      for (int64_t p = 0; p < n; ++p) s += double(Ag[size_t(i * n + p)]) * Ai[size_t(p * n + j)];
      worst = std::max(worst, std::fabs(s));
    }
  CHECK_MESSAGE(worst <= 1e-4, "columns graded 1 .. 1e-7: ||A inv(A) - I||_max = ", worst);
  // The inverse of a matrix of denormals is beyond float32: a clear error, not Inf.
  const float T[4] = {1e-40f, 0.0f, 0.0f, 1e-40f};
  CHECK_THROWS_WITH_AS(la::inv(T, 2, out.data()), doctest::Contains("beyond float32's range"), tp::Error);
}

TEST_CASE("the blocked tridiagonalization gives the unblocked one's tridiagonal and reflectors, panel edges included") {
  namespace d = tp::linalg::detail;
  for (int64_t n : {97, 128, 161}) {  // a 1-column last panel, whole panels, a partial one
    CAPTURE(n);
    const auto g = splitmix_gaussian(uint64_t(70 + n), n * n);
    d::ColMat W1(n, n), W2(n, n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j <= i; ++j) W1(i, j) = W2(i, j) = double(g[size_t(i * n + j)]) + g[size_t(j * n + i)];
    std::vector<double> d1, e1, t1, d2, e2, t2;
    d::tridiagonalize_unblocked(W1, d1, e1, t1);
    d::tridiagonalize_blocked(W2, d2, e2, t2);
    double scale = 0;
    for (double x : W1.a) scale = std::max(scale, std::fabs(x));
    for (int64_t i = 0; i < n; ++i) CHECK(std::fabs(d1[size_t(i)] - d2[size_t(i)]) <= 1e-12 * scale);
    for (int64_t i = 0; i + 1 < n; ++i) {
      CHECK(std::fabs(e1[size_t(i)] - e2[size_t(i)]) <= 1e-12 * scale);
      CHECK(std::fabs(t1[size_t(i)] - t2[size_t(i)]) <= 1e-10);
      for (int64_t r = i + 2; r < n; ++r) REQUIRE(std::fabs(W1(r, i) - W2(r, i)) <= 1e-10);
    }
  }
}

TEST_CASE("the blocked tridiagonalization's thread team gives one thread's bits, double and float updates, and the unblocked tridiagonal") {
  // n = 300: its first 3 panels (len >= kSplitFrom in every column) run as a team of 2 or 3 threads that
  // meet twice per column (run_team, team_sync), the rest on the caller; 3 threads share the 12 symv
  // chunks and the rows unevenly. Oracle: with double updates, the unblocked reduction's d and e; with float
  // updates, the trace and Frobenius norm it keeps.
  namespace d = tp::linalg::detail;
  const int64_t n = 300;
  const auto g = splitmix_gaussian(4242, n * n);
  d::ColMat A(n, n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i; ++j) A(i, j) = double(g[size_t(i * n + j)]) + g[size_t(j * n + i)];
  d::ColMat U = A;
  std::vector<double> du, eu, tu;
  d::tridiagonalize_unblocked(U, du, eu, tu);
  double scale = 0, frob2 = 0;  // max |A_ij| and ||A||_F^2
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = j; i < n; ++i) {
      scale = std::max(scale, std::fabs(A(i, j)));
      frob2 += (i == j ? 1 : 2) * A(i, j) * A(i, j);
    }
  for (bool float_updates : {false, true}) {
    CAPTURE(float_updates);
    struct Out {
      d::ColMat W;
      std::vector<double> dg, e, tau;
    };
    auto run = [&](int threads) {
      Out o{A, {}, {}, {}};
      tp::kernels::set_sgemm_threads(threads);
      d::tridiagonalize_blocked(o.W, o.dg, o.e, o.tau, float_updates);
      tp::kernels::set_sgemm_threads(1);
      return o;
    };
    const Out one = run(1);
    if (!float_updates) {
      for (int64_t i = 0; i < n; ++i) REQUIRE(std::fabs(one.dg[size_t(i)] - du[size_t(i)]) <= 1e-10 * scale);
      for (int64_t i = 0; i + 1 < n; ++i) REQUIRE(std::fabs(one.e[size_t(i)] - eu[size_t(i)]) <= 1e-10 * scale);
    } else {  // float32 rounding of the trailing matrix: the similarity's invariants, trace and Frobenius norm
      double tr = 0, fro = 0;
      for (int64_t i = 0; i < n; ++i) tr += one.dg[size_t(i)] - du[size_t(i)];
      for (int64_t i = 0; i < n; ++i) fro += one.dg[size_t(i)] * one.dg[size_t(i)] - du[size_t(i)] * du[size_t(i)];
      for (int64_t i = 0; i + 1 < n; ++i) fro += 2 * (one.e[size_t(i)] * one.e[size_t(i)] - eu[size_t(i)] * eu[size_t(i)]);
      CHECK(std::fabs(tr) <= 1e-5 * scale * n);
      CHECK(std::fabs(fro) <= 1e-5 * frob2);
    }
    for (int threads : {2, 3}) {
      CAPTURE(threads);
      const int64_t helper_parts = tp::detail::pool_counters().helper_parts;
      const Out o = run(threads);
#if TP_HAS_THREADS
      CHECK(tp::detail::pool_counters().helper_parts > helper_parts);  // the team ran (not the fallback)
#endif
      CHECK(o.W.a == one.W.a);
      CHECK(o.dg == one.dg);
      CHECK(o.e == one.e);
      CHECK(o.tau == one.tau);
    }
  }
}

TEST_CASE("the blocked bidiagonalization's thread team gives one thread's bits, double and float updates, square and tall") {
  // n = 300: the first 3 panels (n - k - 1 >= kSplitFrom in every column) run as a team of 2 or 3 threads
  // that meet 3 times per column (run_team, team_sync), each taking u and v on its own copy, its column
  // chunks of A^T u and A v, and its rows of X and of the next column; 3 threads share the 12 chunks and the
  // rows (m - k - 1, odd m) unevenly. Oracle: the reduction is orthogonal, so d and e keep ||A||_F.
  namespace d = tp::linalg::detail;
  for (int64_t m : {int64_t(300), int64_t(433)}) {
    CAPTURE(m);
    const int64_t n = 300;
    const auto g = splitmix_gaussian(4343, m * n);
    d::ColMat A(m, n);
    double frob2 = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) A(i, j) = g[size_t(i * n + j)], frob2 += A(i, j) * A(i, j);
    for (bool float_updates : {false, true}) {
      CAPTURE(float_updates);
      struct Out {
        d::ColMat W;
        std::vector<double> dg, e, tq, tp;
      };
      auto run = [&](int threads) {
        Out o{A, {}, {}, {}, {}};
        tp::kernels::set_sgemm_threads(threads);
        d::bidiagonal_reduce_blocked(o.W, o.dg, o.e, o.tq, o.tp, float_updates);
        tp::kernels::set_sgemm_threads(1);
        return o;
      };
      const Out one = run(1);
      double kept = 0;
      for (double x : one.dg) kept += x * x;
      for (double x : one.e) kept += x * x;
      CHECK(std::fabs(kept - frob2) <= (float_updates ? 1e-5 : 1e-12) * frob2);
      for (int threads : {2, 3}) {
        CAPTURE(threads);
        const int64_t helper_parts = tp::detail::pool_counters().helper_parts;
        const Out o = run(threads);
#if TP_HAS_THREADS
        CHECK(tp::detail::pool_counters().helper_parts > helper_parts);  // the team ran (not the fallback)
#endif
        CHECK(o.W.a == one.W.a);
        CHECK(o.dg == one.dg);
        CHECK(o.e == one.e);
        CHECK(o.tq == one.tq);
        CHECK(o.tp == one.tp);
      }
    }
  }
}

// Q diag(lambda(0..k-1)) Q^T for an orthogonal Q (k, k), summed in double: a symmetric matrix with a
// chosen spectrum.
template <class Lambda>
std::vector<float> with_spectrum(const std::vector<float>& Q, int64_t k, Lambda lambda) {
  std::vector<float> B(static_cast<size_t>(k * k));
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p) s += double(Q[size_t(i * k + p)]) * lambda(p) * Q[size_t(j * k + p)];
      B[size_t(i * k + j)] = float(s);
    }
  return B;
}

TEST_CASE("eigh from 96 rows (inverse iteration, blocked back-transformation) meets the bar on clustered and repeated spectra") {
  // Wilkinson W101+: pairs of eigenvalues equal to ~1e-14 relative, which inverse iteration must keep apart.
  const int64_t n = 101;
  std::vector<float> W(size_t(n * n), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    W[size_t(i * n + i)] = float(std::abs(50 - i));
    if (i + 1 < n) W[size_t(i * n + i + 1)] = W[size_t((i + 1) * n + i)] = 1.0f;
  }
  check_decompositions("Wilkinson W101+", W, n, n, true);
  // Q diag(lambda) Q^T with one eigenvalue repeated 60 times, a graded tail down to 1e-12, and a zero block.
  const int64_t k = 128;
  const auto G = splitmix_gaussian(91, k * k);
  std::vector<float> Q(static_cast<size_t>(k * k)), R(static_cast<size_t>(k * k));
  la::qr(G.data(), k, k, Q.data(), R.data());
  auto spectral = [&](auto lambda) { return with_spectrum(Q, k, lambda); };
  check_decompositions("eigenvalue 3 repeated 60 times", spectral([](int64_t p) { return p < 60 ? 3.0 : double(p) / 10; }), k, k, true);
  check_decompositions("graded 1 .. 1e-12", spectral([](int64_t p) { return std::pow(10.0, -12.0 * double(p) / (k - 1)); }), k, k, true);
  check_decompositions("identity", spectral([](int64_t) { return 1.0; }), k, k, true);
  // Block diagonal: the tridiagonal splits into unreduced blocks, each solved on its own.
  std::vector<float> D(static_cast<size_t>(k * k), 0.0f);
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j)
      if (i / 32 == j / 32) D[size_t(i * k + j)] = G[size_t(i * k + j)] + G[size_t(j * k + i)];
  check_decompositions("four 32x32 blocks", D, k, k, true);
}

// Reflectors for the back-transformation tests: the Householder QR of a Gaussian (m - shift, K) matrix,
// moved down by shift rows (shift 1: a tridiagonalization's layout, unit entry of reflector j at row j + 1),
// and their product Q (m, m) in double, one reflector at a time: the oracle.
struct Reflectors {
  tp::linalg::detail::ColMat V, Q;
  std::vector<double> tau;
};
static Reflectors gaussian_reflectors(int64_t m, int64_t K, int64_t shift, uint64_t seed) {
  using tp::linalg::detail::ColMat;
  const auto g = splitmix_gaussian(seed, (m - shift) * K);
  ColMat R(m - shift, K);
  for (int64_t i = 0; i < (m - shift) * K; ++i) R.a[size_t(i)] = g[size_t(i)];
  Reflectors r;
  tp::linalg::detail::householder_qr(R, r.tau);
  r.V = ColMat(m, int64_t(r.tau.size()));
  for (int64_t j = 0; j < r.V.cols; ++j)
    for (int64_t i = j + 1; i < m - shift; ++i) r.V(i + shift, j) = R(i, j);
  r.Q = ColMat::identity(m, m);
  std::vector<double> v;
  for (int64_t j = r.V.cols - 1; j >= 0; --j) {
    v.assign(r.V.col(j) + j + shift, r.V.col(j) + m);
    v[0] = 1.0;
    tp::linalg::detail::reflect_columns(r.Q, v.data(), m - j - shift, r.tau[size_t(j)], j + shift, 0, m);
  }
  return r;
}

TEST_CASE("the blocked back-transformation gives Q C and Q's first columns to float rounding, on every block and slab tail") {
  // (m, K, shift, cols, block, slab): blocks and slabs with tails of every length (block 4 on 37 reflectors
  // leaves 1; slab 5 on 23 columns leaves 3), a block of one reflector, one column (the GEMM's vector path),
  // K < m (a tall QR), no columns, and the defaults on sizes that are not multiples of them.
  using tp::linalg::detail::ColMat;
  const std::vector<std::array<int64_t, 6>> cases = {
      {37, 37, 0, 23, 4, 5}, {37, 36, 1, 23, 4, 5}, {37, 36, 1, 37, 5, 4}, {50, 20, 0, 50, 6, 7}, {50, 20, 0, 1, 3, 2},
      {41, 40, 1, 9, 8, 1},  {9, 9, 0, 0, 4, 4},    {300, 299, 1, 300, 0, 0}, {333, 130, 0, 70, 0, 0}};
  for (const auto& c : cases) {
    const int64_t m = c[0], K = c[1], shift = c[2], cols = c[3], block = c[4], slab = c[5];
    CAPTURE(m);
    CAPTURE(K);
    CAPTURE(shift);
    CAPTURE(cols);
    CAPTURE(block);
    CAPTURE(slab);
    const Reflectors r = gaussian_reflectors(m, K, shift, uint64_t(m * 7 + K + shift));
    const auto g = splitmix_gaussian(uint64_t(cols + 5), m * cols);
    ColMat C(m, cols);
    for (int64_t i = 0; i < m * cols; ++i) C.a[size_t(i)] = g[size_t(i)];
    const ColMat QC = tp::linalg::detail::apply_q_blocked(r.V, r.tau, shift, C, block, slab);
    const ColMat ref = tp::linalg::detail::multiply(r.Q, C);
    REQUIRE(QC.rows == m);
    REQUIRE(QC.cols == cols);
    // Each column of Q C has the norm of C's (Q is orthogonal): errors relative to that norm.
    double worst = 0.0;
    for (int64_t j = 0; j < cols; ++j) {
      double norm = 0.0, err = 0.0;
      for (int64_t i = 0; i < m; ++i) norm += C(i, j) * C(i, j), err = std::max(err, std::fabs(QC(i, j) - ref(i, j)));
      worst = std::max(worst, err / std::sqrt(norm));
    }
    CHECK(worst <= 1e-6);
    // Q's first k columns, k = K + shift (all of Q's columns the reflectors change), and their orthogonality.
    const int64_t k = std::min(m, K + shift + 3);
    const ColMat Q = tp::linalg::detail::form_q_blocked(r.V, r.tau, shift, k, block, slab);
    double qerr = 0.0, orth = 0.0;
    for (int64_t j = 0; j < k; ++j)
      for (int64_t i = 0; i < m; ++i) qerr = std::max(qerr, std::fabs(Q(i, j) - r.Q(i, j)));
    for (int64_t a = 0; a < k; ++a)
      for (int64_t b = 0; b < k; ++b)
        orth = std::max(orth, std::fabs(tp::linalg::detail::dot(Q.col(a), Q.col(b), m) - (a == b ? 1.0 : 0.0)));
    CHECK(qerr <= 1e-6);
    CHECK(orth <= 1e-6);
    // Threads take whole slabs (or split one slab's GEMMs): the bits do not change.
    tp::kernels::set_sgemm_threads(3, 0);
    const ColMat QC3 = tp::linalg::detail::apply_q_blocked(r.V, r.tau, shift, C, block, slab);
    const ColMat Q3 = tp::linalg::detail::form_q_blocked(r.V, r.tau, shift, k, block, slab);
    tp::kernels::set_sgemm_threads(1);
    CHECK(QC3.a == QC.a);
    CHECK(Q3.a == Q.a);
  }
}

TEST_CASE("the back-transformation's scratch survives calls, leaves no trace in their results, and can be released") {
  // A call after another of a different shape (the scratch then holds that call's Qv, V and Y) and a call
  // after a release (a fresh scratch) give the bits of the first call.
  using tp::linalg::detail::ColMat;
  namespace d = tp::linalg::detail;
  const Reflectors r = gaussian_reflectors(130, 129, 1, 11), other = gaussian_reflectors(97, 60, 0, 12);
  const auto g = splitmix_gaussian(13, 130 * 40);
  ColMat C(130, 40);
  for (int64_t i = 0; i < 130 * 40; ++i) C.a[size_t(i)] = g[size_t(i)];
  const ColMat QC = d::apply_q_blocked(r.V, r.tau, 1, C), Q = d::form_q_blocked(r.V, r.tau, 1, 130);
  CHECK(d::back_scratch_bytes() >= 130 * 130 * sizeof(float));  // kept: Q's 130 x 130 floats at least
  d::form_q_blocked(other.V, other.tau, 0, 97);
  CHECK(d::apply_q_blocked(r.V, r.tau, 1, C).a == QC.a);
  CHECK(d::form_q_blocked(r.V, r.tau, 1, 130).a == Q.a);
  d::release_back_scratch();
  CHECK(d::back_scratch_bytes() == 0);
  CHECK(d::form_q_blocked(r.V, r.tau, 1, 130).a == Q.a);
  CHECK(d::apply_q_blocked(r.V, r.tau, 1, C).a == QC.a);
}

// tridiag(-1, 2, -1) of order n: lambda_k = 2 - 2 cos(k pi / (n+1)), v_k(i) = sin(i k pi / (n+1)), k = 1..n.
static std::vector<double> second_difference_eigenvalues(int64_t n) {
  const double pi = std::acos(-1.0);
  std::vector<double> w(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) w[size_t(k)] = 2.0 - 2.0 * std::cos(double(k + 1) * pi / double(n + 1));
  return w;
}

// The largest 1 - |cos angle| between column k of Z (n, n; column k at Z + k*n) and v_{k+1} above.
static double worst_angle_to_second_difference_vectors(const double* Z, int64_t n) {
  const double pi = std::acos(-1.0);
  double worst = 0;
  for (int64_t k = 0; k < n; ++k) {
    double dotp = 0, nv = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double v = std::sin(double((i + 1) * (k + 1)) * pi / double(n + 1));
      dotp += v * Z[size_t(k * n + i)];
      nv += v * v;
    }
    worst = std::max(worst, 1.0 - std::fabs(dotp) / std::sqrt(nv));
  }
  return worst;
}

TEST_CASE("inverse iteration gives the closed-form eigenvectors of the second-difference matrix, and the TGK form's") {
  namespace d = tp::linalg::detail;
  const int64_t n = 200;
  std::vector<double> diag(size_t(n), 2.0), off(size_t(n - 1), -1.0), w = second_difference_eigenvalues(n);
  std::vector<double> Z(size_t(n * n));
  REQUIRE(d::tridiagonal_block_vectors(diag.data(), off.data(), n, w.data(), n, Z.data(), n, 7));
  CHECK(worst_angle_to_second_difference_vectors(Z.data(), n) <= 1e-12);
  // The SVD path's TGK form: zero diagonal, off-diagonal d_0, e_0, d_1, ...: B = bidiag(d = 1..4, e = 1)
  // has its singular values as the positive eigenvalues, each vector interleaving v and u with B v = sigma u.
  std::vector<double> bd = {4, 3, 2, 1}, be = {1, 1, 1};
  std::vector<double> s = bd, f = be;
  d::bidiagonal_svd(s, f, nullptr, nullptr);
  std::vector<double> zero(8, 0.0), tgk(7), asc(s.rbegin(), s.rend());
  for (int i = 0; i < 4; ++i) {
    tgk[size_t(2 * i)] = bd[size_t(i)];
    if (i < 3) tgk[size_t(2 * i + 1)] = be[size_t(i)];
  }
  std::vector<double> Zt(32);
  REQUIRE(d::tridiagonal_block_vectors(zero.data(), tgk.data(), 8, asc.data(), 4, Zt.data(), 8, 0));
  for (int j = 0; j < 4; ++j) {
    const double* z = Zt.data() + 8 * j;
    for (int i = 0; i < 4; ++i) {  // (B v)_i = d_i v_i + e_i v_{i+1} = sigma u_i
      const double bv = bd[size_t(i)] * z[2 * i] + (i < 3 ? be[size_t(i)] * z[2 * i + 2] : 0.0);
      CHECK(std::fabs(bv - asc[size_t(j)] * z[2 * i + 1]) <= 1e-13);
    }
  }
}

TEST_CASE("inverse iteration split over threads gives the same bits as one thread, clusters whole") {
  namespace d = tp::linalg::detail;
  // tridiag(-1, 2, -1) of order 600: its lowest and highest ~36 eigenvalues are chained by gaps under
  // 1e-3 ||T|| (clusters, orthogonalized in order), the middle ones stand alone. Runs of whole clusters go
  // to 1, 2 or 3 threads as they come free: the same bits, and the closed-form vectors.
  const int64_t n = 600;
  std::vector<double> diag(size_t(n), 2.0), off(size_t(n - 1), -1.0), w = second_difference_eigenvalues(n);
  auto run = [&](int threads) {
    std::vector<double> Z(size_t(n * n));
    tp::kernels::set_sgemm_threads(threads, 0);
    const bool ok = d::tridiagonal_block_vectors(diag.data(), off.data(), n, w.data(), n, Z.data(), n, 5);
    tp::kernels::set_sgemm_threads(1);
    CHECK(ok);
    return Z;
  };
  const std::vector<double> Z1 = run(1);
  CHECK(worst_angle_to_second_difference_vectors(Z1.data(), n) <= 1e-10);
  for (int threads : {2, 3}) {
    CAPTURE(threads);
    CHECK(run(threads) == Z1);
  }
}

// Inverse iteration's scalar reference (LAPACK dstein with dlagtf and dlagts, as written): the core runs
// every vector in tridiagonal_block_vectors' f64x2 lanes, a lone vector in one lane with the other idle, and
// must give these bits whatever the pairing and the thread count. Sequential, one vector at a time.
namespace inverse_iteration_reference {

using tp::linalg::detail::guarded_quotient;
using tp::linalg::detail::random_vector;

// T - lambda I = P L U (dlagtf): a, b, c overwritten with U's diagonal, first superdiagonal and L's
// multipliers, d (n-2) U's second superdiagonal, piv[k] whether rows k and k+1 swapped.
void factor_shifted(int64_t n, double* a, double lambda, double* b, double* c, double* d, uint8_t* piv) {
  a[0] -= lambda;
  if (n == 1) return;
  double scale1 = std::fabs(a[0]) + std::fabs(b[0]);
  for (int64_t k = 0; k + 1 < n; ++k) {
    a[k + 1] -= lambda;
    double scale2 = std::fabs(c[k]) + std::fabs(a[k + 1]);
    if (k + 2 < n) scale2 += std::fabs(b[k + 1]);
    if (c[k] == 0.0) {
      piv[k] = 0;
      scale1 = scale2;
      if (k + 2 < n) d[k] = 0.0;
    } else if (a[k] != 0.0 && std::fabs(c[k]) / scale2 * scale1 <= std::fabs(a[k])) {
      piv[k] = 0;
      scale1 = scale2;
      c[k] /= a[k];
      a[k + 1] -= c[k] * b[k];
      if (k + 2 < n) d[k] = 0.0;
    } else {
      piv[k] = 1;
      const double mult = a[k] / c[k];
      a[k] = c[k];
      const double temp = a[k + 1];
      a[k + 1] = b[k] - mult * temp;
      if (k + 2 < n) {
        d[k] = b[k + 1];
        b[k + 1] = -mult * d[k];
      }
      b[k] = temp;
      c[k] = mult;
    }
  }
}


// (T - lambda I) x = y in place (dlagts, job -1); a pivot that cannot overflow the quotient multiplies by
// inv = 1 / a, as the core does.
void solve_shifted(int64_t n, const double* a, const double* inv, const double* b, const double* c, const double* d,
                   const uint8_t* piv, double tol, double* y) {
  for (int64_t k = 1; k < n; ++k) {
    if (piv[k - 1]) std::swap(y[k - 1], y[k]);
    y[k] -= c[k - 1] * y[k - 1];
  }
  constexpr double sfmin = DBL_MIN, bignum = 1.0 / DBL_MIN;
  for (int64_t k = n - 1; k >= 0; --k) {
    const double y1 = k + 1 < n ? y[k + 1] : 0.0, y2 = k + 2 < n ? y[k + 2] : 0.0;
    const double temp = y[k] - (b[k] * y1 + d[k] * y2);
    const double absak = std::fabs(a[k]);
    y[k] = absak >= sfmin && std::fabs(temp) <= absak * bignum ? temp * inv[k] : guarded_quotient(temp, a[k], tol);
  }
}

double max_abs(const double* x, int64_t n) {
  double m = 0.0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, std::fabs(x[i]));
  return m;
}

// x . z in four interleaved sums (entry r into sum r % 4, the tail into sums 0..2), as (s0 + s2) + (s1 + s3).
double cluster_dot(const double* x, const double* z, int64_t n) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t r = 0;
  for (; r + 4 <= n; r += 4)
    for (int q = 0; q < 4; ++q) s[q] += x[r + q] * z[r + q];
  for (int q = 0; r < n; ++r, ++q) s[q] += x[r] * z[r];
  return (s[0] + s[2]) + (s[1] + s[3]);
}

bool block_vectors(const double* dg, const double* e, int64_t n, const double* w, int64_t count, double* Z,
                   int64_t ldz, uint64_t seed, int extra_iterations) {
  if (n == 1) {
    for (int64_t j = 0; j < count; ++j) Z[j * ldz] = 1.0;
    return true;
  }
  double onenrm = std::max(std::fabs(dg[0]) + std::fabs(e[0]), std::fabs(dg[n - 1]) + std::fabs(e[n - 2]));
  for (int64_t i = 1; i + 1 < n; ++i) onenrm = std::max(onenrm, std::fabs(dg[i]) + std::fabs(e[i - 1]) + std::fabs(e[i]));
  const double ortol = 1e-3 * onenrm, dtpcrt = std::sqrt(0.1 / double(n));
  std::vector<double> start(static_cast<size_t>(n));
  random_vector(seed, start.data(), n);
  const size_t len = size_t(n);
  std::vector<double> a(len), inv(len), b(len), c(len), dd(len), x(len);
  std::vector<uint8_t> piv(len);
  bool all = true;
  double xjm = 0.0;
  int64_t first = 0;
  for (int64_t j = 0; j < count; ++j) {
    double xj = w[j];
    if (j > 0) {
      const double pertol = 10.0 * std::fabs(DBL_EPSILON * xj);
      if (xj - xjm < pertol) xj = xjm + pertol;
      if (std::fabs(xj - xjm) > ortol) first = j;
    }
    xjm = xj;
    for (int64_t i = 0; i < n; ++i) x[size_t(i)] = start[size_t((i + j) % n)];  // rotated by j places
    std::copy(dg, dg + n, a.begin());
    std::copy(e, e + n - 1, b.begin());
    std::copy(e, e + n - 1, c.begin());
    b[len - 1] = 0.0;
    dd[len - 1] = 0.0;
    if (n >= 2) dd[len - 2] = 0.0;
    factor_shifted(n, a.data(), xj, b.data(), c.data(), dd.data(), piv.data());
    double tol = std::max({max_abs(a.data(), n), max_abs(b.data(), n), max_abs(dd.data(), n)}) * DBL_EPSILON;
    if (tol == 0.0) tol = DBL_EPSILON;
    for (size_t k = 0; k < len; ++k) inv[k] = 1.0 / a[k];
    int checks = 0, its = 0;
    for (;;) {
      if (++its > 5) {
        all = false;
        break;
      }
      const double scl = double(n) * onenrm * std::max(DBL_EPSILON, std::fabs(a[len - 1])) / max_abs(x.data(), n);
      for (double& v : x) v *= scl;
      solve_shifted(n, a.data(), inv.data(), b.data(), c.data(), dd.data(), piv.data(), tol, x.data());
      for (int64_t i = first; i < j; ++i) {
        const double* z = Z + i * ldz;
        const double s = cluster_dot(x.data(), z, n);
        for (int64_t r = 0; r < n; ++r) x[size_t(r)] -= s * z[r];
      }
      if (max_abs(x.data(), n) < dtpcrt) continue;
      if (++checks >= extra_iterations + 1) break;
    }
    double ss = 0.0;
    for (double v : x) ss += v * v;
    double scl = 1.0 / std::sqrt(ss);
    const double big = max_abs(x.data(), n);
    for (double v : x)  // the sign of the first entry of largest magnitude
      if (std::fabs(v) == big) {
        if (v < 0.0) scl = -scl;
        break;
      }
    for (int64_t r = 0; r < n; ++r) Z[j * ldz + r] = x[size_t(r)] * scl;
  }
  return all;
}

}  // namespace inverse_iteration_reference

TEST_CASE("inverse iteration in f64x2 lanes gives the scalar reference's bits (dstein as written), paired or alone") {
  namespace d = tp::linalg::detail;
  auto same_bits = [](const std::vector<double>& dg, const std::vector<double>& e, const std::vector<double>& w,
                      uint64_t seed, int extra, int threads) {
    const int64_t n = int64_t(dg.size()), count = int64_t(w.size());
    std::vector<double> Z(size_t(n * count)), R(size_t(n * count));
    tp::kernels::set_sgemm_threads(threads, 0);
    const bool ok = d::tridiagonal_block_vectors(dg.data(), e.data(), n, w.data(), count, Z.data(), n, seed, extra);
    tp::kernels::set_sgemm_threads(1);
    const bool ref = inverse_iteration_reference::block_vectors(dg.data(), e.data(), n, w.data(), count, R.data(), n,
                                                                seed, extra);
    CHECK(ok == ref);
    CHECK(Z == R);
  };
  // tridiag(-1, 2, -1): clusters chained at both ends, lone vectors between (runs split in two streams
  // paired in lanes, the longer stream's rest alone); all of it, and one run only (40 vectors).
  for (const int64_t n : {2, 3, 7, 40, 600}) {
    CAPTURE(n);
    std::vector<double> dg(size_t(n), 2.0), e(size_t(n - 1), -1.0), w = second_difference_eigenvalues(n);
    same_bits(dg, e, w, 5, 0, 1);
    same_bits(dg, e, w, 3, 1, 2);
  }
  // One cluster of 30 equal eigenvalues (a run with no split: every vector alone), then distinct ones; and
  // the zero-pivot 2 x 2 through the guarded division.
  {
    const int64_t n = 80;
    std::vector<double> dg(static_cast<size_t>(n)), e(size_t(n - 1), 0.0);
    for (int64_t i = 0; i < n; ++i) dg[size_t(i)] = i < 30 ? 1.0 : 2.0 + double(i);
    for (int64_t i = 30; i + 1 < n; ++i) e[size_t(i)] = 0.25;
    tp::linalg::detail::ColMat T(n, n);
    for (int64_t i = 0; i < n; ++i) {
      T(i, i) = dg[size_t(i)];
      if (i + 1 < n) T(i + 1, i) = e[size_t(i)];
    }
    std::vector<double> w;
    d::symmetric_eig(T, w, nullptr, d::kMaxQlIterationsPerValue, false);
    same_bits(dg, e, w, 11, 0, 1);
    same_bits(dg, e, w, 11, 1, 3);
  }
  same_bits({1.0, 1.0}, {1.0}, {0.0, 2.0}, 3, 0, 1);
  same_bits({1e-300, 1e-300}, {1e-300}, {0.0, 2e-300}, 3, 0, 1);
}

TEST_CASE("one extra inverse-iteration solve gives TGK singular vectors orthonormal and exact to double rounding, every size") {
  namespace d = tp::linalg::detail;
  // The svd's route: B upper bidiagonal with Gaussian-like entries (d_i ~ sqrt(n - i), e_i ~ sqrt(n - i - 1),
  // times a deterministic factor in [0.5, 1.5)), its singular values from the QR sweeps, then the positive
  // eigenvectors of its TGK form by inverse iteration with one extra solve. Invariants: B v = sigma u and
  // B^T u = sigma v to double rounding of ||B||, U and V orthonormal far below float32 resolution.
  for (const int64_t n : {1, 2, 3, 7, 64, 97, 300}) {
    CAPTURE(n);
    std::vector<double> bd(static_cast<size_t>(n)), be(size_t(std::max<int64_t>(n - 1, 0)));
    uint64_t state = 12345;
    auto uniform = [&] {  // [0.5, 1.5), an LCG: deterministic everywhere
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return 0.5 + double(state >> 11) * 0x1p-53;
    };
    for (int64_t i = 0; i < n; ++i) bd[size_t(i)] = std::sqrt(double(n - i)) * uniform();
    for (int64_t i = 0; i + 1 < n; ++i) be[size_t(i)] = std::sqrt(double(n - i - 1)) * uniform();
    std::vector<double> s = bd, f = be;
    d::bidiagonal_svd(s, f, nullptr, nullptr);
    std::vector<double> zero(size_t(2 * n), 0.0), tgk(size_t(2 * n - 1)), asc(s.rbegin(), s.rend());
    for (int64_t i = 0; i < n; ++i) {
      tgk[size_t(2 * i)] = bd[size_t(i)];
      if (i + 1 < n) tgk[size_t(2 * i + 1)] = be[size_t(i)];
    }
    std::vector<double> Z(size_t(2 * n * n));
    REQUIRE(d::tridiagonal_block_vectors(zero.data(), tgk.data(), 2 * n, asc.data(), n, Z.data(), 2 * n, 0, 1));
    std::vector<double> U(size_t(n * n)), V(size_t(n * n));  // column j: u_j, v_j, each normalized
    for (int64_t j = 0; j < n; ++j) {
      double su = 0, sv = 0;
      for (int64_t i = 0; i < n; ++i) {
        sv += Z[size_t(j * 2 * n + 2 * i)] * Z[size_t(j * 2 * n + 2 * i)];
        su += Z[size_t(j * 2 * n + 2 * i + 1)] * Z[size_t(j * 2 * n + 2 * i + 1)];
      }
      for (int64_t i = 0; i < n; ++i) {
        V[size_t(j * n + i)] = Z[size_t(j * 2 * n + 2 * i)] / std::sqrt(sv);
        U[size_t(j * n + i)] = Z[size_t(j * 2 * n + 2 * i + 1)] / std::sqrt(su);
      }
    }
    double worst_res = 0, worst_orth = 0;
    for (int64_t j = 0; j < n; ++j) {
      const double* u = U.data() + j * n;
      const double* v = V.data() + j * n;
      for (int64_t i = 0; i < n; ++i) {
        const double bv = bd[size_t(i)] * v[i] + (i + 1 < n ? be[size_t(i)] * v[i + 1] : 0.0);
        const double btu = bd[size_t(i)] * u[i] + (i > 0 ? be[size_t(i - 1)] * u[i - 1] : 0.0);
        worst_res = std::max({worst_res, std::fabs(bv - asc[size_t(j)] * u[i]), std::fabs(btu - asc[size_t(j)] * v[i])});
      }
      for (int64_t k = 0; k <= j; ++k) {
        double uu = 0, vv = 0;
        for (int64_t i = 0; i < n; ++i) {
          uu += u[i] * U[size_t(k * n + i)];
          vv += v[i] * V[size_t(k * n + i)];
        }
        const double id = k == j ? 1.0 : 0.0;
        worst_orth = std::max({worst_orth, std::fabs(uu - id), std::fabs(vv - id)});
      }
    }
    CHECK(worst_res <= 1e-13 * asc.back());
    CHECK(worst_orth <= 1e-11);
  }
}

TEST_CASE("inverse iteration takes a shift with an exactly zero pivot, and pivots far below 1, through the guarded division") {
  namespace d = tp::linalg::detail;
  // [[s, s], [s, s]] has eigenvalues 0 and 2s with vectors (1, -1) and (1, 1) over sqrt(2). At the shift 0
  // the elimination leaves an exactly zero last pivot, which the solve must nudge; at s = 1e-300 every
  // pivot is far below 1, where the quotient is checked for overflow before it is taken.
  for (const double scale : {1.0, 1e-300}) {
    CAPTURE(scale);
    std::vector<double> diag = {scale, scale}, off = {scale}, w = {0.0, 2.0 * scale}, Z(4);
    REQUIRE(d::tridiagonal_block_vectors(diag.data(), off.data(), 2, w.data(), 2, Z.data(), 2, 3));
    const double r = 1.0 / std::sqrt(2.0);
    CHECK(std::fabs(Z[0] - r) <= 1e-15);
    CHECK(std::fabs(Z[1] + r) <= 1e-15);
    CHECK(std::fabs(Z[2] - r) <= 1e-15);
    CHECK(std::fabs(Z[3] - r) <= 1e-15);
  }
  // A graded tridiagonal (diagonal 1 .. 1e-12, coupling 1e-3 of the smaller neighbour): residuals
  // ||T z - lambda z|| at double rounding of ||T|| and orthonormal vectors, with pivots spanning 12 decades.
  const int64_t n = 60;
  std::vector<double> diag(static_cast<size_t>(n)), off(size_t(n - 1));
  for (int64_t i = 0; i < n; ++i) diag[size_t(i)] = std::pow(10.0, -12.0 * double(i) / double(n - 1));
  for (int64_t i = 0; i + 1 < n; ++i) off[size_t(i)] = 1e-3 * diag[size_t(i + 1)];
  tp::linalg::detail::ColMat T(n, n);
  for (int64_t i = 0; i < n; ++i) {
    T(i, i) = diag[size_t(i)];
    if (i + 1 < n) T(i + 1, i) = off[size_t(i)];
  }
  std::vector<double> w;
  d::symmetric_eig(T, w, nullptr, d::kMaxQlIterationsPerValue, false);
  std::vector<double> Z(size_t(n * n));
  REQUIRE(d::tridiagonal_block_vectors(diag.data(), off.data(), n, w.data(), n, Z.data(), n, 11));
  double worst_res = 0, worst_orth = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double* z = Z.data() + j * n;
    for (int64_t i = 0; i < n; ++i) {
      double tz = diag[size_t(i)] * z[i] - w[size_t(j)] * z[i];
      if (i > 0) tz += off[size_t(i - 1)] * z[i - 1];
      if (i + 1 < n) tz += off[size_t(i)] * z[i + 1];
      worst_res = std::max(worst_res, std::fabs(tz));
    }
    for (int64_t k = 0; k <= j; ++k) {
      double s = 0;
      for (int64_t i = 0; i < n; ++i) s += z[i] * Z[size_t(k * n + i)];
      worst_orth = std::max(worst_orth, std::fabs(s - (k == j ? 1.0 : 0.0)));
    }
  }
  CHECK(worst_res <= 1e-14);
  CHECK(worst_orth <= 1e-12);
}

TEST_CASE("the float32 trailing update (pack split over parts, GEMM accumulating into the float matrix) matches the double rank-2b kernel to float rounding") {
  // As the reductions take it with float updates: F, the float trailing matrix (rows, n) column-major, gets
  // F(r0:, c:) -= [A1 A2] [B1 B2]^T for its columns from r0, the operands packed in two row halves of Af and two
  // column halves of Bf, each column half then one sgemm accumulating into F's columns.
  namespace d = tp::linalg::detail;
  const int64_t rows = 300, n = 290, b = 32, r0 = 37;
  const auto g = splitmix_gaussian(77, rows * n + 4 * rows * b);
  d::ColMat W(rows, n);
  std::vector<float> F(size_t(rows * n));
  for (int64_t i = 0; i < rows * n; ++i) W.a[size_t(i)] = g[size_t(i)], F[size_t(i)] = g[size_t(i)];
  std::vector<double> A1(size_t(rows * b)), A2(size_t(rows * b)), B1(size_t(n * b)), B2(size_t(n * b));
  for (int64_t i = 0; i < rows * b; ++i) A1[size_t(i)] = g[size_t(rows * n + i)], A2[size_t(i)] = g[size_t(rows * n + rows * b + i)];
  for (int64_t i = 0; i < n * b; ++i) B1[size_t(i)] = g[size_t(rows * n + 2 * rows * b + i)], B2[size_t(i)] = g[size_t(rows * n + 3 * rows * b + i)];
  // A(i, p) at p*rows + i; B1(j, p) at j*b + p (row-major), B2(j, p) at p*n + j (column-major).
  const d::Rank2kOperands ops{A1.data(), rows, B1.data(), b, 1, A2.data(), rows, B2.data(), 1, n, b};
  d::rank2k_update(W, r0, r0, n, false, ops);
  const int64_t rl = rows - r0, cols = n - r0, k2 = 2 * b;
  std::vector<float> Af(size_t(rl * k2)), Bf(size_t(cols * k2));
  for (int q = 0; q < 2; ++q)
    d::pack_rank2k_float_part(ops, r0, rl, rl * q / 2, rl * (q + 1) / 2, r0, cols * q / 2, cols * (q + 1) / 2, -1.0f,
                              Af.data(), Bf.data());
  for (int q = 0; q < 2; ++q) {
    const int64_t c0 = cols * q / 2, c1 = cols * (q + 1) / 2;
    tp::kernels::sgemm(c1 - c0, rl, k2, Bf.data() + c0 * k2, k2, 1, Af.data(), rl, 1, F.data() + (r0 + c0) * rows + r0,
                       rows, true);
  }
  double worst = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < rows; ++i) {
      const float f = F[size_t(j * rows + i)];
      if (j >= r0 && i >= r0) worst = std::max(worst, std::fabs(W(i, j) - double(f)));
      else REQUIRE(f == g[size_t(j * rows + i)]);
    }
  // Each entry sums 64 products of N(0,1) entries (~8 in size): float rounding leaves ~1e-5.
  CHECK(worst <= 1e-4);
  CHECK(worst > 0);  // the float path did run
}

TEST_CASE("eigh from 256 rows (float32 trailing updates of the tridiagonalization) meets the bar on random, clustered, graded and rank-1 matrices") {
  const int64_t k = 272;  // 8 whole panels and a partial one, a partial 256-column update block
  const auto G = splitmix_gaussian(93, k * k);
  std::vector<float> S(static_cast<size_t>(k * k));
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < k; ++j) S[size_t(i * k + j)] = G[size_t(i * k + j)] + G[size_t(j * k + i)];
  check_decompositions("Gaussian symmetric 272x272", S, k, k, true);
  check_decompositions("all-ones 272x272", std::vector<float>(size_t(k * k), 1.0f), k, k, true);
  std::vector<float> Q(static_cast<size_t>(k * k)), R(static_cast<size_t>(k * k));
  la::qr(G.data(), k, k, Q.data(), R.data());
  auto spectral = [&](auto lambda) { return with_spectrum(Q, k, lambda); };
  check_decompositions("eigenvalue 3 repeated 100 times", spectral([](int64_t p) { return p < 100 ? 3.0 : double(p) / 10; }), k, k, true);
  check_decompositions("graded 1 .. 1e-12", spectral([](int64_t p) { return std::pow(10.0, -12.0 * double(p) / (k - 1)); }), k, k, true);
  // Entries near 1e-36: outside float_updates_fit, so the double updates run and the bar still holds.
  std::vector<float> tiny(S);
  for (float& x : tiny) x *= 1e-36f;
  check_decompositions("Gaussian symmetric times 1e-36", tiny, k, k, true);
}

TEST_CASE("svd from 256 columns (float32 trailing updates of the bidiagonalization) meets the bar on random, rank-1, graded and tiny matrices") {
  // 272 columns: 8 whole panels and a partial one, a partial 256-column update block; fewer than twice as
  // many rows, so the bidiagonalization runs on A itself (or on A^T when wide), not on a QR's R.
  const int64_t k = 272, m = 400;
  check_decompositions("Gaussian 272x272", splitmix_gaussian(94, k * k), k, k, false);
  check_decompositions("Gaussian 400x272", splitmix_gaussian(95, m * k), m, k, false);
  check_decompositions("Gaussian wide 272x400", splitmix_gaussian(96, k * m), k, m, false);
  // Rank 1: below the first reflectors only the float updates' rounding is left, which the reduction must
  // not reflect (the bidiagonal QR did not converge on it: "did not converge in 75 sweeps").
  check_decompositions("all-ones 272x272", std::vector<float>(size_t(k * k), 1.0f), k, k, false);
  check_decompositions("all-ones 400x272", std::vector<float>(size_t(m * k), 1.0f), m, k, false);
  std::vector<float> pattern(static_cast<size_t>(m * k));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) pattern[size_t(i * k + j)] = float((i % 7) + 1) * float((j % 5) - 2);
  check_decompositions("patterned rank 1 400x272", pattern, m, k, false);
  std::vector<double> graded(static_cast<size_t>(k)), rank10(static_cast<size_t>(k), 0.0);
  for (int64_t i = 0; i < k; ++i) graded[size_t(i)] = std::pow(10.0, -12.0 * double(i) / double(k - 1));
  for (int64_t i = 0; i < 10; ++i) rank10[size_t(i)] = 1.0 + double(i);
  check_decompositions("sigma graded 1 .. 1e-12", with_spectrum(m, k, graded, 97), m, k, false);
  check_decompositions("rank 10 of 400x272", with_spectrum(m, k, rank10, 98), m, k, false);
  // Entries near 1e-36: outside float_updates_fit, so the double updates run and the bar still holds.
  std::vector<float> tiny = splitmix_gaussian(99, m * k);
  for (float& x : tiny) x *= 1e-36f;
  check_decompositions("Gaussian 400x272 times 1e-36", tiny, m, k, false);
}

TEST_CASE("the reductions with float32 products and updates stay within float rounding of the double reductions") {
  // From 256 columns the bidiagonalization and tridiagonalization, asked for float updates, read a float
  // copy of the trailing matrix for their matrix-vector products and update it by float GEMMs: the
  // bidiagonal / tridiagonal must be the double reduction's up to float rounding (Gaussian entries, so the
  // reduction is well conditioned and its entries are of size ~sqrt(n)).
  namespace d = tp::linalg::detail;
  const int64_t m = 300, n = 272;
  const auto g = splitmix_gaussian(100, m * n);
  d::ColMat A(m, n), S(n, n);
  double fro_a = 0, fro_s = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) A(i, j) = g[size_t(i * n + j)], fro_a += A(i, j) * A(i, j);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) S(i, j) = double(g[size_t(i * n + j)]) + g[size_t(j * n + i)], fro_s += S(i, j) * S(i, j);
  auto worst_diff = [](const std::vector<double>& x, const std::vector<double>& y) {
    REQUIRE(x.size() == y.size());
    double w = 0;
    for (size_t i = 0; i < x.size(); ++i) w = std::max(w, std::fabs(x[i] - y[i]));
    return w;
  };
  {
    d::ColMat W1 = A, W2 = A;
    std::vector<double> d1, e1, q1, p1, d2v, e2, q2, p2;
    d::bidiagonal_reduce_blocked(W1, d1, e1, q1, p1, false);
    d::bidiagonal_reduce_blocked(W2, d2v, e2, q2, p2, true);
    const double worst = std::max(worst_diff(d1, d2v), worst_diff(e1, e2));
    CHECK(worst <= 1e-5 * std::sqrt(fro_a));
    CHECK(worst > 0);  // the float path did run
  }
  {
    d::ColMat W1 = S, W2 = S;
    std::vector<double> d1, e1, t1, d2v, e2, t2;
    d::tridiagonalize_blocked(W1, d1, e1, t1, false);
    d::tridiagonalize_blocked(W2, d2v, e2, t2, true);
    const double worst = std::max(worst_diff(d1, d2v), worst_diff(e1, e2));
    CHECK(worst <= 1e-5 * std::sqrt(fro_s));
    CHECK(worst > 0);
  }
}

// (n, n) float64 tensor of the second-difference matrix tridiag(-1, 2, -1): eigenvalues 2 - 2 cos(k pi/(n+1)).
static tp::Tensor second_difference_f64(int64_t n) {
  tp::Tensor T = tp::Tensor::zeros({n, n}, tp::DType::Float64);
  double* t = T.data_as<double>();
  for (int64_t i = 0; i < n; ++i) {
    t[i * n + i] = 2;
    if (i + 1 < n) t[i * n + i + 1] = t[(i + 1) * n + i] = -1;
  }
  return T;
}

// max |(A B)(i,j) - C(i,j)| for row-major A (m, p), B (p, n), C (m, n); transpose_a reads A as (p, m).
static double product_error(const double* A, const double* B, const double* C, int64_t m, int64_t p, int64_t n,
                            bool transpose_a) {
  double worst = 0;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t q = 0; q < p; ++q) s += (transpose_a ? A[q * m + i] : A[i * p + q]) * B[q * n + j];
      worst = std::max(worst, std::abs(s - C[i * n + j]));
    }
  return worst;
}

TEST_CASE("float64 eigh and eigvalsh compute in double at every size: the second-difference matrix's closed-form eigenvalues to 1e-12") {
  for (int64_t n : {5, 120}) {  // below and above kBlockedQrFrom, where float32 takes float32 GEMM steps
    CAPTURE(n);
    const tp::Tensor T = second_difference_f64(n);
    const auto e = la::eigh(T);
    const tp::Tensor w = la::eigvalsh(T);
    REQUIRE(e.eigenvalues.dtype() == tp::DType::Float64);
    REQUIRE(e.eigenvectors.dtype() == tp::DType::Float64);
    REQUIRE(w.dtype() == tp::DType::Float64);
    const double pi = std::acos(-1.0);
    double value_error = 0;
    for (int64_t k = 0; k < n; ++k) {
      const double want = 2 - 2 * std::cos(double(k + 1) * pi / double(n + 1));  // ascending
      value_error = std::max({value_error, std::abs(e.eigenvalues.data_as<double>()[k] - want),
                              std::abs(w.data_as<double>()[k] - want)});
    }
    CHECK(value_error < 1e-12);
    // V^T V = I and T V = V diag(w).
    const double* V = e.eigenvectors.data_as<double>();
    const tp::Tensor I = tp::eye(n).to(tp::DType::Float64);
    CHECK(product_error(V, V, I.data_as<double>(), n, n, n, true) < 1e-12);
    std::vector<double> Vw(size_t(n * n));
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) Vw[size_t(i * n + j)] = V[i * n + j] * e.eigenvalues.data_as<double>()[j];
    CHECK(product_error(T.data_as<double>(), V, Vw.data(), n, n, n, false) < 1e-12);
  }
}

TEST_CASE("float64 qr computes in double at every size: Q^T Q = I and Q R = A to 1e-12, zeros below R's diagonal") {
  for (const auto& shape : std::vector<std::pair<int64_t, int64_t>>{{7, 5}, {130, 100}, {60, 110}}) {
    const int64_t m = shape.first, n = shape.second;  // not a structured binding: CAPTURE's lambda takes these
    CAPTURE(m);
    CAPTURE(n);
    const auto g = splitmix_gaussian(uint64_t(m * 1000 + n), m * n);
    const tp::Tensor A = tp::Tensor::from({m, n}, g.data()).to(tp::DType::Float64);
    const auto r = la::qr(A);
    const int64_t k = std::min(m, n);
    REQUIRE(r.Q.dtype() == tp::DType::Float64);
    REQUIRE(r.R.dtype() == tp::DType::Float64);
    const double *Q = r.Q.data_as<double>(), *R = r.R.data_as<double>();
    const tp::Tensor I = tp::eye(k).to(tp::DType::Float64);
    CHECK(product_error(Q, Q, I.data_as<double>(), k, m, k, true) < 1e-12);
    CHECK(product_error(Q, R, A.data_as<double>(), m, k, n, false) < 1e-12);
    for (int64_t i = 0; i < k; ++i)
      for (int64_t j = 0; j < std::min(i, n); ++j) CHECK(R[i * n + j] == 0.0);
  }
}

TEST_CASE("float64 matrixRank uses float64's epsilon: singular values 1 and 1e-10 are rank 2, in float32 rank 1") {
  const float d[9] = {1, 0, 0, 0, 1e-10f, 0, 0, 0, 0};
  const tp::Tensor A = tp::Tensor::from({3, 3}, d);
  CHECK(la::matrix_rank(A.to(tp::DType::Float64)).data()[0] == 2.0f);
  CHECK(la::matrix_rank(A).data()[0] == 1.0f);
  const tp::Tensor batch = tp::Tensor::zeros({2, 4, 3}, tp::DType::Float64);
  CHECK(la::matrix_rank(batch).shape() == tp::Shape{2});
}

TEST_CASE("linalg refuses what is neither float32 nor float64, naming the op and the dtype") {
  const tp::Tensor h = tp::Tensor::zeros({3, 3}).to(tp::DType::Float16);
  CHECK_THROWS_WITH_AS(la::qr(h), doctest::Contains("linalg.qr: expects float32 or float64 matrices, got float16"), tp::Error);
  CHECK_THROWS_WITH_AS(la::eigh(h), doctest::Contains("linalg.eigh: expects float32 or float64 matrices, got float16"), tp::Error);
}

TEST_CASE("float64 svdLowrank finds an exact rank-3 matrix's factors in double, with float32's omega draws") {
  // A = sum of 3 outer products (60, 40) with singular values 9, 4, 1: q = 3 recovers A to float64 rounding.
  const int64_t m = 60, n = 40;
  const auto g = splitmix_gaussian(5, (m + n) * 3);
  const tp::Tensor L = la::qr(tp::Tensor::from({m, 3}, g.data()).to(tp::DType::Float64)).Q;
  const tp::Tensor R = la::qr(tp::Tensor::from({n, 3}, g.data() + m * 3).to(tp::DType::Float64)).Q;
  const float sv[3] = {9, 4, 1};
  const tp::Tensor A = tp::matmul(tp::binary(tp::BinaryOp::Mul, L, tp::Tensor::from({3}, sv).to(tp::DType::Float64)), tp::transpose(R, 0, 1));
  const auto r = la::svd_lowrank(A, 3, 1, 7);
  REQUIRE(r.U.dtype() == tp::DType::Float64);
  REQUIRE(r.V.shape() == tp::Shape{n, 3});
  for (int j = 0; j < 3; ++j) CHECK(std::abs(r.S.data_as<double>()[j] - sv[j]) < 1e-12);
  const tp::Tensor back = tp::matmul(tp::binary(tp::BinaryOp::Mul, r.U, r.S), tp::transpose(r.V, 0, 1));
  double worst = 0;
  for (int64_t i = 0; i < m * n; ++i) worst = std::max(worst, std::abs(back.data_as<double>()[i] - A.data_as<double>()[i]));
  CHECK(worst < 1e-12);
  CHECK_THROWS_WITH_AS(la::svd_lowrank(A.to(tp::DType::Int32), 2, 1, 7),
                       doctest::Contains("linalg.svdLowrank: expects float32 or float64 matrices, got int32"), tp::Error);
}
