// Randomized low-rank SVD (Halko, Martinsson & Tropp 2011, algorithms 4.4 and 5.1), as torch.svd_lowrank:
// an orthonormal basis Q of the range of A by power iterations, then the exact SVD of the small Q^T A.
#include <algorithm>
#include <cmath>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;

namespace {

// One Cholesky QR pass on the column-major double W (r,q): W = Q R with R^T R = W^T W, W <- Q.
// Refuses (returns false, W unusable) when a pivot shows a column within ~1e-5 rad of the span of the
// earlier ones: beyond that the squared condition number of the Gram matrix would cost orthogonality.
bool cholesky_qr_pass(ColMat& W) {
  const int64_t r = W.rows, q = W.cols;
  ColMat L = gram_lower(W);  // G = W^T W, lower triangle; overwritten by its Cholesky factor
  for (int64_t j = 0; j < q; ++j) {
    const double gjj = L(j, j);
    double djj = gjj;
    for (int64_t p = 0; p < j; ++p) djj -= L(j, p) * L(j, p);
    if (!(djj > 1e-10 * gjj) || gjj == 0.0) return false;
    const double ljj = std::sqrt(djj);
    L(j, j) = ljj;
    for (int64_t i = j + 1; i < q; ++i) {
      double s = L(i, j);
      for (int64_t p = 0; p < j; ++p) s -= L(i, p) * L(j, p);
      L(i, j) = s / ljj;
    }
  }
  // Q = W L^-T, column by column: q_j = (w_j - sum_{p<j} L(j,p) q_p) / L(j,j).
  for (int64_t j = 0; j < q; ++j) {
    double* c = W.col(j);
    for (int64_t p = 0; p < j; ++p) axpy(c, -L(j, p), W.col(p), r);
    const double inv = 1.0 / L(j, j);
    for (int64_t i = 0; i < r; ++i) c[i] *= inv;
  }
  return true;
}

// Replaces the row-major float Y (r,q) by an orthonormal basis of its columns: Cholesky QR twice
// (CholeskyQR2: two Gram-matrix passes, fast because the Gram kernel is blocked), or Householder QR
// when Y is too ill-conditioned for that (rank-deficient A, or a fast-decaying spectrum).
void orthonormalize(std::vector<float>& Y, int64_t r, int64_t q) {
  ColMat W = load(Y.data(), r, q, false);
  if (!(cholesky_qr_pass(W) && cholesky_qr_pass(W))) {
    W = load(Y.data(), r, q, false);
    std::vector<double> tau;
    householder_qr(W, tau);
    W = form_q(W, tau, q);
  }
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
  using kernels::sgemm;
  // The big products run in float32 GEMM; only the thin QRs and the small SVD run in double.
  std::vector<float> Y(size_t(m * q)), Z(size_t(n * q));
  sgemm(m, q, n, A, n, 1, omega, q, 1, Y.data(), q, false);  // Y = A omega
  orthonormalize(Y, m, q);
  for (int64_t it = 0; it < niter; ++it) {
    sgemm(n, q, m, A, 1, n, Y.data(), q, 1, Z.data(), q, false);  // Z = A^T Q
    orthonormalize(Z, n, q);
    sgemm(m, q, n, A, n, 1, Z.data(), q, 1, Y.data(), q, false);  // Y = A Z
    orthonormalize(Y, m, q);
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
  for (int64_t j = 0; j < q; ++j) S[j] = float(s[size_t(j)]);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < q; ++j) V[i * q + j] = float(Vb(i, j));
}

}  // namespace tp::linalg
