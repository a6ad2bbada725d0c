// Eigenvalues and eigenvectors of a symmetric tridiagonal matrix by divide and conquer (Cuppen's method as
// LAPACK's dstedc runs it: dlaed0-dlaed4), what numpy's eigh (syevd) calls. T splits at its middle into two
// halves plus a rank-one correction; each half is solved recursively, and the merge finds the eigenpairs of
// D + rho z z^T from the secular equation. The merge's vector update is one float32 GEMM per half of the
// rows (our sgemm), where nearly all the flops are; the rest is O(n^2) per merge.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <numeric>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"

namespace tp::linalg::detail {

namespace {

// A root of the secular equation takes at most this many steps: after kModelSteps safeguarded rational
// steps the bracket is halved each step, which closes any double bracket long before the end.
constexpr int kModelSteps = 40, kMaxSecularSteps = 200;

// Root i (0-based, of k) of the secular equation f(lambda) = 1/rho + sum_j z_j^2 / (d_j - lambda) of
// D + rho z z^T: d (k) ascending and distinct, z_j != 0, rho > 0. Root i lies in (d_i, d_{i+1}), the last
// one in (d_{k-1}, d_{k-1} + rho |z|^2]. delta (k) gets d_j - lambda_i, measured from the pole nearer the
// root (LAPACK dlaed4's origin shift), so that the small differences the vectors are built from keep
// their relative accuracy. Steps: the two-pole rational model of dlaed4's "middle way" (f's terms up to
// pole p lumped at p, the rest at p+1), kept inside a bracket that every evaluation of f shrinks;
// Newton's step, then bisection, when the model's root leaves the bracket. False when not converged.
bool secular_root(int64_t k, const double* d, const double* z, double rho, int64_t i, double* delta, double& lambda) {
  if (k == 1) {
    delta[0] = -rho * z[0] * z[0];
    lambda = d[0] - delta[0];
    return true;
  }
  const double rhoinv = 1.0 / rho;
  const int64_t p = std::min(i, k - 2);  // the model's poles p and p+1
  double origin, lo, hi;                   // the root is origin + tau with tau in (lo, hi]
  if (i < k - 1) {
    const double half = 0.5 * (d[i + 1] - d[i]);
    double f = rhoinv;  // f at the midpoint: f increases from -inf to +inf between the poles
    for (int64_t j = 0; j < k; ++j) f += z[j] * z[j] / ((d[j] - d[i]) - half);
    if (f >= 0.0) {
      origin = d[i], lo = 0.0, hi = half;
    } else {
      origin = d[i + 1], lo = -half, hi = 0.0;
    }
  } else {
    double zz = 0.0;
    for (int64_t j = 0; j < k; ++j) zz += z[j] * z[j];
    origin = d[k - 1], lo = 0.0, hi = rho * zz;
  }
  double tau = 0.5 * (lo + hi);
  for (int step = 0; step < kMaxSecularSteps; ++step) {
    double psi = 0.0, dpsi = 0.0, phi = 0.0, dphi = 0.0, size = rhoinv;
    for (int64_t j = 0; j < k; ++j) {
      delta[j] = (d[j] - origin) - tau;
      const double t = z[j] / delta[j], term = z[j] * t;
      if (j <= p) psi += term, dpsi += t * t;
      else phi += term, dphi += t * t;
      size += std::fabs(term);
    }
    const double w = rhoinv + psi + phi, dw = dpsi + dphi;
    // Converged when f is zero to its own rounding (dlaed4's test, bounded the same way).
    if (std::fabs(w) <= DBL_EPSILON * (8.0 * size + std::fabs(tau) * dw) || w == 0.0) break;
    if (w < 0.0) lo = tau;
    else hi = tau;
    if (hi - lo <= 2.0 * DBL_EPSILON * std::max(std::fabs(lo), std::fabs(hi))) break;
    auto inside = [&](double eta) { return tau + eta > lo && tau + eta < hi; };
    double eta = 0.5 * (lo + hi) - tau;  // bisection unless a better step stays in the bracket
    if (step < kModelSteps) {
      // c + a/(dp - eta) + b/(dq - eta) = 0, with a, b, c matching f, psi' and phi' at tau.
      const double dp = delta[p], dq = delta[p + 1];
      const double c = w - dp * dpsi - dq * dphi;
      const double A = (dp + dq) * w - dp * dq * dw, B = dp * dq * w;
      double best = HUGE_VAL;
      if (c == 0.0) {
        if (A != 0.0) best = B / A;
      } else {
        const double q = 0.5 * (A + std::copysign(std::sqrt(std::fabs(A * A - 4.0 * B * c)), A));
        const double e1 = q / c, e2 = q != 0.0 ? B / q : HUGE_VAL;
        if (inside(e1)) best = e1;
        if (inside(e2) && std::fabs(e2) < std::fabs(best)) best = e2;
      }
      if (!inside(best)) best = -w / dw;  // Newton
      if (inside(best)) eta = best;
    }
    tau += eta;
    if (step + 1 == kMaxSecularSteps) return false;
  }
  for (int64_t j = 0; j < k; ++j) delta[j] = (d[j] - origin) - tau;
  lambda = origin + tau;
  return true;
}

// The recursion's state: the scaled tridiagonal (d, e; d modified by the splits), eigenvalues w and
// the eigenvector matrix Z (n, n), block [lo, hi) of which holds the vectors of T[lo:hi, lo:hi].
struct DivideConquer {
  std::vector<double> d, e, w;
  ColMat Z;
  int max_iterations;
  int64_t leaf_size;

  void leaf(int64_t lo, int64_t hi) {
    const int64_t size = hi - lo;
    std::vector<double> dd(d.begin() + lo, d.begin() + hi), ee(e.begin() + lo, e.begin() + hi - 1);
    ColMat L = ColMat::identity(size, size);
    tridiagonal_ql(dd, ee, &L, max_iterations);
    const std::vector<int64_t> order = sorted_order(dd, false);
    for (int64_t j = 0; j < size; ++j) {
      w[size_t(lo + j)] = dd[size_t(order[size_t(j)])];
      std::copy(L.col(order[size_t(j)]), L.col(order[size_t(j)]) + size, Z.col(lo + j) + lo);
    }
  }

  bool solve(int64_t lo, int64_t hi) {
    if (hi - lo <= leaf_size) {
      leaf(lo, hi);
      return true;
    }
    // T = diag(T1 - |beta| e_last e_last^T, T2 - |beta| e_0 e_0^T) + |beta| u u^T, u = e_{mid-1} + sign(beta) e_mid.
    const int64_t mid = lo + (hi - lo) / 2;
    const double beta = e[size_t(mid - 1)];
    d[size_t(mid - 1)] -= std::fabs(beta);
    d[size_t(mid)] -= std::fabs(beta);
    return solve(lo, mid) && solve(mid, hi) && merge(lo, mid, hi, beta);
  }

  bool merge(int64_t lo, int64_t mid, int64_t hi, double beta);
};

// Merges the solved halves [lo, mid) and [mid, hi): with Q = diag(Q1, Q2), T = Q (D + rho z z^T) Q^T
// where z = Q^T u / sqrt(2) (the last row of Q1 and the first row of Q2, signed) and rho = 2 |beta|.
// Deflation (dlaed2): a tiny z_j leaves (d_j, column j) an eigenpair as it is, and two close d's are
// rotated so that one of them has z_j = 0. The other k pairs come from the secular equation; their
// vectors are Q's columns times S (k, k), S(j, i) = zhat_j / (d_j - lambda_i) normalized, where zhat is
// recomputed from the roots by Lowner's formula (Gu and Eisenstat, dlaed3), which keeps the vectors
// orthogonal however close the roots are. Columns of Q1 have no rows in the lower half and those of Q2
// none in the upper one, so the product is two GEMMs on Q's nonzero blocks (dlaed2's column types).
bool DivideConquer::merge(int64_t lo, int64_t mid, int64_t hi, double beta) {
  const int64_t N = hi - lo, n1 = mid - lo;
  const double sign = beta < 0.0 ? -1.0 : 1.0, rho = 2.0 * std::fabs(beta);
  // Q (N, N): this block's columns, rows lo..hi. kind: 1 rows in the upper half only, 3 lower only, 2 both.
  ColMat Q(N, N);
  for (int64_t c = 0; c < N; ++c) std::copy(Z.col(lo + c) + lo, Z.col(lo + c) + hi, Q.col(c));
  std::vector<double> D(w.begin() + lo, w.begin() + hi), z(static_cast<size_t>(N));
  std::vector<int> kind(static_cast<size_t>(N));
  for (int64_t c = 0; c < N; ++c) {
    z[size_t(c)] = (c < n1 ? Q(n1 - 1, c) : sign * Q(n1, c)) * std::sqrt(0.5);
    kind[size_t(c)] = c < n1 ? 1 : 3;
  }
  const std::vector<int64_t> order = sorted_order(D, false);
  double dmax = 0.0, zmax = 0.0;
  for (int64_t c = 0; c < N; ++c) {
    dmax = std::max(dmax, std::fabs(D[size_t(c)]));
    zmax = std::max(zmax, std::fabs(z[size_t(c)]));
  }
  const double tol = 8.0 * DBL_EPSILON * std::max(dmax, zmax);
  std::vector<int64_t> kept, deflated;  // columns of Q; kept ascending in D
  int64_t prev = -1;
  for (int64_t s = 0; s < N; ++s) {
    const int64_t c = order[size_t(s)];
    if (rho * std::fabs(z[size_t(c)]) <= tol) {
      deflated.push_back(c);
      continue;
    }
    if (prev >= 0) {
      // The rotation of columns prev and c that zeroes z_prev: deflate prev when the coupling it leaves
      // out of T, (d_c - d_prev) c s, is below tol.
      const double r = std::hypot(z[size_t(c)], z[size_t(prev)]);
      const double cs = z[size_t(c)] / r, sn = -z[size_t(prev)] / r, t = D[size_t(c)] - D[size_t(prev)];
      if (std::fabs(t * cs * sn) <= tol) {
        z[size_t(c)] = r;
        z[size_t(prev)] = 0.0;
        rotate(Q.col(prev), Q.col(c), N, cs, sn);
        if (kind[size_t(prev)] != kind[size_t(c)]) kind[size_t(prev)] = kind[size_t(c)] = 2;
        const double dp = D[size_t(prev)], dc = D[size_t(c)];
        D[size_t(prev)] = dp * cs * cs + dc * sn * sn;
        D[size_t(c)] = dp * sn * sn + dc * cs * cs;
        deflated.push_back(prev);
        prev = c;
        continue;
      }
      kept.push_back(prev);
    }
    prev = c;
  }
  if (prev >= 0) kept.push_back(prev);

  // The secular equation of the k kept pairs: roots lambda (k) and delta (k, k), column i = d - lambda_i.
  const int64_t k = int64_t(kept.size());
  std::vector<double> dk(static_cast<size_t>(k)), zk(static_cast<size_t>(k)), lambda(static_cast<size_t>(k));
  std::vector<double> delta(static_cast<size_t>(k * k));
  for (int64_t j = 0; j < k; ++j) {
    dk[size_t(j)] = D[size_t(kept[size_t(j)])];
    zk[size_t(j)] = z[size_t(kept[size_t(j)])];
  }
  for (int64_t i = 0; i < k; ++i)
    if (!secular_root(k, dk.data(), zk.data(), rho, i, delta.data() + i * k, lambda[size_t(i)])) return false;
  // Lowner: zhat_j^2 = -delta_j(j) prod_{i != j} delta_j(i) / (d_j - d_i), up to the factor 1/rho that the
  // normalization below removes. Every ratio is positive (the roots interlace the poles).
  std::vector<double> zhat(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) {
    double prod = -delta[size_t(j * k + j)];
    for (int64_t i = 0; i < k; ++i)
      if (i != j) prod *= delta[size_t(i * k + j)] / (dk[size_t(j)] - dk[size_t(i)]);
    zhat[size_t(j)] = std::copysign(std::sqrt(std::max(prod, 0.0)), zk[size_t(j)]);
  }
  // The GEMM's operands, its inner index in kind order (1, 2, 3): the upper rows take kinds 1 and 2, the
  // lower ones kinds 2 and 3. A (k, k) row-major: A(i, g) = S(kept g, i); Qf (N, k) column-major float.
  std::vector<double> kind_of(static_cast<size_t>(k));
  for (int64_t j = 0; j < k; ++j) kind_of[size_t(j)] = kind[size_t(kept[size_t(j)])];
  const std::vector<int64_t> by_kind = sorted_order(kind_of, false);
  int64_t k1 = 0, k3 = 0;
  for (int64_t j : kept) k1 += kind[size_t(j)] == 1, k3 += kind[size_t(j)] == 3;
  // The first and last rows of the new vectors are also summed in double (O(k^2)): every later merge
  // takes its z from its halves' boundary rows, which are always such rows, so z and with it every
  // eigenvalue keeps double accuracy while the other rows carry the GEMM's float rounding.
  std::vector<float> A(static_cast<size_t>(k * k)), Qf(static_cast<size_t>(N * k)), C(static_cast<size_t>(k * N));
  std::vector<double> first(static_cast<size_t>(k), 0.0), last(static_cast<size_t>(k), 0.0);
  for (int64_t i = 0; i < k; ++i) {
    double ss = 0.0;
    for (int64_t j = 0; j < k; ++j) {
      const double s = zhat[size_t(j)] / delta[size_t(i * k + j)];
      ss += s * s;
    }
    const double inv = 1.0 / std::sqrt(ss);
    for (int64_t g = 0; g < k; ++g) {
      const int64_t j = by_kind[size_t(g)], c = kept[size_t(j)];
      const double s = zhat[size_t(j)] / delta[size_t(i * k + j)] * inv;
      A[size_t(i * k + g)] = float(s);
      first[size_t(i)] += Q(0, c) * s;
      last[size_t(i)] += Q(N - 1, c) * s;
    }
  }
  for (int64_t g = 0; g < k; ++g) {
    const double* q = Q.col(kept[size_t(by_kind[size_t(g)])]);
    std::copy(q, q + N, Qf.begin() + g * N);
  }
  // C (k, N) row-major = S^T Q^T, i.e. the new vectors column-major (N, k): rows of the upper half from
  // the first k - k3 inner indices, rows of the lower half from the last k - k1.
  kernels::sgemm(k, n1, k - k3, A.data(), k, 1, Qf.data(), N, 1, C.data(), N, false);
  kernels::sgemm(k, N - n1, k - k1, A.data() + k1, k, 1, Qf.data() + k1 * N + n1, N, 1, C.data() + n1, N, false);

  // All N pairs ascending into w[lo, hi) and Z's block: kept i -> (lambda_i, C row i), deflated -> (D, Q).
  // Pair p < k is kept root p; pair k + q is deflated column deflated[q].
  std::vector<double> value(lambda);
  for (int64_t c : deflated) value.push_back(D[size_t(c)]);
  const std::vector<int64_t> all = sorted_order(value, false);
  for (int64_t j = 0; j < N; ++j) {
    const int64_t src = all[size_t(j)];
    w[size_t(lo + j)] = value[size_t(src)];
    double* out = Z.col(lo + j) + lo;
    if (src < k) {
      std::copy(C.begin() + src * N, C.begin() + (src + 1) * N, out);
      out[0] = first[size_t(src)];
      out[N - 1] = last[size_t(src)];
    } else {
      const int64_t c = deflated[size_t(src - k)];
      std::copy(Q.col(c), Q.col(c) + N, out);
    }
  }
  return true;
}

}  // namespace

bool tridiagonal_divide_conquer(const std::vector<double>& d, const std::vector<double>& e, std::vector<double>& w,
                                ColMat& Z, int max_iterations, int64_t leaf_size) {
  TP_ASSERT(leaf_size >= 1);
  const int64_t n = int64_t(d.size());
  // Scaled to a largest entry of 1 (dstedc), so that neither the secular sums nor Lowner's products
  // overflow or underflow whatever the scale of T.
  double scale = 0.0;
  for (double x : d) scale = std::max(scale, std::fabs(x));
  for (int64_t i = 0; i + 1 < n; ++i) scale = std::max(scale, std::fabs(e[size_t(i)]));
  DivideConquer dc;
  dc.max_iterations = max_iterations;
  dc.leaf_size = leaf_size;
  if (scale == 0.0 || n == 0) {  // T = 0
    zeros(w, n);
    Z = ColMat::identity(n, n);
    return true;
  }
  zeros(dc.w, n);
  dc.Z = ColMat(n, n);
  dc.d.resize(size_t(n));
  zeros(dc.e, n);
  for (int64_t i = 0; i < n; ++i) dc.d[size_t(i)] = d[size_t(i)] / scale;
  for (int64_t i = 0; i + 1 < n; ++i) dc.e[size_t(i)] = e[size_t(i)] / scale;
  if (!dc.solve(0, n)) return false;
  w.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) w[size_t(i)] = dc.w[size_t(i)] * scale;
  Z = std::move(dc.Z);
  return true;
}

}  // namespace tp::linalg::detail
