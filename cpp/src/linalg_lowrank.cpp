// Randomized low-rank SVD (Halko, Martinsson & Tropp 2011, algorithms 4.4 and 5.1), as torch.svd_lowrank:
// an orthonormal basis Q of the range of A by power iterations, then the exact SVD of the small Q^T A.
#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;

namespace {

// Cholesky factor in place of the Gram matrix in L's lower triangle: L L^T = G. Refuses (returns false)
// when a pivot keeps less than min_ratio of its column's squared norm, i.e. when a column lies within
// ~sqrt(min_ratio) rad of the span of the earlier ones: beyond that the Gram matrix's rounding (relative
// error ~1e-6 in float, ~1e-16 in double) would cost the basis its conditioning.
bool cholesky_in_place(ColMat& L, double min_ratio) {
  const int64_t q = L.cols;
  for (int64_t j = 0; j < q; ++j) {
    const double gjj = L(j, j);
    double djj = gjj;
    for (int64_t p = 0; p < j; ++p) djj -= L(j, p) * L(j, p);
    if (!(djj > min_ratio * gjj) || !(gjj > 0.0) || !std::isfinite(gjj)) return false;
    const double ljj = std::sqrt(djj);
    L(j, j) = ljj;
    for (int64_t i = j + 1; i < q; ++i) {
      double s = L(i, j);
      for (int64_t p = 0; p < j; ++p) s -= L(i, p) * L(j, p);
      L(i, j) = s / ljj;
    }
  }
  return true;
}

// The lower triangle of Y^T Y for the row-major float Y (r,q), in float through one GEMM (fast, relative
// error ~sqrt(r) eps32) or with exact products summed in double.
ColMat gram_float(const float* Y, int64_t r, int64_t q) {
  std::vector<float> G(size_t(q * q));
  kernels::sgemm(q, q, r, Y, 1, q, Y, q, 1, G.data(), q, false);
  ColMat L(q, q);
  for (int64_t j = 0; j < q; ++j)
    for (int64_t i = j; i < q; ++i) L(i, j) = G[size_t(i * q + j)];
  return L;
}

// One Cholesky QR pass on the row-major float Y (r,q): Y <- Y L^-T with L L^T = Y^T Y, as one float GEMM
// by the (double-computed) inverse. The GEMM's rounding perturbs the columns by ~eps32 cond(Y), the same
// order as the float product that made Y, and a second pass removes what it costs in orthogonality.
// Leaves Y unchanged and returns false when the Cholesky factorization refuses.
bool cholesky_qr_pass(std::vector<float>& Y, std::vector<float>& work, int64_t r, int64_t q, bool double_gram) {
  ColMat L = double_gram ? gram_lower_rows(Y.data(), r, q) : gram_float(Y.data(), r, q);
  if (!cholesky_in_place(L, double_gram ? 1e-10 : 1e-4)) return false;
  // T = L^-T (upper triangular, row-major float): column j of L^-1 by forward substitution is row j of T.
  std::vector<float> T(size_t(q * q), 0.0f);
  std::vector<double> x(static_cast<size_t>(q));
  for (int64_t j = 0; j < q; ++j) {
    std::fill(x.begin(), x.end(), 0.0);
    x[size_t(j)] = 1.0 / L(j, j);
    for (int64_t i = j + 1; i < q; ++i) {
      double s = 0.0;
      for (int64_t p = j; p < i; ++p) s -= L(i, p) * x[size_t(p)];
      x[size_t(i)] = s / L(i, i);
    }
    for (int64_t i = j; i < q; ++i) T[size_t(j * q + i)] = float(x[size_t(i)]);
  }
  work.resize(Y.size());
  kernels::sgemm(r, q, q, Y.data(), q, 1, T.data(), q, 1, work.data(), q, false);
  Y.swap(work);
  return true;
}

// Replaces the row-major float Y (r,q) by a basis of the same column span. Between power iterations a
// well-conditioned basis is enough, and one Cholesky QR pass with a float Gram matrix (two small GEMMs)
// gives it; the final basis must be orthonormal to float precision, which one more pass with the double
// Gram matrix gives. When Y is ill-conditioned (a fast-decaying spectrum) the double Gram matrix takes
// over (CholeskyQR2), and Householder QR when even that refuses (rank-deficient A).
void orthonormalize(std::vector<float>& Y, std::vector<float>& work, int64_t r, int64_t q, bool final_basis) {
  const bool fast = cholesky_qr_pass(Y, work, r, q, false);
  if (fast && !final_basis) return;
  int passes = fast ? 1 : 2;
  while (passes > 0 && cholesky_qr_pass(Y, work, r, q, true)) {
    if (!final_basis) return;
    --passes;
  }
  if (passes == 0) return;
  ColMat W = load(Y.data(), r, q, false);
  std::vector<double> tau;
  householder_qr(W, tau);
  W = form_q(W, tau, q);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < q; ++j) Y[size_t(i * q + j)] = float(W(i, j));
}

}  // namespace

// A is (m,n), omega (n,q); U is (m,q), S (q), V is (n,q).
void svd_lowrank(const float* A, int64_t m, int64_t n, int64_t q, int64_t niter, const float* omega, float* U,
                 float* S, float* V) {
  if (m < 0 || n < 0) fail("linalg.svdLowrank", "negative matrix size ", m, " x ", n);
  if (q < 1 || q > std::min(m, n))
    fail("linalg.svdLowrank", "q must be in [1, min(m, n)] = [1, ", std::min(m, n), "], got ", q);
  if (niter < 0) fail("linalg.svdLowrank", "niter must be >= 0, got ", niter);
  check_finite("linalg.svdLowrank", A, m * n);
  // Near float32's ends the GEMMs run on 2^scale A (gemm_scale_exponent); S is scaled back.
  const int scale = gemm_scale_exponent(A, m * n);
  std::vector<float> scaled;
  if (scale != 0) {
    scaled.assign(A, A + m * n);
    for (float& x : scaled) x = std::ldexp(x, scale);
    A = scaled.data();
  }
  using kernels::sgemm;
  // Every product with A runs in float32 GEMM; the Gram matrices that certify the final basis and the
  // small SVD run in double.
  std::vector<float> Y(size_t(m * q)), Z(size_t(n * q)), work;
  sgemm(m, q, n, A, n, 1, omega, q, 1, Y.data(), q, false);  // Y = A omega
  orthonormalize(Y, work, m, q, niter == 0);
  for (int64_t it = 0; it < niter; ++it) {
    sgemm(n, q, m, A, 1, n, Y.data(), q, 1, Z.data(), q, false);  // Z = A^T Q
    orthonormalize(Z, work, n, q, false);
    sgemm(m, q, n, A, n, 1, Z.data(), q, 1, Y.data(), q, false);  // Y = A Z
    orthonormalize(Y, work, m, q, it + 1 == niter);
  }
  // B = Q^T A is (q,n); A ~ Q B = (Q Ub) S Vb^T.
  std::vector<float> B(size_t(q * n));
  sgemm(q, n, m, Y.data(), 1, q, A, n, 1, B.data(), n, false);
  std::vector<double> s;
  ColMat Ub, Vb;
  svd_double(B.data(), q, n, s, &Ub, &Vb);
  std::vector<float> Ubf(size_t(q * q));
  for (int64_t i = 0; i < q; ++i)
    for (int64_t j = 0; j < q; ++j) Ubf[size_t(i * q + j)] = float(Ub(i, j));
  sgemm(m, q, q, Y.data(), q, 1, Ubf.data(), q, 1, U, q, false);
  for (int64_t j = 0; j < q; ++j) S[j] = float(std::ldexp(s[size_t(j)], -scale));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < q; ++j) V[i * q + j] = float(Vb(i, j));
}

}  // namespace tp::linalg
