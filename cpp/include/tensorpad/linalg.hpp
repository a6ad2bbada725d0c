// Matrix decompositions and the quantities built on them: SVD, QR, symmetric eigendecomposition,
// LU (det, inv, solve), matrix norms, rank and the randomized low-rank SVD.
//
// Two layers. tp::linalg::* below works on one row-major float32 matrix (pointer + rows m + columns n)
// and knows nothing of tp::Tensor; the Tensor-level ops (batched over leading dims) are declared at the
// end of this header and live in linalg_ops.cpp. Every routine computes in double internally, except
// the products that float32 GEMM makes fast and that backward-stable algorithms tolerate in float
// (blocked QR's updates, svd_lowrank's passes over A), so the results are as accurate as float32 output
// allows; every iteration has a bound (non-convergence throws tp::Error) and NaN or Inf in the input
// throws before any work.
//
// Algorithms: Householder QR (blocked from min(m,n) = 96: double panels, float32 compact-WY updates,
// as LAPACK's float32 sgeqrf); Householder bidiagonalization (QR first when m >= 2n; two fused passes per step) + implicit-shift
// Golub-Kahan QR for svd; Householder tridiagonalization (one fused pass per step) + implicit QL for
// eigh; svdvals as the square roots of the eigenvalues of the double Gram matrix (exact float products
// summed in double: error ~sqrt(k eps64) sigma_1, far below float32 resolution); LU with partial
// pivoting; inside svd_lowrank, Cholesky QR with GEMM-made Gram matrices (float between power
// iterations, double for the final basis; CholeskyQR2, then Householder, as fallbacks).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp::linalg {

// --- The numerics on raw row-major matrices -----------------------------------------------------
// A is (m,n); k = min(m,n). Output buffers are caller-owned and must not overlap the input.

// S gets the k singular values of A, descending.
void svdvals(const float* A, int64_t m, int64_t n, float* S);

// Reduced SVD A = U diag(S) Vh: U is (m,k) with orthonormal columns, S (k) descending, Vh is (k,n).
void svd(const float* A, int64_t m, int64_t n, float* U, float* S, float* Vh);

// Reduced QR A = Q R: Q is (m,k) with orthonormal columns, R is (k,n) with exact zeros below the diagonal.
void qr(const float* A, int64_t m, int64_t n, float* Q, float* R);

// A is (n,n) symmetric (its lower triangle is read; NaN or Inf anywhere is an error): w gets the n
// eigenvalues ascending and, when V is not null, V (n,n) the matching orthonormal eigenvectors in columns.
void eigh(const float* A, int64_t n, float* w, float* V);

// A is (n,n). det by LU with partial pivoting; exactly 0 when A is singular to float32 precision.
double det(const float* A, int64_t n);
// A is (n,n), Ainv is (n,n); throws when A is singular to float32 precision.
void inv(const float* A, int64_t n, float* Ainv);
// A is (n,n), B and X are (n,nrhs): X = A^-1 B; throws when A is singular to float32 precision.
void solve(const float* A, int64_t n, const float* B, int64_t nrhs, float* X);

// Matrix norms of A (m,n): "fro", "nuc", "2" (largest singular value), "-2" (smallest), "1" (max column
// abs sum), "-1", "inf" (max row abs sum), "-inf".
double norm(const float* A, int64_t m, int64_t n, const std::string& ord);

// The number of singular values above tol; tol < 0 means numpy's default sigma_1 * max(m,n) * eps(float32).
int64_t matrix_rank(const float* A, int64_t m, int64_t n, double tol = -1.0);

// float64 matrices: the same, computed and returned in double (the unblocked double routes at every
// size, so no float32 GEMM step), a pivot singular to float64 precision. svd's U and Vh may be null
// (values only).
void svd(const double* A, int64_t m, int64_t n, double* U, double* S, double* Vh);
void qr(const double* A, int64_t m, int64_t n, double* Q, double* R);
void eigh(const double* A, int64_t n, double* w, double* V);  // V may be null (values only)
int64_t matrix_rank(const double* A, int64_t m, int64_t n, double tol = -1.0);  // default tol with eps(float64)
double det(const double* A, int64_t n);
void inv(const double* A, int64_t n, double* Ainv);
void solve(const double* A, int64_t n, const double* B, int64_t nrhs, double* X);
double norm(const double* A, int64_t m, int64_t n, const std::string& ord);

// Randomized SVD like torch.svd_lowrank (Halko et al. 2009, algorithm 5.1 with niter power iterations):
// omega is (n,q) standard normal draws; U is (m,q), S (q) descending, V is (n,q), A ~ U diag(S) V^T.
// Requires 1 <= q <= min(m,n) and niter >= 0.
void svd_lowrank(const float* A, int64_t m, int64_t n, int64_t q, int64_t niter, const float* omega,
                 float* U, float* S, float* V);

// --- Tensor-level ops: A is (*, m, n), batched over the leading dims * ----------------------------
// Errors name the op as the JS API does ("linalg.svd: ...").

struct SvdResult {
  Tensor U, S, Vh;  // (*, m, k), (*, k), (*, k, n)
};
struct QrResult {
  Tensor Q, R;  // (*, m, k), (*, k, n)
};
struct EighResult {
  Tensor eigenvalues, eigenvectors;  // (*, n) ascending, (*, n, n) in columns
};
struct LowrankResult {
  Tensor U, S, V;  // (m, q), (q), (n, q)
};

Tensor svdvals(const Tensor& A);                 // (*, k)
SvdResult svd(const Tensor& A);
QrResult qr(const Tensor& A);
EighResult eigh(const Tensor& A);                // A (*, n, n) symmetric, lower triangle read
Tensor eigvalsh(const Tensor& A);                // (*, n)
Tensor det(const Tensor& A);                     // A (*, n, n) -> (*)
Tensor inv(const Tensor& A);                     // (*, n, n)
// A (*a, n, n); B (*b, n, k), or (*b, n) vectors when B is 1-d or has exactly A's shape without its
// last dim (torch's rule); the batch dims broadcast: X is (*, n, k) or (*, n) with * = broadcast(*a, *b).
Tensor solve(const Tensor& A, const Tensor& B);
Tensor matrix_norm(const Tensor& A, const std::string& ord);  // (*)
// The matrix norm over dims d0 and d1 of A (torch.linalg.norm with a pair of dims): the other dims in
// order, or with keepdim A's shape with 1 at d0 and d1.
Tensor matrix_norm(const Tensor& A, const std::string& ord, int64_t d0, int64_t d1, bool keepdim);
Tensor matrix_rank(const Tensor& A, double tol = -1.0);       // (*), counts as floats
// A is (m, n); omega drawn from tp::Rng(seed).
LowrankResult svd_lowrank(const Tensor& A, int64_t q, int64_t niter, uint64_t seed);

// The work memory the decompositions keep between calls, not tensors: eigh's and svd's back-transformation
// scratch (up to 16 MB; a call that needs more frees it as it ends). Its bytes now (tp.memory().scratch),
// and its release: the next call that needs it allocates it again.
size_t kept_scratch_bytes();
void release_kept_scratch();

}  // namespace tp::linalg
