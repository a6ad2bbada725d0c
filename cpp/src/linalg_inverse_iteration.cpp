// Eigenvectors of a symmetric tridiagonal matrix from its eigenvalues, by inverse iteration with
// reorthogonalization inside clusters (LAPACK dstein, dlagtf, dlagts). O(n) per vector outside clusters,
// against ~6 n^2 per vector for the rotations of implicit QL, which is what makes eigh's vectors cheap.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"

namespace tp::linalg::detail {

namespace {

// T - lambda I = P L U for the tridiagonal T (diagonal a, superdiagonal b, subdiagonal c; n, n-1, n-1)
// with partial pivoting (dlagtf): a, b, c are overwritten with U's diagonal, first superdiagonal and L's
// multipliers, d (n-2) gets U's second superdiagonal and piv[k] says whether rows k and k+1 swapped.
void factor_shifted(int64_t n, double* a, double lambda, double* b, double* c, double* d, uint8_t* piv) {
  a[0] -= lambda;
  if (n == 1) return;
  double scale1 = std::fabs(a[0]) + std::fabs(b[0]);
  for (int64_t k = 0; k + 1 < n; ++k) {
    a[k + 1] -= lambda;
    double scale2 = std::fabs(c[k]) + std::fabs(a[k + 1]);
    if (k + 2 < n) scale2 += std::fabs(b[k + 1]);
    const double piv1 = a[k] == 0.0 ? 0.0 : std::fabs(a[k]) / scale1;
    if (c[k] == 0.0) {
      piv[k] = 0;
      scale1 = scale2;
      if (k + 2 < n) d[k] = 0.0;
    } else if (std::fabs(c[k]) / scale2 <= piv1) {
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

// Solves (T - lambda I) x = y in place from factor_shifted's output (dlagts, job -1): a pivot too small
// for the division is nudged by tol (doubling) so the solve never overflows; inverse iteration wants
// exactly the large solution a near-singular system gives. inv holds 1 / a: a pivot that cannot
// overflow the quotient multiplies by it, taking a division (~13 cycles here) off the back
// substitution's chain of dependent steps, which sets the solve's speed; the row swaps are selects,
// not branches (the pivoting pattern of T - lambda I is irregular). b and d hold n entries, the last one
// and two of them 0 (the back substitution reads them against y's zeros past its end).
void solve_shifted(int64_t n, const double* a, const double* inv, const double* b, const double* c, const double* d,
                   const uint8_t* piv, double tol, double* y) {
  double prev = y[0];  // y[k-1] as the elimination leaves it
  for (int64_t k = 1; k < n; ++k) {
    const double cur = y[k];
    const bool swap = piv[k - 1] != 0;
    const double top = swap ? cur : prev, other = swap ? prev : cur;
    y[k - 1] = top;
    prev = other - c[k - 1] * top;
  }
  y[n - 1] = prev;
  constexpr double sfmin = DBL_MIN, bignum = 1.0 / DBL_MIN;
  double y1 = 0.0, y2 = 0.0;  // y[k+1], y[k+2]: zero past the end
  for (int64_t k = n - 1; k >= 0; --k) {
    double temp = y[k] - (b[k] * y1 + d[k] * y2);
    double ak = a[k];
    const double absak = std::fabs(ak);
    double out;
    if (absak >= sfmin && std::fabs(temp) <= absak * bignum) {
      out = temp * inv[k];
    } else {
      double pert = std::copysign(tol, ak);
      for (;;) {
        const double abs_ak = std::fabs(ak);
        if (abs_ak < 1.0) {
          if (abs_ak < sfmin) {
            if (abs_ak == 0.0 || std::fabs(temp) * sfmin > abs_ak) {
              ak += pert;
              pert *= 2.0;
              continue;
            }
            temp *= bignum;
            ak *= bignum;
          } else if (std::fabs(temp) > abs_ak * bignum) {
            ak += pert;
            pert *= 2.0;
            continue;
          }
        }
        break;
      }
      out = temp / ak;
    }
    y[k] = out;
    y2 = y1;
    y1 = out;
  }
}

int64_t index_of_max_abs(const double* x, int64_t n) {
  int64_t best = 0;
  for (int64_t i = 1; i < n; ++i)
    if (std::fabs(x[i]) > std::fabs(x[best])) best = i;
  return best;
}

// A deterministic random vector, uniform in (-1, 1) (splitmix64 from seed): the same vectors whatever the
// thread count or the call order. Vector j starts from it rotated by j places (a copy, not ~10 ns of
// hashing per entry: 20 ms of svd 1024's 2048-long TGK vectors), each start as random as the first.
void random_vector(uint64_t seed, double* x, int64_t n) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = double(z >> 11) * 0x1p-52 - 1.0;
  }
}

}  // namespace

bool tridiagonal_block_vectors(const double* d, const double* e, int64_t n, const double* w, int64_t count,
                               double* Z, int64_t ldz, uint64_t seed, int extra_iterations) {
  TP_ASSERT(n >= 1 && count >= 0 && count <= n && extra_iterations >= 0);
  if (n == 1) {
    for (int64_t j = 0; j < count; ++j) Z[j * ldz] = 1.0;
    return true;
  }
  // dstein's constants: 5 iterations at most, the extra ones included; clusters are eigenvalues closer
  // than 1e-3 ||T||; the iterate has converged once its growth reaches sqrt(0.1/n).
  constexpr int kMaxIterations = 5;
  double onenrm = std::max(std::fabs(d[0]) + std::fabs(e[0]), std::fabs(d[n - 1]) + std::fabs(e[n - 2]));
  for (int64_t i = 1; i + 1 < n; ++i) onenrm = std::max(onenrm, std::fabs(d[i]) + std::fabs(e[i - 1]) + std::fabs(e[i]));
  const double ortol = 1e-3 * onenrm, dtpcrt = std::sqrt(0.1 / double(n));
  const size_t len = static_cast<size_t>(n);
  std::vector<double> a(len), inv(len), b(len), c(len), dd(len), x(len), start(2 * len);
  random_vector(seed, start.data(), n);
  std::copy(start.begin(), start.begin() + n, start.begin() + n);  // start[i + j] for i < n, j < n
  std::vector<uint8_t> piv(len);
  bool converged = true;
  int64_t cluster = 0;  // first vector of the current cluster
  double xjm = 0.0;
  for (int64_t j = 0; j < count; ++j) {
    double xj = w[j];
    if (j > 0) {  // eigenvalues closer than 10 eps |x_j| are pulled apart so each shift has its own vector
      const double pertol = 10.0 * std::fabs(DBL_EPSILON * xj);
      if (xj - xjm < pertol) xj = xjm + pertol;
      if (std::fabs(xj - xjm) > ortol) cluster = j;
    }
    std::copy(start.begin() + j, start.begin() + j + n, x.begin());
    std::copy(d, d + n, a.begin());
    std::copy(e, e + n - 1, b.begin());
    std::copy(e, e + n - 1, c.begin());
    factor_shifted(n, a.data(), xj, b.data(), c.data(), dd.data(), piv.data());
    // dlagts's perturbation for tiny pivots: eps times the largest entry of U.
    double tol = std::fabs(a[0]);
    if (n > 1) tol = std::max({tol, std::fabs(a[1]), std::fabs(b[0])});
    for (int64_t k = 2; k < n; ++k) tol = std::max({tol, std::fabs(a[k]), std::fabs(b[k - 1]), std::fabs(dd[k - 2])});
    tol *= DBL_EPSILON;
    if (tol == 0.0) tol = DBL_EPSILON;
    for (size_t k = 0; k < len; ++k) inv[k] = 1.0 / a[k];  // read only where |a[k]| >= DBL_MIN
    int checks = 0, its = 0;
    for (;;) {
      if (++its > kMaxIterations) {
        converged = false;
        break;
      }
      // Scale the right-hand side so the solve's growth measures how close xj is to an eigenvalue.
      const double scl = double(n) * onenrm * std::max(DBL_EPSILON, std::fabs(a[size_t(n - 1)])) /
                         std::fabs(x[size_t(index_of_max_abs(x.data(), n))]);
      for (double& v : x) v *= scl;
      solve_shifted(n, a.data(), inv.data(), b.data(), c.data(), dd.data(), piv.data(), tol, x.data());
      for (int64_t i = cluster; i < j; ++i) {  // modified Gram-Schmidt against the cluster's vectors
        const double* z = Z + i * ldz;
        double s = 0.0;
        for (int64_t r = 0; r < n; ++r) s += x[size_t(r)] * z[r];
        for (int64_t r = 0; r < n; ++r) x[size_t(r)] -= s * z[r];
      }
      if (std::fabs(x[size_t(index_of_max_abs(x.data(), n))]) < dtpcrt) continue;
      if (++checks >= extra_iterations + 1) break;
    }
    double ss = 0.0;
    for (double v : x) ss += v * v;
    double scl = 1.0 / std::sqrt(ss);
    if (x[size_t(index_of_max_abs(x.data(), n))] < 0.0) scl = -scl;
    double* z = Z + j * ldz;
    for (int64_t r = 0; r < n; ++r) z[r] = x[size_t(r)] * scl;
    xjm = xj;
  }
  return converged;
}

}  // namespace tp::linalg::detail
