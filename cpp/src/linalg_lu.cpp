// LU factorization with partial pivoting (LAPACK getrf) in double, and det, inv, solve on top of it.
#include <cfloat>
#include <cmath>
#include <type_traits>
#include <utility>

#include "for_size.hpp"
#include "linalg_detail.hpp"
#include "out_of_line.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;
using tp::detail::call_out_of_line;

namespace {

// lu_factor's own code (validation, the conversion to double, the step loop) and det: compiled for size
// (TP_FOR_SIZE); at -O3 lu_factor was 2.1 and 1.8 KB of the WebAssembly module (once per input type). Its
// loops over elements stay -O3 and out of line: the O(n^3) axpys (eliminate_below, subtract_rows), the
// O(n^2) maxima and pivoting (abs_maxima, pivot_and_swap).
// Not the solves and conversions (lu_solve, inverse, solved, store_float, the inv/solve entries): their
// O(n nrhs) loops at minsize made inv 64 24% and inv 256 7% slower (Node, 2026-12-03).

// P A = L U of the (n,n) A, row-major double: L (unit lower) and U share a; perm[i] is the original
// row now at row i. singular is set when a pivot is at most n * eps times the largest entry
// of its row or of its column of A, whichever is smaller: below that the float32 input cannot tell A
// from a singular matrix (the scale of numpy's matrix_rank tolerance, taken per row and column so
// that a well-posed graded matrix such as diag(1, 1e-7) is not called singular; LAPACK flags only
// exact zeros, and so returns garbage for a rank-deficient product computed in float32). eps is that
// of the input: float32's, or float64's for a float64 A.
struct Lu {
  int64_t n = 0;
  std::vector<double> a;
  std::vector<int64_t> perm;
  int sign = 1;
  bool singular = false;
  int64_t bad_pivot = -1;
  const char* precision = "float32";
};

// Step k's elimination: rows k+1.. of the row-major (n,n) a lose their multiple of pivot row k, and
// keep the multiplier in column k.
void eliminate_below(double* a, int64_t n, int64_t k, double piv) {
  for (int64_t i = k + 1; i < n; ++i) {
    const double l = a[i * n + k] / piv;
    a[i * n + k] = l;
    if (l != 0.0) axpy(a + i * n + k + 1, -l, a + k * n + k + 1, n - k - 1);
  }
}

// Row i of a triangular solve: y_i -= sum over k in [k0, k1) of coef[k] y_k (rows of nrhs).
void subtract_rows(double* yi, const double* coef, const double* Y, int64_t k0, int64_t k1, int64_t nrhs) {
  for (int64_t k = k0; k < k1; ++k)
    if (coef[k] != 0.0) axpy(yi, -coef[k], Y + k * nrhs, nrhs);
}

// The largest |a(i, j)| of each row and each column of the row-major (n,n) a, into row_max and col_max
// (zeros on entry). O(n^2), once per factorization: kept at -O3 and out of line, as its vectorised loop
// is (at minsize inside lu_factor, det 256 took 2-4% longer).
void abs_maxima(const double* a, int64_t n, double* row_max, double* col_max) {
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const double x = std::fabs(a[i * n + j]);
      row_max[i] = std::max(row_max[i], x);
      col_max[j] = std::max(col_max[j], x);
    }
}

// Step k's partial pivoting: the row p >= k of the largest |a(p, k)| (the first of equals), swapped
// with row k. Returns p. O(n) per step, kept at -O3 and out of line with abs_maxima.
int64_t pivot_and_swap(double* a, int64_t n, int64_t k) {
  int64_t p = k;
  for (int64_t i = k + 1; i < n; ++i)
    if (std::fabs(a[i * n + k]) > std::fabs(a[p * n + k])) p = i;
  if (p != k)
    for (int64_t j = 0; j < n; ++j) std::swap(a[k * n + j], a[p * n + j]);
  return p;
}

template <class T>
TP_FOR_SIZE Lu lu_factor(const char* op, const T* A, int64_t n) {
  if (n < 0) fail(op, "negative matrix size ", n);
  check_finite(op, A, n * n);
  Lu f;
  f.n = n;
  f.a.assign(A, A + n * n);
  const bool f64 = std::is_same_v<T, double>;
  const double eps = f64 ? DBL_EPSILON : FLT_EPSILON;
  if (f64) f.precision = "float64";
  f.perm.resize(size_t(n));
  std::vector<double> row_max(static_cast<size_t>(n), 0.0), col_max(static_cast<size_t>(n), 0.0);
  for (int64_t i = 0; i < n; ++i) f.perm[size_t(i)] = i;
  double* a = f.a.data();
  call_out_of_line<&abs_maxima>(a, n, row_max.data(), col_max.data());
  for (int64_t k = 0; k < n; ++k) {
    const int64_t p = call_out_of_line<&pivot_and_swap>(a, n, k);
    if (p != k) {
      std::swap(f.perm[size_t(k)], f.perm[size_t(p)]);
      f.sign = -f.sign;
    }
    const double piv = a[k * n + k];
    const double scale = std::min(row_max[size_t(f.perm[size_t(k)])], col_max[size_t(k)]);
    if (std::fabs(piv) <= double(n) * eps * scale) {
      f.singular = true;
      if (f.bad_pivot < 0) f.bad_pivot = k;
      if (piv == 0.0) continue;  // nothing to eliminate with; the factorization is flagged anyway
    }
    call_out_of_line<&eliminate_below>(a, n, k, piv);  // once per step (out_of_line.hpp)
  }
  return f;
}

// The float32 result of inv or solve: a clear error when an entry is beyond float32's range (the
// inverse of a matrix of denormals), rather than an Inf the reader did not ask for.
void store_float(const char* op, const std::vector<double>& X, float* out) {
  for (size_t i = 0; i < X.size(); ++i) {
    if (!(std::fabs(X[i]) <= double(FLT_MAX)))
      fail(op, "the result has an entry of magnitude ", std::fabs(X[i]), ", beyond float32's range (~3.4e38)");
    out[i] = float(X[i]);
  }
}

[[noreturn]] TP_FOR_SIZE void fail_singular(const char* op, const Lu& f) {
  fail(op, "matrix of shape [", f.n, ", ", f.n, "] is singular (LU pivot ", f.bad_pivot, " is zero to ",
       f.precision, " precision)");
}

// Overwrites the (n,nrhs) row-major X (holding B) with A^-1 B.
void lu_solve(const Lu& f, std::vector<double>& X, int64_t nrhs) {
  const int64_t n = f.n;
  const double* a = f.a.data();
  std::vector<double> Y(size_t(n * nrhs));
  for (int64_t i = 0; i < n; ++i)
    std::copy(X.begin() + f.perm[size_t(i)] * nrhs, X.begin() + (f.perm[size_t(i)] + 1) * nrhs, Y.begin() + i * nrhs);
  // One row per call, out of line (out_of_line.hpp).
  for (int64_t i = 0; i < n; ++i)  // L y = P b
    call_out_of_line<&subtract_rows>(Y.data() + i * nrhs, a + i * n, Y.data(), int64_t(0), i, nrhs);
  for (int64_t i = n - 1; i >= 0; --i) {  // U x = y
    double* yi = Y.data() + i * nrhs;
    call_out_of_line<&subtract_rows>(yi, a + i * n, Y.data(), i + 1, n, nrhs);
    const double inv_d = 1.0 / a[i * n + i];
    for (int64_t j = 0; j < nrhs; ++j) yi[j] *= inv_d;
  }
  X = std::move(Y);
}

TP_FOR_SIZE double det_of(const Lu& f) {
  if (f.singular) return 0.0;
  double d = f.sign;
  for (int64_t i = 0; i < f.n; ++i) d *= f.a[size_t(i * f.n + i)];
  return d;
}

std::vector<double> inverse(const Lu& f) {
  if (f.singular) fail_singular("linalg.inv", f);
  std::vector<double> X(size_t(f.n * f.n), 0.0);
  for (int64_t i = 0; i < f.n; ++i) X[size_t(i * f.n + i)] = 1.0;
  lu_solve(f, X, f.n);
  return X;
}

}  // namespace

TP_FOR_SIZE double det(const float* A, int64_t n) { return det_of(lu_factor("linalg.det", A, n)); }
TP_FOR_SIZE double det(const double* A, int64_t n) { return det_of(lu_factor("linalg.det", A, n)); }

void inv(const float* A, int64_t n, float* Ainv) {
  store_float("linalg.inv", inverse(lu_factor("linalg.inv", A, n)), Ainv);
}
void inv(const double* A, int64_t n, double* Ainv) {
  const std::vector<double> X = inverse(lu_factor("linalg.inv", A, n));
  std::copy(X.begin(), X.end(), Ainv);
}

namespace {
template <class T>
std::vector<double> solved(const T* A, int64_t n, const T* B, int64_t nrhs) {
  const Lu f = lu_factor("linalg.solve", A, n);
  if (nrhs < 0) fail("linalg.solve", "negative number of right-hand sides ", nrhs);
  check_finite("linalg.solve", B, n * nrhs);
  if (f.singular) fail_singular("linalg.solve", f);
  std::vector<double> Xd(B, B + n * nrhs);
  lu_solve(f, Xd, nrhs);
  return Xd;
}
}  // namespace

void solve(const float* A, int64_t n, const float* B, int64_t nrhs, float* X) {
  store_float("linalg.solve", solved(A, n, B, nrhs), X);
}
void solve(const double* A, int64_t n, const double* B, int64_t nrhs, double* X) {
  const std::vector<double> Xd = solved(A, n, B, nrhs);
  std::copy(Xd.begin(), Xd.end(), X);
}

}  // namespace tp::linalg
