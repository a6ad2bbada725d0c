// Singular value decomposition: Householder bidiagonalization, then implicit-shift Golub–Kahan QR
// on the bidiagonal (Golub & Reinsch 1970); singular values alone from the double Gram matrix.
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <numeric>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg::detail {

// Reorders d descending and the columns of U and V with it.
static void sort_descending(std::vector<double>& d, ColMat* U, ColMat* V) {
  const int64_t n = int64_t(d.size());
  const std::vector<int64_t> order = sorted_order(d, true);
  std::vector<double> ds(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ds[size_t(i)] = d[size_t(order[size_t(i)])];
  d = ds;
  for (ColMat* M : {U, V}) {
    if (!M) continue;
    ColMat S(M->rows, M->cols);
    for (int64_t j = 0; j < n; ++j) std::copy(M->col(order[size_t(j)]), M->col(order[size_t(j)]) + M->rows, S.col(j));
    *M = std::move(S);
  }
}

// kMaxSweepsPerValue: LAPACK allows 6 sweeps per value on average; typical matrices need 2 to 3.
void bidiagonal_svd(std::vector<double>& d, std::vector<double>& e_in, ColMat* U, ColMat* V, int max_sweeps) {
  const int64_t n = int64_t(d.size());
  if (n == 0) return;
  // f[i] couples d[i-1] and d[i]; f[0] stays 0.
  std::vector<double> f(size_t(n), 0.0);
  for (int64_t i = 1; i < n; ++i) f[size_t(i)] = e_in[size_t(i - 1)];
  double anorm = 0.0;
  for (int64_t i = 0; i < n; ++i) anorm = std::max(anorm, std::fabs(d[size_t(i)]) + std::fabs(f[size_t(i)]));
  // Absolute negligibility: an entry below eps * ||B|| changes no singular value by more than that.
  const double tiny = DBL_EPSILON * anorm;
  RotationLog ulog(U), vlog(V);

  for (int64_t k = n - 1; k >= 0; --k) {
    for (int its = 0;; ++its) {
      // Find the top l of the unreduced block ending at k.
      int64_t l = k;
      bool cancel = false;
      for (; l >= 0; --l) {
        if (l == 0 || std::fabs(f[size_t(l)]) <= tiny) break;
        if (std::fabs(d[size_t(l - 1)]) <= tiny) {
          cancel = true;
          break;
        }
      }
      if (cancel) {
        // d[l-1] is negligible: chase f[l] off the block by rotations from the left.
        const int64_t nm = l - 1;
        double c = 0.0, s = 1.0;
        for (int64_t i = l; i <= k; ++i) {
          const double g0 = s * f[size_t(i)];
          f[size_t(i)] *= c;
          if (std::fabs(g0) <= tiny) break;
          const double g = d[size_t(i)];
          const double h = rotation_hypot(g0, g);
          d[size_t(i)] = h;
          c = g / h;
          s = -g0 / h;
          ulog.rotate_columns(nm, i, c, s);
        }
      }
      const double z = d[size_t(k)];
      if (l == k) {  // converged: make the value non-negative
        if (z < 0.0) {
          d[size_t(k)] = -z;
          vlog.negate_column(k);
        }
        break;
      }
      if (its >= max_sweeps)
        fail("linalg.svd", "the bidiagonal QR iteration did not converge in ", max_sweeps, " sweeps (value ", k, ")");
      // Shift from the trailing 2x2 of B^T B (Wilkinson), then one implicit QR sweep over l..k.
      double x = d[size_t(l)];
      const int64_t nm = k - 1;
      double y = d[size_t(nm)], g = f[size_t(nm)], h = f[size_t(k)];
      double ff = ((y - z) * (y + z) + (g - h) * (g + h)) / (2.0 * h * y);
      g = rotation_hypot(ff, 1.0);
      ff = ((x - z) * (x + z) + h * ((y / (ff + std::copysign(g, ff))) - h)) / x;
      double c = 1.0, s = 1.0;
      for (int64_t j = l; j <= nm; ++j) {
        const int64_t i = j + 1;
        g = f[size_t(i)];
        y = d[size_t(i)];
        h = s * g;
        g = c * g;
        double zz = rotation_hypot(ff, h);
        f[size_t(j)] = zz;
        c = ff / zz;
        s = h / zz;
        ff = x * c + g * s;
        g = g * c - x * s;
        h = y * s;
        y *= c;
        vlog.rotate_columns(j, i, c, s);
        zz = rotation_hypot(ff, h);
        d[size_t(j)] = zz;
        if (zz != 0.0) {  // the rotation is arbitrary when zz = 0
          c = ff / zz;
          s = h / zz;
        }
        ff = c * g + s * y;
        x = c * y - s * g;
        ulog.rotate_columns(j, i, c, s);
      }
      f[size_t(l)] = 0.0;
      f[size_t(k)] = ff;
      d[size_t(k)] = x;
    }
  }
  ulog.flush();
  vlog.flush();
  sort_descending(d, U, V);
}

// The Golub-Kahan form TGK of B (d (n), e (n-1)): its eigenvalues below each of x[0..kGroup), the negative
// pivots of TGK - x I = L D L^T, a Sturm count (LAPACK dstebz) over TGK's off-diagonals d_0, e_0, d_1, ... A
// pivot under pivmin in magnitude is taken as -pivmin (dstebz's, DBL_MIN max(1, max b^2)): the count is then
// that of a matrix within pivmin of TGK, and no quotient overflows. A count is a chain of divisions, each
// waiting on the last: kGroup counts in one pass are kGroup independent chains, which a core overlaps (at
// about the time of one). Not inlined: its two calls share one copy.
constexpr int kGroup = 4;
__attribute__((noinline)) static void tgk_counts_below(const std::vector<double>& d, const std::vector<double>& e,
                                                       const double* x, double pivmin, int64_t* count) {
  const int64_t n = int64_t(d.size());
  double q[kGroup];
  for (int g = 0; g < kGroup; ++g) q[g] = -x[g], count[g] = 0;
  for (int64_t k = 0;; ++k) {  // row k of TGK; its off-diagonal above is d_{k/2} or e_{k/2 - 1}
    for (int g = 0; g < kGroup; ++g) {
      if (std::fabs(q[g]) < pivmin) q[g] = -pivmin;
      count[g] += q[g] < 0.0;
    }
    if (k + 1 == 2 * n) return;
    const double b = k % 2 == 0 ? d[size_t(k / 2)] : e[size_t(k / 2)];
    for (int g = 0; g < kGroup; ++g) q[g] = -x[g] - b * b / q[g];
  }
}

// s_i = min(s_i, s_{i-1}) in order: s descending again after values that may cross by a rounding. Not
// inlined: its two callers share one copy.
__attribute__((noinline)) static void clamp_descending(std::vector<double>& s) {
  for (size_t i = 1; i < s.size(); ++i) s[i] = std::min(s[i], s[i - 1]);
}

// The singular values s (n, descending) of the upper bidiagonal B (d (n), e (n-1)) as the square roots of
// the eigenvalues of the tridiagonal B^T B (diagonal d_i^2 + e_{i-1}^2, off-diagonal d_i e_i) by the
// root-free QL (tridiagonal_values_root_free): two divisions per step and no square root, against
// bidiagonal_svd's two rotations (svd 1024's values: 13 ms against 29 in Chromium, ~18 against ~45 native).
// Squaring costs relative accuracy: lambda_i comes within ~eps lambda_1 (0.2 eps measured on Gaussian
// 1024s; 4 eps assumed), so sigma_i within ~eps sigma_1^2 / sigma_i. These values are inverse iteration's shifts, which converge in one solve when
// within ~n eps ||TGK|| (dstein's growth test); a value whose bound is wider than tol = n eps sigma_1 / 4 is
// narrowed to tol by bisection on TGK's Sturm count (the few near 0: 9-11 of a Gaussian 1024's; the
// bracket from the bound is checked by the count, and [0, ||TGK||] taken if it fails). False, for
// bidiagonal_svd, when QL did not converge or more than n / 8 + 16 values need bisection (bisection
// costs ~2n divisions a step, ~3x the QR sweeps' work per value). Unscaled, as the root-free QL: for the
// bidiagonals of float32 matrices (entries within ~1e+-50, fourth powers far from under- and overflow).
bool bidiagonal_values_root_free(const std::vector<double>& d, const std::vector<double>& e, double bmax, std::vector<double>& s) {
  const int64_t n = int64_t(d.size());
  std::vector<double> t(static_cast<size_t>(n)), o(e);
  for (int64_t i = 0; i < n; ++i) {
    const double di = d[size_t(i)], ep = i > 0 ? e[size_t(i - 1)] : 0.0;
    t[size_t(i)] = di * di + ep * ep;
    if (i + 1 < n) o[size_t(i)] *= di;
  }
  if (!tridiagonal_values_root_free(t, o, kMaxQlIterationsPerValue)) return false;
  const std::vector<int64_t> ascending = sorted_order(t, false);
  const double lmax = n > 0 ? t[size_t(ascending[size_t(n - 1)])] : 0.0;
  const double dl = 4.0 * DBL_EPSILON * lmax, tol = 0.25 * double(n) * DBL_EPSILON * std::sqrt(lmax);
  const double pivmin = DBL_MIN * std::max(1.0, bmax * bmax);
  s.resize(static_cast<size_t>(n));
  // Pass 0 only counts the values to bisect, so that a spectrum with many near 0 (graded) goes to the QR
  // sweeps at once; pass 1 bisects them (one loop for both: the brackets' code once, for size).
  for (int pass = 0; pass < 2; ++pass) {
    int64_t bisected = 0;
    for (int64_t j = 0; j < n; ++j) {  // the j-th smallest: TGK has n + j eigenvalues below it
      const double v = t[size_t(ascending[size_t(j)])];
      double lo = std::sqrt(std::max(v - dl, 0.0)), hi = std::sqrt(v + dl), sigma = std::sqrt(std::max(v, 0.0));
      if (hi - lo > 2.0 * tol) {
        ++bisected;
        if (pass == 0) continue;
        double x[kGroup] = {lo, hi, lo, hi};
        int64_t below[kGroup];
        tgk_counts_below(d, e, x, pivmin, below);
        if (!(below[0] <= n + j && below[1] > n + j)) {
          lo = 0.0;
          hi = 2.0 * bmax;  // ||TGK|| <= 2 max |b|
        }
        // Each step counts at kGroup points splitting the bracket in kGroup + 1 equal parts and keeps the
        // part where the count passes n + j: 28 steps take 2 ||TGK|| below any tol (5^28 > 2^64).
        for (int it = 0; it < 28 && hi - lo > tol; ++it) {
          for (int g = 0; g < kGroup; ++g) x[g] = lo + (hi - lo) * double(g + 1) / double(kGroup + 1);
          tgk_counts_below(d, e, x, pivmin, below);
          int g = 0;
          while (g < kGroup && below[g] <= n + j) ++g;  // the value is at or above x[0..g)
          if (g > 0) lo = x[g - 1];
          if (g < kGroup) hi = x[g];
        }
        sigma = 0.5 * (lo + hi);
      }
      s[size_t(n - 1 - j)] = sigma;
    }
    if (bisected > n / 8 + 16) return false;  // 16 more: a small B bisects cheaply
  }
  // A bisected value may cross an unbisected neighbour by up to tol: descending again.
  clamp_descending(s);
  return true;
}

double bidiagonal_unreduced_max(const std::vector<double>& d, const std::vector<double>& e) {
  double bmax = 0.0, bmin = DBL_MAX;
  for (const std::vector<double>* v : {&d, &e})
    for (double x : *v) {
      bmax = std::max(bmax, std::fabs(x));
      bmin = std::min(bmin, std::fabs(x));
    }
  return bmin <= DBL_EPSILON * bmax ? 0.0 : bmax;
}

void bidiagonal_values(const std::vector<double>& d, const std::vector<double>& e, double bmax, std::vector<double>& s) {
  if (bidiagonal_values_root_free(d, e, bmax, s)) return;  // the values alone, O(n^2): root-free, else the QR sweeps
  s = d;
  std::vector<double> f = e;
  bidiagonal_svd(s, f, nullptr, nullptr);
}

// The singular vectors of the bidiagonal B (d, e; n) from inverse iteration on its Golub-Kahan form
// TGK, the (2n, 2n) symmetric tridiagonal with zero diagonal and off-diagonal d_0, e_0, d_1, ..., d_{n-1}:
// its eigenvalues are +-sigma_i and the eigenvector of +sigma_i interleaves v_i and u_i (B v = sigma u,
// B^T u = sigma v), each of norm 1/sqrt(2). Inverse iteration keeps a vector clear of its neighbours to
// about eps ||B|| / gap, and the nearest neighbour of sigma_i may be -sigma_i, so this path is taken only
// when B is unreduced and sigma_min > 1e-9 sigma_1 (double eps over that gap is ~1e-7); otherwise false
// and the caller runs the QR rotations. On success d holds the singular values, descending, and Ub (n, n)
// and Vb (n, n) the vectors of B in matching columns.
bool bidiagonal_vectors_by_inverse_iteration(std::vector<double>& d, const std::vector<double>& e,
                                             const std::vector<double>* values, ColMat& Ub, ColMat& Vb) {
  const int64_t n = int64_t(d.size());
  const double bmax = bidiagonal_unreduced_max(d, e);
  if (bmax == 0.0) return false;
  std::vector<double> s;
  if (values) s = *values;
  else bidiagonal_values(d, e, bmax, s);
  if (!(s[0] > 0.0) || s[size_t(n - 1)] <= 1e-9 * s[0]) return false;
  std::vector<double> zero(size_t(2 * n), 0.0), off(size_t(2 * n - 1)), w(static_cast<size_t>(n));
  // Inverse iteration orthogonalizes each vector against its cluster's earlier ones (values chained by
  // gaps under 1e-3 ||TGK|| <= 2e-3 bmax, tridiagonal_block_vectors), 2 x 2n flops per pair and solve: on a
  // cluster of c values ~8 n c^2 / 2 flops in dependent scalar passes. Past n^2 / 8 pairs (the QR rotations'
  // cost, ~n^3) the rotations are faster: svd 1024 with 768 equal values took 3.4 s here against ~1 s.
  double pairs = 0.0;
  for (int64_t j = 1, first = 0; j < n; ++j) {  // s is descending
    if (s[size_t(j - 1)] - s[size_t(j)] > 2e-3 * bmax) first = j;
    pairs += double(j - first);
  }
  if (pairs > double(n) * double(n) / 8.0) return false;
  for (int64_t i = 0; i < n; ++i) {
    off[size_t(2 * i)] = d[size_t(i)];
    if (i + 1 < n) off[size_t(2 * i + 1)] = e[size_t(i)];
    w[size_t(i)] = s[size_t(n - 1 - i)];  // ascending, as inverse iteration takes them
  }
  ColMat Z(2 * n, n);
  // One extra solve, not dstein's two: these vectors end in float32 (svd 1024: 0.035 s less).
  if (!tridiagonal_block_vectors(zero.data(), off.data(), 2 * n, w.data(), n, Z.a.data(), 2 * n, 0, 1)) return false;
  Ub = ColMat(n, n);
  Vb = ColMat(n, n);
  std::atomic<bool> nonzero{true};
  over_tiles(n, [&, n](int64_t j0) {  // columns apart, tiles of them over the threads
    for (int64_t j = j0; j < std::min(j0 + kTile, n); ++j) {
      const double* z = Z.col(j);
      const int64_t c = n - 1 - j;  // descending
      double su = 0.0, sv = 0.0, ubv = 0.0;
      for (int64_t i = 0; i < n; ++i) {
        sv += z[2 * i] * z[2 * i];
        su += z[2 * i + 1] * z[2 * i + 1];
        ubv += z[2 * i + 1] * (d[size_t(i)] * z[2 * i] + (i + 1 < n ? e[size_t(i)] * z[2 * i + 2] : 0.0));
      }
      if (!(su > 0.0) || !(sv > 0.0)) nonzero = false;
      const double ku = 1.0 / std::sqrt(su), kv = 1.0 / std::sqrt(sv);
      // The value from its vectors, u^T B v (Rayleigh quotient): within ~eps sigma_1 of B's whatever the shift's
      // error (that of the root-free values is up to tol), as the QR sweeps' values are.
      s[size_t(c)] = ubv * ku * kv;
      for (int64_t i = 0; i < n; ++i) {
        Vb(i, c) = z[2 * i] * kv;
        Ub(i, c) = z[2 * i + 1] * ku;
      }
    }
  });
  if (!nonzero) return false;
  // Within a cluster the quotients' rounding may break the order by ~eps sigma_1: descending again.
  clamp_descending(s);
  d = s;
  return true;
}

void bidiagonal_back_jobs(const ColMat& W, const std::vector<double>& tauq, const std::vector<double>& taup,
                          BackJob* jobs) {
  jobs[0] = column_back_job(W, tauq, 0, W.cols);
  BackJob& p = jobs[1];
  p.src = W.a.data(), p.rs = W.rows, p.cs = 1, p.m = W.cols, p.shift = 1, p.tau = &taup, p.cols = W.cols;
}

// The SVD of the (m, n) W, m >= n, through its bidiagonal form: S descending, and when Q and P are not
// null the left (m, n) and right (n, n) vectors. From kBlockedQrFrom columns the bidiagonal's vectors come
// from inverse iteration (O(n^2)) and reach Q and P through the blocked reflectors (float32 GEMMs), with
// the QR rotations as the fallback; below, the rotations act on the formed Q and P. dst (optional): where
// Q and P go instead on the inverse-iteration path, in float (BackJob's dst, drs, dcs; Q and P left empty).
struct FloatDst {
  float* p;
  int64_t rs, cs;
};
static void bidiagonal_route(ColMat& W, std::vector<double>& S, ColMat* Q, ColMat* P, const FloatDst* dst = nullptr) {
  const int64_t n = W.cols;
  std::vector<double> e;
  if (Q && n >= kBlockedQrFrom) {
    std::vector<double> tauq, taup;
    bidiagonal_reduce_blocked(W, S, e, tauq, taup, true);  // float32 output: float updates from 256 columns
    // Both back-transformations' blocks are prepared while one thread finds the values (O(n^2), serial):
    // Q's from W's columns, P's from its rows (the right reflectors).
    BackJob jobs[2];
    bidiagonal_back_jobs(W, tauq, taup, jobs);
    const double bmax = bidiagonal_unreduced_max(S, e);
    std::vector<double> s;
    bool root_free = false;
    prepare_back(jobs, 2, [&](bool after) {
      if (!after) root_free = bmax > 0.0 && bidiagonal_values_root_free(S, e, bmax, s);
    });
    ColMat Ub, Vb;  // (the values again, then the QR sweeps, when the root-free ones failed)
    if (bmax > 0.0 && bidiagonal_vectors_by_inverse_iteration(S, e, root_free ? &s : nullptr, Ub, Vb)) {
      jobs[0].c = Ub.a.data(), jobs[0].crows = jobs[0].ldc = n;  // Ub below m - n rows of zeros
      jobs[1].c = Vb.a.data(), jobs[1].crows = jobs[1].ldc = n;
      for (int q = 0; dst && q < 2; ++q) jobs[q].dst = dst[q].p, jobs[q].drs = dst[q].rs, jobs[q].dcs = dst[q].cs;
    }
    apply_back(jobs, 2);  // Q Ub and P Vb in one split, else Q and P themselves
    *Q = std::move(jobs[0].out);
    *P = std::move(jobs[1].out);
    if (jobs[0].c) return;
    bidiagonal_svd(S, e, Q, P);
    return;
  }
  bidiagonalize(W, S, e, Q, P);
  bidiagonal_svd(S, e, Q, P);
}

void svd_double(const float* A, int64_t m, int64_t n, std::vector<double>& S, ColMat* U, ColMat* V, float* Uf,
                float* Vhf) {
  // Work on the tall one of A and A^T; A^T = V S U^T swaps the factors back at the end.
  const bool transposed = m < n;
  const int64_t M = std::max(m, n), N = std::min(m, n);
  std::vector<double> e;
  const bool want = U != nullptr;
  ColMat Qb, P;
  if (M >= 2 * N && N >= kBlockedQrFrom) {
    // Much taller than wide and large: the blocked QR first (float32 GEMM updates, so R carries float
    // rounding, ~1e-7 of sigma_1, far inside the bar), then the bidiagonal work on the small R, and the
    // left factor Q (M,N) Qb (N,N) as one float GEMM.
    std::vector<float> At, Qf(static_cast<size_t>(M * N)), Rf(static_cast<size_t>(N * N));
    // Near float32's ends the work runs on 2^e A (R in range for the float GEMMs and for its own
    // float storage); the singular values are scaled back, exactly, in double.
    const int scale = gemm_scale_exponent(A, M * N);
    if (transposed || scale != 0) {  // the tall one, row-major: A^T (or A), times 2^e
      At.resize(static_cast<size_t>(M * N));
      for (int64_t j = 0; j < M; ++j)
        for (int64_t i = 0; i < N; ++i) At[size_t(j * N + i)] = std::ldexp(transposed ? A[i * M + j] : A[j * N + i], scale);
    }
    qr_blocked(At.empty() ? A : At.data(), M, N, Qf.data(), Rf.data());
    ColMat R(N, N);
    for (int64_t j = 0; j < N; ++j)
      for (int64_t i = 0; i <= j; ++i) R(i, j) = Rf[size_t(i * N + j)];
    bidiagonal_route(R, S, want ? &Qb : nullptr, want ? &P : nullptr);
    for (double& s : S) s = std::ldexp(s, -scale);
    if (want) {
      std::vector<float> Qbf(static_cast<size_t>(N * N)), Lf(static_cast<size_t>(M * N));
      for (int64_t p = 0; p < N; ++p)
        for (int64_t j = 0; j < N; ++j) Qbf[size_t(p * N + j)] = float(Qb(p, j));
      kernels::sgemm(M, N, N, Qf.data(), N, 1, Qbf.data(), N, 1, Lf.data(), N, false);
      ColMat L(M, N);
      for (int64_t j = 0; j < N; ++j)
        for (int64_t i = 0; i < M; ++i) L(i, j) = Lf[size_t(i * N + j)];
      Qb = std::move(L);
    }
  } else if (M >= 2 * N && N > 0) {
    // Much taller than wide: QR first, then the bidiagonal work and every rotation act on the small R.
    ColMat W = load(A, m, n, transposed);
    std::vector<double> tau;
    householder_qr(W, tau);
    ColMat R(N, N);
    for (int64_t j = 0; j < N; ++j)
      for (int64_t i = 0; i <= j; ++i) R(i, j) = W(i, j);
    ColMat Qr;
    if (want) Qr = form_q(W, tau, N);
    bidiagonalize(R, S, e, want ? &Qb : nullptr, want ? &P : nullptr);
    bidiagonal_svd(S, e, want ? &Qb : nullptr, want ? &P : nullptr);
    if (want) {
      Qb = multiply(Qr, Qb);  // left factor of the tall matrix: Qr (M,N) times Qb (N,N)
    }
  } else {
    ColMat W = load(A, m, n, transposed);
    // U (m, N) row-major at rows of N, Vh (N, n) with V's columns as its rows; Q is A^T's V when transposed.
    const FloatDst u{Uf, N, 1}, vh{Vhf, 1, n}, dst[2] = {transposed ? vh : u, transposed ? u : vh};
    bidiagonal_route(W, S, want ? &Qb : nullptr, want ? &P : nullptr, Uf && Vhf ? dst : nullptr);
  }
  if (!want) return;
  if (transposed) {
    *U = std::move(P);
    *V = std::move(Qb);
  } else {
    *U = std::move(Qb);
    *V = std::move(P);
  }
}

void svd_f64(const double* A, int64_t m, int64_t n, std::vector<double>& S, ColMat* U, ColMat* V) {
  const bool transposed = m < n;  // work on the tall one of A and A^T, as svd_double
  ColMat W = load(A, m, n, transposed), Q, P;
  std::vector<double> e;
  const bool want = U != nullptr;
  bidiagonalize(W, S, e, want ? &Q : nullptr, want ? &P : nullptr, false);
  bidiagonal_svd(S, e, want ? &Q : nullptr, want ? &P : nullptr);
  if (!want) return;
  *U = std::move(transposed ? P : Q);
  *V = std::move(transposed ? Q : P);
}

}  // namespace tp::linalg::detail

namespace tp::linalg {

using namespace detail;

static void check_matrix(const char* op, const float* A, int64_t m, int64_t n) {
  if (m < 0 || n < 0) fail(op, "negative matrix size ", m, " x ", n);
  check_finite(op, A, m * n);
}

void svdvals(const float* A, int64_t m, int64_t n, float* S) {
  check_matrix("linalg.svdvals", A, m, n);
  std::vector<double> s;
  svdvals_double(A, m, n, s);
  for (size_t i = 0; i < s.size(); ++i) S[i] = float(s[i]);
}

void svd(const double* A, int64_t m, int64_t n, double* U, double* S, double* Vh) {
  if (m < 0 || n < 0) fail("linalg.svd", "negative matrix size ", m, " x ", n);
  check_finite("linalg.svd", A, m * n);
  const int64_t k = std::min(m, n);
  std::vector<double> s;
  ColMat Uc, Vc;
  if (k > 0) svd_f64(A, m, n, s, U ? &Uc : nullptr, U ? &Vc : nullptr);
  std::copy(s.begin(), s.end(), S);
  if (!U) return;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) U[i * k + j] = Uc(i, j);
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) Vh[j * n + i] = Vc(i, j);
}

void svd(const float* A, int64_t m, int64_t n, float* U, float* S, float* Vh) {
  check_matrix("linalg.svd", A, m, n);
  const int64_t k = std::min(m, n);
  std::vector<double> s;
  ColMat Uc, Vc;
  svd_double(A, m, n, s, &Uc, &Vc, U, Vh);
  for (int64_t j = 0; j < k; ++j) S[j] = float(s[size_t(j)]);
  if (Uc.rows != m) return;  // U and Vh written by the back-transformation
  // U (row-major) from the column-major Uc in tiles (walking Uc across its rows touches a new page per
  // element), row tiles over the threads; Vh's rows are Vc's columns.
  over_tiles(m, [=, &Uc](int64_t i0) {
    for (int64_t j0 = 0; j0 < k; j0 += kTile)
      for (int64_t i = i0; i < std::min(i0 + kTile, m); ++i)
        for (int64_t j = j0; j < std::min(j0 + kTile, k); ++j) U[i * k + j] = float(Uc(i, j));
  });
  for (int64_t j = 0; j < k; ++j)
    for (int64_t i = 0; i < n; ++i) Vh[j * n + i] = float(Vc(i, j));
}

}  // namespace tp::linalg
