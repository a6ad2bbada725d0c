// Matrix norms and numerical rank, from entry sums or from the singular values.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;

namespace {
// Singular values, descending: float32's from the Gram matrix, float64's from the bidiagonal.
void values(const float* A, int64_t m, int64_t n, std::vector<double>& S) { svdvals_double(A, m, n, S); }
void values(const double* A, int64_t m, int64_t n, std::vector<double>& S) { svd_f64(A, m, n, S, nullptr, nullptr); }

// A is (m,n); ord is one of fro, nuc, 2, -2, 1, -1, inf, -inf.
template <class T>
double norm_of(const T* A, int64_t m, int64_t n, const std::string& ord) {
  if (m < 0 || n < 0) fail("linalg.norm", "negative matrix size ", m, " x ", n);
  check_finite("linalg.norm", A, m * n);
  if (ord == "fro") {
    double s = 0.0;
    for (int64_t i = 0; i < m * n; ++i) s += double(A[i]) * A[i];
    return std::sqrt(s);
  }
  if (ord == "nuc" || ord == "2" || ord == "-2") {
    if (m == 0 || n == 0) return 0.0;
    std::vector<double> S;
    values(A, m, n, S);
    if (ord == "2") return S.front();
    if (ord == "-2") return S.back();
    double s = 0.0;
    for (double x : S) s += x;
    return s;
  }
  const bool by_col = ord == "1" || ord == "-1";
  const bool by_row = ord == "inf" || ord == "-inf" || ord == "Infinity" || ord == "-Infinity";
  if (!by_col && !by_row)
    fail("linalg.norm", "unknown matrix norm order '", ord, "' (use 'fro', 'nuc', 2, -2, 1, -1, inf, -inf)");
  if (m == 0 || n == 0) return 0.0;
  // Column sums for ord 1, row sums for ord inf; the max (or min for negative orders) of them.
  std::vector<double> sums(size_t(by_col ? n : m), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) sums[size_t(by_col ? j : i)] += std::fabs(double(A[i * n + j]));
  const bool negative = ord[0] == '-';
  return negative ? *std::min_element(sums.begin(), sums.end()) : *std::max_element(sums.begin(), sums.end());
}
}  // namespace

double norm(const float* A, int64_t m, int64_t n, const std::string& ord) { return norm_of(A, m, n, ord); }
double norm(const double* A, int64_t m, int64_t n, const std::string& ord) { return norm_of(A, m, n, ord); }

template <class T>
static int64_t matrix_rank_any(const T* A, int64_t m, int64_t n, double tol) {
  if (m < 0 || n < 0) fail("linalg.matrixRank", "negative matrix size ", m, " x ", n);
  check_finite("linalg.matrixRank", A, m * n);
  if (m == 0 || n == 0) return 0;
  if (std::isnan(tol)) fail("linalg.matrixRank", "tol is NaN");
  std::vector<double> S;
  values(A, m, n, S);
  // numpy's default: S.max() * max(M, N) * eps of the input's dtype.
  if (tol < 0.0) tol = S.front() * double(std::max(m, n)) * double(std::numeric_limits<T>::epsilon());
  return int64_t(std::count_if(S.begin(), S.end(), [&](double s) { return s > tol; }));
}

int64_t matrix_rank(const float* A, int64_t m, int64_t n, double tol) { return matrix_rank_any(A, m, n, tol); }
int64_t matrix_rank(const double* A, int64_t m, int64_t n, double tol) { return matrix_rank_any(A, m, n, tol); }

}  // namespace tp::linalg
