// Randomized low-rank SVD (Halko, Martinsson & Tropp 2011, algorithms 4.4 and 5.1), as torch.svd_lowrank:
// an orthonormal basis Q of the range of A by power iterations, then the exact SVD of the small Q^T A.
#include <algorithm>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;

namespace {

// Replaces the row-major float Y (r,q) by an orthonormal basis of its columns (Householder QR in double).
void orthonormalize(std::vector<float>& Y, int64_t r, int64_t q) {
  ColMat W = load(Y.data(), r, q, false);
  std::vector<double> tau;
  householder_qr(W, tau);
  const ColMat Q = form_q(W, tau, q);
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < q; ++j) Y[size_t(i * q + j)] = float(Q(i, j));
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
