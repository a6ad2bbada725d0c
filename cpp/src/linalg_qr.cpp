// Reduced QR by Householder reflectors (LAPACK geqrf + orgqr). Small matrices run the unblocked
// reflectors in double; larger ones are blocked (compact WY, LAPACK's geqrt/larft/larfb): each panel of
// kPanel columns is factored in double, and its reflectors reach the rest of the matrix, and Q, through
// float32 GEMMs, where nearly all the work is. Householder QR is backward stable whatever the
// conditioning, so the float updates cost about float32 rounding in QR - A and Q^T Q - I (~1e-7 and
// ~1e-6 at 3072x1024), the accuracy of LAPACK's own float32 sgeqrf, at 5-6x the speed.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg::detail {

namespace {

constexpr int64_t kPanel = 32;

// The column-major float (rows, cols) matrix F with leading dimension ld: element (i, j) at F[i + j*ld].
struct ColF {
  float* a;
  int64_t ld;
  float* at(int64_t i, int64_t j) const { return a + i + j * ld; }
};

// One factored panel: its reflectors V (len, b) unit lower trapezoidal, column-major float with the
// unit diagonal and the zeros above it written out, and T (b, b) upper triangular (row-major float),
// so that H_0 H_1 ... H_{b-1} = I - V T V^T.
struct Panel {
  int64_t row0 = 0, len = 0, b = 0;
  std::vector<float> V, T;
};

// T of the compact WY form from the double reflectors in P (len, b) and their factors tau (LAPACK
// larft, forward, columnwise): T(i,i) = tau_i, T(0:i, i) = -tau_i T(0:i, 0:i) V(:, 0:i)^T v_i.
std::vector<float> wy_factor(const ColMat& P, const std::vector<double>& tau) {
  const int64_t len = P.rows, b = P.cols;
  std::vector<double> T(static_cast<size_t>(b * b), 0.0), w(static_cast<size_t>(b));
  for (int64_t i = 0; i < b; ++i) {
    // w_j = v_j . v_i over the rows where both are nonzero: row i (where v_i is 1) and below.
    for (int64_t j = 0; j < i; ++j)
      w[size_t(j)] = P(i, j) + dot(P.col(j) + i + 1, P.col(i) + i + 1, len - i - 1);
    for (int64_t j = 0; j < i; ++j) {
      double s = 0.0;
      for (int64_t p = j; p < i; ++p) s += T[size_t(j * b + p)] * w[size_t(p)];
      T[size_t(j * b + i)] = -tau[size_t(i)] * s;
    }
    T[size_t(i * b + i)] = tau[size_t(i)];
  }
  return std::vector<float>(T.begin(), T.end());
}

// C (len, cols) column-major at ld <- (I - V op(T) V^T) C, op(T) = T^T when transpose (applying
// H_{b-1} ... H_0 = Q_panel^T, for the trailing matrix) else T (applying Q_panel, for forming Q).
// Two float GEMMs around a (b, cols) product with the small triangle.
void apply_block(const Panel& p, float* C, int64_t ld, int64_t cols, bool transpose, std::vector<float>& W1,
                 std::vector<float>& W2) {
  using kernels::sgemm;
  const int64_t len = p.len, b = p.b;
  if (cols == 0) return;
  W1.resize(size_t(b * cols));
  W2.resize(size_t(b * cols));
  // W1 (b, cols) row-major = V^T C (V^T has row stride len, C column stride ld).
  sgemm(b, cols, len, p.V.data(), len, 1, C, 1, ld, W1.data(), cols, false);
  // W2 = -op(T) W1 (T upper triangular, so op(T) row i reads T(i, i:) or T(:i+1, i)).
  std::fill(W2.begin(), W2.end(), 0.0f);
  for (int64_t i = 0; i < b; ++i)
    for (int64_t q = transpose ? 0 : i; q < (transpose ? i + 1 : b); ++q) {
      const float t = -(transpose ? p.T[size_t(q * b + i)] : p.T[size_t(i * b + q)]);
      if (t == 0.0f) continue;
      float* w2 = W2.data() + i * cols;
      const float* w1 = W1.data() + q * cols;
      for (int64_t j = 0; j < cols; ++j) w2[j] += t * w1[j];
    }
  // C += V W2, written as C^T += W2^T V^T: sgemm's output has unit column stride, and the
  // column-major C is the row-major C^T with row stride ld.
  sgemm(cols, len, b, W2.data(), 1, cols, p.V.data(), len, 1, C, ld, true);
}

// The panel of the double reflectors in P (len, b), below its unit diagonal, with factors tau, whose
// rows start at row0 of the whole matrix.
Panel make_panel(const ColMat& P, const std::vector<double>& tau, int64_t row0) {
  Panel p;
  p.row0 = row0;
  p.len = P.rows;
  p.b = P.cols;
  p.T = wy_factor(P, tau);
  p.V.assign(size_t(p.len * p.b), 0.0f);
  for (int64_t j = 0; j < p.b; ++j) {
    p.V[size_t(j * p.len + j)] = 1.0f;
    for (int64_t i = j + 1; i < p.len; ++i) p.V[size_t(j * p.len + i)] = float(P(i, j));
  }
  return p;
}

}  // namespace

// Qv (m, cols) column-major float <- H_0 H_1 ... H_{K-1} Qv for the reflectors of V (see form_q_blocked),
// last panel first. Panel p changes rows from its first row r0 on, and, when Qv starts as the first columns
// of I (identity_start), only columns from r0 on: the columns left of it are still those of I there.
static void apply_reflectors(const ColMat& V, const std::vector<double>& tau, int64_t shift, float* Qv, int64_t cols,
                             bool identity_start) {
  const int64_t m = V.rows, K = int64_t(tau.size());
  std::vector<float> W1, W2;
  for (int64_t j0 = (K - 1) / kPanel * kPanel; j0 >= 0 && K > 0; j0 -= kPanel) {
    const int64_t b = std::min(kPanel, K - j0), r0 = j0 + shift;
    const int64_t c0 = identity_start ? r0 : 0;
    if (c0 >= cols) continue;
    TP_ASSERT(m - r0 >= b);
    ColMat P(m - r0, b);
    for (int64_t j = 0; j < b; ++j)
      for (int64_t i = j + 1; i < m - r0; ++i) P(i, j) = V(r0 + i, j0 + j);
    const Panel p = make_panel(P, std::vector<double>(tau.begin() + j0, tau.begin() + j0 + b), r0);
    apply_block(p, Qv + r0 + c0 * m, m, cols - c0, false, W1, W2);
  }
}

ColMat form_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t k) {
  const int64_t m = V.rows;
  std::vector<float> Qv(size_t(m * k), 0.0f);  // column-major (m, k), as ColMat
  for (int64_t i = 0; i < std::min(m, k); ++i) Qv[size_t(i * m + i)] = 1.0f;
  apply_reflectors(V, tau, shift, Qv.data(), k, true);
  ColMat Q(m, k);
  std::copy(Qv.begin(), Qv.end(), Q.a.begin());
  return Q;
}

ColMat apply_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, const ColMat& C) {
  TP_ASSERT(C.rows == V.rows);
  std::vector<float> Qv(C.a.begin(), C.a.end());
  apply_reflectors(V, tau, shift, Qv.data(), C.cols, false);
  ColMat Q(C.rows, C.cols);
  std::copy(Qv.begin(), Qv.end(), Q.a.begin());
  return Q;
}

void qr_blocked(const float* A, int64_t m, int64_t n, float* Q, float* R) {
  const int64_t k = std::min(m, n);
  // F = A, column-major float: panels read columns, and the GEMMs take any strides.
  std::vector<float> Fv(size_t(m * n));
  const ColF F{Fv.data(), m};
  const int e = gemm_scale_exponent(A, m * n);  // F = 2^e A; R is scaled back at the end
  for (int64_t i0 = 0; i0 < m; i0 += 32)  // transposed in tiles so reads and writes stay in cache
    for (int64_t j0 = 0; j0 < n; j0 += 32)
      for (int64_t j = j0; j < std::min(j0 + 32, n); ++j)
        for (int64_t i = i0; i < std::min(i0 + 32, m); ++i) *F.at(i, j) = std::ldexp(A[i * n + j], e);
  // What is left of a column below the diagonal once it is under float32 resolution of the column
  // (2^-23 of its norm) is rounding from the float updates, not data. Reflecting it anyway builds
  // reflectors from noise, whose float updates add coherent rounding on patterned matrices (all ones:
  // ||QR - A|| / ||A|| reached 2e-5) and run on denormals; counting it as zero costs at most that
  // much of each column, below what float32 storage of A already costs.
  std::vector<double> drop_below(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    double s = 0.0;
    for (int64_t i = 0; i < m; ++i) s += double(*F.at(i, j)) * double(*F.at(i, j));
    drop_below[size_t(j)] = std::sqrt(s) * 0x1p-23;
  }
  std::vector<Panel> panels;
  std::vector<float> W1, W2;
  for (int64_t p0 = 0; p0 < k; p0 += kPanel) {
    Panel p;
    p.row0 = p0;
    p.len = m - p0;
    p.b = std::min(kPanel, k - p0);
    // Factor the panel (rows p0.., columns p0..p0+b) in double.
    ColMat P(p.len, p.b);
    for (int64_t j = 0; j < p.b; ++j)
      for (int64_t i = 0; i < p.len; ++i) P(i, j) = *F.at(p0 + i, p0 + j);
    std::vector<double> tau;
    householder_qr(P, tau, drop_below.data() + p0);
    for (int64_t j = 0; j < p.b; ++j)  // R's rows of the panel back into F (its V part is kept aside)
      for (int64_t i = 0; i <= j; ++i) *F.at(p0 + i, p0 + j) = float(P(i, j));
    p = make_panel(P, tau, p0);
    // The rest of the rows p0.. gets Q_panel^T.
    apply_block(p, F.at(p0, p0 + p.b), m, n - p0 - p.b, true, W1, W2);
    panels.push_back(std::move(p));
  }
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j >= i ? std::ldexp(*F.at(i, j), -e) : 0.0f;
  // Q = Q_0 Q_1 ... applied to the first k columns of I, last panel first: panel p only touches rows
  // and columns from its row0 on.
  std::vector<float> Qv(size_t(m * k), 0.0f);
  for (int64_t i = 0; i < k; ++i) Qv[size_t(i * m + i)] = 1.0f;
  for (auto it = panels.rbegin(); it != panels.rend(); ++it)
    apply_block(*it, Qv.data() + it->row0 + it->row0 * m, m, k - it->row0, false, W1, W2);
  for (int64_t i0 = 0; i0 < m; i0 += 32)
    for (int64_t j0 = 0; j0 < k; j0 += 32)
      for (int64_t i = i0; i < std::min(i0 + 32, m); ++i)
        for (int64_t j = j0; j < std::min(j0 + 32, k); ++j) Q[i * k + j] = Qv[size_t(i + j * m)];
}

}  // namespace tp::linalg::detail

namespace tp::linalg {

using namespace detail;

// A is (m,n), Q is (m,k), R is (k,n), k = min(m,n). T = float: blocked (float32 GEMMs) from
// kBlockedQrFrom columns; T = double: the unblocked double route at every size.
template <class T>
static void qr_any(const T* A, int64_t m, int64_t n, T* Q, T* R) {
  if (m < 0 || n < 0) fail("linalg.qr", "negative matrix size ", m, " x ", n);
  check_finite("linalg.qr", A, m * n);
  const int64_t k = std::min(m, n);
  if constexpr (std::is_same_v<T, float>)
    if (k >= kBlockedQrFrom) return qr_blocked(A, m, n, Q, R);
  ColMat W = load(A, m, n, false);
  std::vector<double> tau;
  householder_qr(W, tau);
  // R is the upper triangle of W; below it W holds reflector vectors, so write exact zeros there.
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j >= i ? T(W(i, j)) : T(0);
  const ColMat Qc = form_q(W, tau, k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) Q[i * k + j] = T(Qc(i, j));
}

void qr(const float* A, int64_t m, int64_t n, float* Q, float* R) { qr_any(A, m, n, Q, R); }
void qr(const double* A, int64_t m, int64_t n, double* Q, double* R) { qr_any(A, m, n, Q, R); }

}  // namespace tp::linalg
