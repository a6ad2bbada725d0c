// Householder reflectors and the reductions built from them: QR and the bidiagonal form of the SVD.
// All work matrices are column-major double (see linalg_detail.hpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "for_size.hpp"
#include "linalg_detail.hpp"
#include "out_of_line.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/simd.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

using tp::detail::call_out_of_line;

ColMat ColMat::identity(int64_t r, int64_t c) {
  ColMat I(r, c);
  TP_SCALAR_LOOP for (int64_t i = 0; i < std::min(r, c); ++i) I(i, i) = 1.0;
  return I;
}

int gemm_scale_exponent(const float* A, int64_t count) {
  // max |A| in one SIMD pass with four accumulators (the scalar loop took 2.5 ms on 3072x1024 in WASM,
  // 3% of svdLowrank). A is finite here: the callers check first.
  namespace v = simd;
  v::f32x4 m0 = v::zero(), m1 = v::zero(), m2 = v::zero(), m3 = v::zero();
  int64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    m0 = v::max(m0, v::abs(v::load(A + i)));
    m1 = v::max(m1, v::abs(v::load(A + i + 4)));
    m2 = v::max(m2, v::abs(v::load(A + i + 8)));
    m3 = v::max(m3, v::abs(v::load(A + i + 12)));
  }
  const v::f32x4 m = v::max(v::max(m0, m1), v::max(m2, m3));
  float amax = std::max(std::max(v::lane<0>(m), v::lane<1>(m)), std::max(v::lane<2>(m), v::lane<3>(m)));
  for (; i < count; ++i) amax = std::max(amax, std::fabs(A[i]));
  if (amax == 0.0f || (amax >= 0x1p-32f && amax <= 0x1p32f)) return 0;
  int e = 0;
  std::frexp(amax, &e);  // amax = f 2^e with f in [0.5, 1)
  return 1 - e;
}

void check_finite(const char* op, const float* A, int64_t count) {
  // x - x is +0 for every finite x and NaN for NaN and +-Inf, and a sum stays 0 until a NaN enters it:
  // one SIMD pass with four accumulators (std::isfinite per element took 7 ms on 3072x1024 in WASM).
  // The scalar loop runs only to name the culprit.
  namespace v = simd;
  v::f32x4 s0 = v::zero(), s1 = v::zero(), s2 = v::zero(), s3 = v::zero();
  int64_t i = 0;
  for (; i + 16 <= count; i += 16) {
    const v::f32x4 x0 = v::load(A + i), x1 = v::load(A + i + 4), x2 = v::load(A + i + 8), x3 = v::load(A + i + 12);
    s0 = v::add(s0, v::sub(x0, x0));
    s1 = v::add(s1, v::sub(x1, x1));
    s2 = v::add(s2, v::sub(x2, x2));
    s3 = v::add(s3, v::sub(x3, x3));
  }
  float total = v::hsum(v::add(v::add(s0, s1), v::add(s2, s3)));
  for (; i < count; ++i) total += A[i] - A[i];
  if (total == 0.0f) return;
  for (i = 0; i < count; ++i)
    if (!std::isfinite(A[i])) fail(op, "input contains NaN or Inf (element ", i, " is ", A[i], ")");
}

void check_finite(const char* op, const double* A, int64_t count) {
  for (int64_t i = 0; i < count; ++i)
    if (!std::isfinite(A[i])) fail(op, "input contains NaN or Inf (element ", i, " is ", A[i], ")");
}

namespace {
template <class T>
ColMat load_any(const T* A, int64_t m, int64_t n, bool transpose) {
  if (transpose) {  // column j of A^T is row j of A: the row-major data is already column-major
    ColMat W(n, m);
    for (int64_t i = 0; i < m * n; ++i) W.a[size_t(i)] = A[i];
    return W;
  }
  ColMat W(m, n);
  // Row tiles over the threads, each 8 rows at a time across the columns: W's runs of 8 fill whole lines, and
  // 8 row streams of A stay in L1 even at a row stride of 4 KB (32x32 tiles: 2.7 ms at 1024 in Chromium).
  over_tiles<std::is_same_v<T, float>>(m, [=, &W](int64_t i0) {
    for (int64_t r = i0; r < std::min(i0 + kTile, m); r += 8)
      for (int64_t j = 0; j < n; ++j)
        TP_SCALAR_LOOP for (int64_t i = r; i < std::min(r + 8, m); ++i) W(i, j) = A[i * n + j];
  });
  return W;
}
}  // namespace
ColMat load(const float* A, int64_t m, int64_t n, bool transpose) { return load_any(A, m, n, transpose); }
ColMat load(const double* A, int64_t m, int64_t n, bool transpose) { return load_any(A, m, n, transpose); }

void TeamSolo::next(int64_t j0, int64_t from, int64_t panel) {
  const int64_t now = tp::detail::pool_counters().team_sleeps;
  solo = j0 > from && (solo ? (j0 / panel) % 4 != 0 : now - sleeps > panel / 4);
  sleeps = now;
}

void to_float(const double* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = float(x[i]);
}

// dot and axpy stay plain loops: clang vectorizes them (with its own unrolling) better than the
// explicit version did, measured in WASM.
double dot(const double* x, const double* y, int64_t n) {
  // Four partial sums so the loop pipelines (and vectorizes) without reassociation by the compiler.
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += x[i] * y[i];
    s1 += x[i + 1] * y[i + 1];
    s2 += x[i + 2] * y[i + 2];
    s3 += x[i + 3] * y[i + 3];
  }
  for (; i < n; ++i) s0 += x[i] * y[i];
  return (s0 + s1) + (s2 + s3);
}

void axpy(double* y, double a, const double* x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

ColMat multiply(const ColMat& A, const ColMat& B) {
  // A is (m,k), B is (k,n), C is (m,n). A 4x4 block of C stays in eight f64x2 registers while p runs
  // over k; one axpy per (p, j) instead re-read and re-wrote C's column k times (2.4 ms -> see svd_double).
  TP_ASSERT(A.cols == B.rows);
  const int64_t m = A.rows, k = A.cols, n = B.cols;
  ColMat C(m, n);
  int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const double *b0 = B.col(j), *b1 = B.col(j + 1), *b2 = B.col(j + 2), *b3 = B.col(j + 3);
    int64_t i = 0;
    for (; i + 4 <= m; i += 4) {
      d2 c00 = {0, 0}, c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
      for (int64_t p = 0; p < k; ++p) {
        const double* a = A.col(p) + i;
        const d2 a0 = load2(a), a1 = load2(a + 2);
        const d2 w0 = {b0[p], b0[p]}, w1 = {b1[p], b1[p]}, w2 = {b2[p], b2[p]}, w3 = {b3[p], b3[p]};
        c00 += a0 * w0, c01 += a1 * w0, c10 += a0 * w1, c11 += a1 * w1;
        c20 += a0 * w2, c21 += a1 * w2, c30 += a0 * w3, c31 += a1 * w3;
      }
      store2(C.col(j) + i, c00), store2(C.col(j) + i + 2, c01);
      store2(C.col(j + 1) + i, c10), store2(C.col(j + 1) + i + 2, c11);
      store2(C.col(j + 2) + i, c20), store2(C.col(j + 2) + i + 2, c21);
      store2(C.col(j + 3) + i, c30), store2(C.col(j + 3) + i + 2, c31);
    }
    for (; i < m; ++i)
      for (int64_t jj = j; jj < j + 4; ++jj) {
        double s = 0.0;
        for (int64_t p = 0; p < k; ++p) s += A(i, p) * B(p, jj);
        C(i, jj) = s;
      }
  }
  for (; j < n; ++j)
    for (int64_t p = 0; p < k; ++p) axpy(C.col(j), B(p, j), A.col(p), m);
  return C;
}

void rotate(double* x, double* y, int64_t n, double c, double s) {
  const d2 c2 = {c, c}, s2 = {s, s};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const d2 x0 = load2(x + i), y0 = load2(y + i), x1 = load2(x + i + 2), y1 = load2(y + i + 2);
    store2(x + i, c2 * x0 + s2 * y0);
    store2(y + i, c2 * y0 - s2 * x0);
    store2(x + i + 2, c2 * x1 + s2 * y1);
    store2(y + i + 2, c2 * y1 - s2 * x1);
  }
  for (; i < n; ++i) {
    const double xi = x[i], yi = y[i];
    x[i] = c * xi + s * yi;
    y[i] = c * yi - s * xi;
  }
}

__attribute__((noinline)) TP_FOR_SIZE void zeros(std::vector<double>& v, int64_t n) { v = std::vector<double>(size_t(n)); }

double make_householder(double& alpha, double* x, int64_t len, double drop_below) {
  // The norm from plain squares summed by dot (a vectorized pass) while they can neither underflow nor
  // overflow; else scaled by the largest entry, which divides each entry in one chain (~5 us per column of
  // 1024 natively, against ~1.5: the thread teams of the reductions take this step on every thread). The
  // reductions drive rounding noise far below the input's range (1e-160 and less in a rank-1 matrix),
  // where plain squares would underflow and break the reflector's orthogonality.
  double xnorm = std::sqrt(dot(x, x, len));
  if (!(xnorm > 1e-125 && xnorm < 1e125)) {
    double scale = 0.0;
    for (int64_t i = 0; i < len; ++i) scale = std::max(scale, std::fabs(x[i]));
    if (scale == 0.0) return 0.0;
    double ss = 0.0;
    for (int64_t i = 0; i < len; ++i) ss += (x[i] / scale) * (x[i] / scale);
    xnorm = scale * std::sqrt(ss);
  }
  if (xnorm <= drop_below) {
    for (int64_t i = 0; i < len; ++i) x[i] = 0.0;
    return 0.0;
  }
  const double beta = -std::copysign(std::hypot(alpha, xnorm), alpha);
  if (std::fabs(beta) < 1e-280) {
    // Entries this small are pure rounding noise (float32 data is >= 1e-45): drop them rather than
    // divide by a near-denormal.
    for (int64_t i = 0; i < len; ++i) x[i] = 0.0;
    return 0.0;
  }
  const double tau = (beta - alpha) / beta;
  const double inv = 1.0 / (alpha - beta);
  for (int64_t i = 0; i < len; ++i) x[i] *= inv;
  alpha = beta;
  return tau;
}

void scaled_copy_column_squares(const float* A, int64_t m, int64_t n, double up, float* F, double* ss) {
  // A product with a power of two in double is exact and rounds once to float, as ldexp would, without a
  // libm call per element; the squares are F's, row by row into one accumulator per column.
  std::fill(ss, ss + n, 0.0);
  for (int64_t i = 0; i < m; ++i) {
    const float* a = A + i * n;
    float* f = F + i * n;
    for (int64_t j = 0; j < n; ++j) {
      f[j] = float(double(a[j]) * up);
      ss[j] += double(f[j]) * double(f[j]);
    }
  }
}

void gather_columns(const float* F, int64_t ld, ColMat& P) {
  // 8 rows at a time: each column of P gets a run of 8, and 8 row streams of F stay in L1 even when ld is a
  // multiple of 4 KB.
  const int64_t rows = P.rows, cols = P.cols;
  for (int64_t i0 = 0; i0 < rows; i0 += 8) {
    const int64_t i1 = std::min(rows, i0 + 8);
    for (int64_t j = 0; j < cols; ++j) {
      double* p = P.col(j);
      TP_SCALAR_LOOP for (int64_t i = i0; i < i1; ++i) p[i] = F[i * ld + j];
    }
  }
}

void unit_lower_to_float(const ColMat& P, float* V, int64_t ldv) {
  for (int64_t j = 0; j < P.cols; ++j) {
    float* v = V + j * ldv;
    const double* p = P.col(j);
    for (int64_t i = 0; i < j; ++i) v[i] = 0.0f;
    v[j] = 1.0f;
    for (int64_t i = j + 1; i < P.rows; ++i) v[i] = float(p[i]);
  }
}

void wy_recurrence(double* NT, int64_t sb, const float* G, int64_t o, int64_t b, const double* tau) {
  // Column i of -T, rows 0..i-1: -tau_i (-T)(0:i, 0:i) G(0:i, i), built as y += (-T)(0:q+1, q) G(q, i)
  // column by column of -T (axpys on contiguous columns, not strided dot products).
  for (int64_t i = o; i < o + b; ++i) {
    double* y = NT + i * sb;
    for (int64_t q = 0; q < i; ++q) {
      const double* tq = NT + q * sb;
      const double gq = G[q * sb + i];
      for (int64_t j = 0; j <= q; ++j) y[j] += tq[j] * gq;
    }
    for (int64_t j = 0; j < i; ++j) y[j] *= -tau[i];
    y[i] = -tau[i];
  }
}

// Applies H = I - tau v v^T from the left to rows [r0, r0+len) of columns [c0, c1) of W.
void reflect_columns(ColMat& W, const double* v, int64_t len, double tau, int64_t r0, int64_t c0, int64_t c1) {
  if (tau == 0.0) return;
  for (int64_t j = c0; j < c1; ++j) {
    double* c = W.col(j) + r0;
    axpy(c, -tau * dot(v, c, len), v, len);
  }
}

void householder_qr(ColMat& W, std::vector<double>& tau, const double* drop_below) {
  const int64_t m = W.rows, n = W.cols, k = std::min(m, n);
  zeros(tau, k);
  for (int64_t i = 0; i < k; ++i) {
    double* c = W.col(i) + i;
    tau[size_t(i)] = make_householder(c[0], c + 1, m - i - 1, drop_below ? drop_below[i] : 0.0);
    const double beta = c[0];
    c[0] = 1.0;  // v = [1; W(i+1:m, i)] in place for the update
    reflect_columns(W, c, m - i, tau[size_t(i)], i, i + 1, n);
    c[0] = beta;
  }
}

ColMat form_q(const ColMat& W, const std::vector<double>& tau, int64_t k) {
  const int64_t m = W.rows, K = int64_t(tau.size());
  ColMat Q = ColMat::identity(m, k);
  std::vector<double> v;
  for (int64_t i = std::min(K, k) - 1; i >= 0; --i) {
    v.assign(W.col(i) + i, W.col(i) + m);
    v[0] = 1.0;
    reflect_columns(Q, v.data(), m - i, tau[size_t(i)], i, i, k);
  }
  return Q;
}

// The two passes of bidiagonalize's step i over columns [j0, j1) of the trailing matrix, called out of
// line (out_of_line.hpp; inline, a reader's first 1024x1024 reduction took 1037 ms, against 342 ms).

// Pass 1: the pending right update W -= pending z v^T on rows i.., then y_j = u . column j (rows i..).
static void pending_update_and_dots(ColMat& W, int64_t i, int64_t j0, int64_t j1, double pending, const double* z,
                                    const double* v, const double* u, double* y) {
  const int64_t m = W.rows;
  for (int64_t j = j0; j < j1; ++j) {
    double* c = W.col(j);
    const double a = pending * v[j];
    const d2 a2 = {a, a};
    d2 s2 = {0.0, 0.0};
    double s = 0.0;
    int64_t r = i;
    for (; r + 2 <= m; r += 2) {
      const d2 cr = load2(c + r) - a2 * load2(z + r);
      store2(c + r, cr);
      s2 += cr * load2(u + r);
    }
    for (; r < m; ++r) {
      c[r] -= a * z[r];
      s += c[r] * u[r];
    }
    y[j] = s + (s2[0] + s2[1]);
  }
}

// Pass 2, rows i+1..: the left update W -= tq u y^T, then z = (the updated columns) v, over the range.
static void left_update_and_product(ColMat& W, int64_t i, int64_t j0, int64_t j1, double tq, const double* u,
                                    const double* y, const double* v, double* z) {
  const int64_t m = W.rows;
  for (int64_t r = i + 1; r < m; ++r) z[r] = 0.0;
  for (int64_t j = j0; j < j1; ++j) {
    double* c = W.col(j);
    const double a = tq * y[j], vj = v[j];
    const d2 a2 = {a, a}, v2 = {vj, vj};
    int64_t r = i + 1;
    for (; r + 2 <= m; r += 2) {
      const d2 cr = load2(c + r) - a2 * load2(u + r);
      store2(c + r, cr);
      store2(z + r, load2(z + r) + v2 * cr);
    }
    for (; r < m; ++r) {
      c[r] -= a * u[r];
      z[r] += vj * c[r];
    }
  }
}

void bidiagonal_reduce(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tauq,
                       std::vector<double>& taup) {
  // Step i: left reflector H_i = I - tauq u u^T zeroes column i below the diagonal, right reflector
  // G_i = I - taup v v^T zeroes row i right of the superdiagonal (LAPACK gebd2). Applied one after the
  // other, each costs a product with the trailing matrix and a rank-1 update: four passes over it. Here
  // G_i's update waits (z = W v, pending) and is applied by the next step's first pass, which also forms
  // y = W^T u for H_{i+1}; the second pass applies H_{i+1} and forms the next z. Two passes per step,
  // each reading and writing the trailing matrix once (it does not fit in cache from n ~ 500).
  const int64_t m = W.rows, n = W.cols;
  TP_ASSERT(m >= n);
  zeros(d, n);
  zeros(e, n > 0 ? n - 1 : 0);
  zeros(tauq, n);
  zeros(taup, n);
  // Indexed by global row (u, z) or column (v, y); z and v hold the pending right update W -= taup z v^T
  // of rows i.. and columns i.. (zero before the first step).
  LineVector u(size_t(m), 0.0), z(size_t(m), 0.0), v(size_t(n), 0.0), y(size_t(n), 0.0);
  double pending = 0.0;  // taup of the pending update
  // From kSplitFrom trailing columns both passes split over the GEMM's threads: pass 1 by columns (each
  // y_j is one column's sum), pass 2 through sum_over_chunks (z sums over the columns). The bits do not
  // depend on the thread count.
  LineVector partial(n - 1 >= kSplitFrom ? size_t(kChunks * m) : 0);
  for (int64_t i = 0; i < n; ++i) {
    double* ci = W.col(i);
    {  // the pending right update of column i, then H_i from it
      const double a = pending * v[size_t(i)];
      for (int64_t r = i; r < m; ++r) ci[r] -= a * z[size_t(r)];
    }
    const double tq = make_householder(ci[i], ci + i + 1, m - i - 1);
    tauq[size_t(i)] = tq;
    d[size_t(i)] = ci[i];
    u[size_t(i)] = 1.0;
    for (int64_t r = i + 1; r < m; ++r) u[size_t(r)] = ci[r];
    const int64_t cols = n - i - 1;
    const bool split = cols >= kSplitFrom;
    const int parts = split ? kernels::sgemm_threads() : 1;
    tp::detail::run_parts(parts, [&W, i, cols, parts, pending, z = z.data(), v = v.data(), u = u.data(),
                                  y = y.data()](int part) {
      call_out_of_line<&pending_update_and_dots>(W, i, i + 1 + cols * part / parts, i + 1 + cols * (part + 1) / parts,
                                                 pending, z, v, u, y);
    });
    if (i + 1 >= n) break;
    // Row i after H_i (its entry j is W(i,j) - tauq y_j, u_i being 1), and G_i from it.
    const int64_t len = n - i - 1;
    TP_SCALAR_LOOP for (int64_t j = i + 1; j < n; ++j) v[size_t(j)] = W(i, j) - tq * y[size_t(j)];
    const double tp = make_householder(v[size_t(i + 1)], v.data() + i + 2, len - 1);
    taup[size_t(i)] = tp;
    e[size_t(i)] = v[size_t(i + 1)];
    v[size_t(i + 1)] = 1.0;
    TP_SCALAR_LOOP for (int64_t j = i + 1; j < n; ++j) W(i, j) = v[size_t(j)];  // v kept in row i for forming P
    W(i, i + 1) = e[size_t(i)];
    if (!split) {
      call_out_of_line<&left_update_and_product>(W, i, i + 1, n, tq, u.data(), y.data(), v.data(), z.data());
    } else {
      sum_over_chunks(partial.data(), m, i + 1, m, z.data(),
                      [&W, i, cols, tq, u = u.data(), y = y.data(), v = v.data()](int64_t c, double* zc) {
                        call_out_of_line<&left_update_and_product>(W, i, i + 1 + cols * c / kChunks,
                                                                   i + 1 + cols * (c + 1) / kChunks, tq, u, y, v, zc);
                      });
    }
    pending = tp;
  }
  taup.resize(size_t(std::max<int64_t>(n - 1, 0)));
}

ColMat right_reflectors(const ColMat& W) {
  const int64_t n = W.cols;
  ColMat Vp(n, std::max<int64_t>(n - 1, 0));
  for (int64_t i = 0; i + 1 < n; ++i)
    TP_SCALAR_LOOP for (int64_t j = i + 2; j < n; ++j) Vp(j, i) = W(i, j);
  return Vp;
}

void bidiagonalize(ColMat& W, std::vector<double>& d, std::vector<double>& e, ColMat* Q, ColMat* P, bool blocked) {
  const int64_t m = W.rows, n = W.cols;
  std::vector<double> tauq, taup;
  bidiagonal_reduce(W, d, e, tauq, taup);
  LineVector u;
  if (blocked && n >= kBlockedQrFrom) {  // the same products, blocked (float32 GEMM updates)
    if (Q) *Q = form_q_blocked(W, tauq, 0, n);
    if (P) *P = form_q_blocked(right_reflectors(W), taup, 1, n);
    return;
  }
  if (Q) {
    *Q = ColMat::identity(m, n);
    for (int64_t i = n - 1; i >= 0; --i) {
      u.assign(W.col(i) + i, W.col(i) + m);
      u[0] = 1.0;
      reflect_columns(*Q, u.data(), m - i, tauq[size_t(i)], i, i, n);
    }
  }
  if (P) {
    *P = ColMat::identity(n, n);
    for (int64_t i = n - 2; i >= 0; --i) {
      const int64_t len = n - i - 1;
      std::vector<double> row(static_cast<size_t>(len));
      row[0] = 1.0;
      for (int64_t j = 1; j < len; ++j) row[size_t(j)] = W(i, i + 1 + j);
      reflect_columns(*P, row.data(), len, taup[size_t(i)], i + 1, i + 1, n);
    }
  }
}

}  // namespace tp::linalg::detail
