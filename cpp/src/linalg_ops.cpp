// The Tensor-level decompositions: validate shapes, make the input contiguous, and run the raw
// row-major kernels of linalg.hpp once per matrix of the batch (the leading dims).
#include <algorithm>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/random.hpp"

namespace tp::linalg {

namespace {

// A (*, m, n) seen as `count` contiguous (m, n) matrices of float32, or of float64 when f64 (the ops
// that take float64 compute it in double: linalg.hpp's double overloads).
struct Batch {
  Tensor a;  // contiguous
  Shape lead;
  int64_t m = 0, n = 0, count = 0;
  bool f64 = false;
  const float* mat(int64_t b) const { return a.data() + b * m * n; }
  const double* mat64(int64_t b) const { return a.data_as<double>() + b * m * n; }
};

Batch batch(const char* op, const Tensor& A, bool square = false) {
  if (A.dim() < 2) fail(op, "expects a matrix or a batch of matrices (at least 2-d), got shape ", A.shape());
  if (A.dtype() != DType::Float32 && A.dtype() != DType::Float64)
    fail(op, "expects float32 or float64 matrices, got ", dtype_name(A.dtype()), " of shape ", A.shape());
  Batch b;
  b.f64 = A.dtype() == DType::Float64;
  b.a = A.contiguous();
  b.m = A.size(-2);
  b.n = A.size(-1);
  if (square && b.m != b.n) fail(op, "expects square matrices, got shape ", A.shape());
  b.lead.assign(A.shape().begin(), A.shape().end() - 2);
  b.count = 1;
  for (int64_t d : b.lead) b.count *= d;
  // The whole batch is checked before the first matrix is decomposed.
  if (b.f64) detail::check_finite(op, b.mat64(0), b.a.numel());
  else detail::check_finite(op, b.a.data(), b.a.numel());
  return b;
}

Shape with(Shape lead, std::initializer_list<int64_t> tail) {
  for (int64_t d : tail) lead.push_back(d);
  return lead;
}

}  // namespace

Tensor svdvals(const Tensor& A) {
  const Batch b = batch("linalg.svdvals", A);
  const int64_t k = std::min(b.m, b.n);
  Tensor S = Tensor::empty(with(b.lead, {k}), A.dtype());
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) svd(b.mat64(i), b.m, b.n, nullptr, S.data_as<double>() + i * k, nullptr);
    else svdvals(b.mat(i), b.m, b.n, S.data() + i * k);
  }
  return S;
}

SvdResult svd(const Tensor& A) {
  const Batch b = batch("linalg.svd", A);
  const int64_t m = b.m, n = b.n, k = std::min(m, n);
  const DType d = A.dtype();
  SvdResult r{Tensor::empty(with(b.lead, {m, k}), d), Tensor::empty(with(b.lead, {k}), d),
              Tensor::empty(with(b.lead, {k, n}), d)};
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64)
      svd(b.mat64(i), m, n, r.U.data_as<double>() + i * m * k, r.S.data_as<double>() + i * k,
          r.Vh.data_as<double>() + i * k * n);
    else
      svd(b.mat(i), m, n, r.U.data() + i * m * k, r.S.data() + i * k, r.Vh.data() + i * k * n);
  }
  return r;
}

QrResult qr(const Tensor& A) {
  const Batch b = batch("linalg.qr", A);
  const int64_t m = b.m, n = b.n, k = std::min(m, n);
  const DType d = A.dtype();
  QrResult r{Tensor::empty(with(b.lead, {m, k}), d), Tensor::empty(with(b.lead, {k, n}), d)};
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) qr(b.mat64(i), m, n, r.Q.data_as<double>() + i * m * k, r.R.data_as<double>() + i * k * n);
    else qr(b.mat(i), m, n, r.Q.data() + i * m * k, r.R.data() + i * k * n);
  }
  return r;
}

EighResult eigh(const Tensor& A) {
  const Batch b = batch("linalg.eigh", A, true);
  const int64_t n = b.n;
  EighResult r{Tensor::empty(with(b.lead, {n}), A.dtype()), Tensor::empty(with(b.lead, {n, n}), A.dtype())};
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) eigh(b.mat64(i), n, r.eigenvalues.data_as<double>() + i * n, r.eigenvectors.data_as<double>() + i * n * n);
    else eigh(b.mat(i), n, r.eigenvalues.data() + i * n, r.eigenvectors.data() + i * n * n);
  }
  return r;
}

Tensor eigvalsh(const Tensor& A) {
  const Batch b = batch("linalg.eigvalsh", A, true);
  Tensor w = Tensor::empty(with(b.lead, {b.n}), A.dtype());
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) eigh(b.mat64(i), b.n, w.data_as<double>() + i * b.n, nullptr);
    else eigh(b.mat(i), b.n, w.data() + i * b.n, nullptr);
  }
  return w;
}

Tensor det(const Tensor& A) {
  const Batch b = batch("linalg.det", A, true);
  Tensor d = Tensor::empty(b.lead, A.dtype());
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) d.data_as<double>()[i] = det(b.mat64(i), b.n);
    else d.data()[i] = float(det(b.mat(i), b.n));
  }
  return d;
}

Tensor inv(const Tensor& A) {
  const Batch b = batch("linalg.inv", A, true);
  Tensor X = Tensor::empty(A.shape(), A.dtype());
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) inv(b.mat64(i), b.n, X.data_as<double>() + i * b.n * b.n);
    else inv(b.mat(i), b.n, X.data() + i * b.n * b.n);
  }
  return X;
}

Tensor solve(const Tensor& A, const Tensor& B) {
  // A (*a, n, n); B (*b, n) vectors or (*b, n, k) matrices; X (*, n) or (*, n, k), * = broadcast(*a, *b).
  const char* op = "linalg.solve";
  const Batch a = batch(op, A, true);
  const int64_t n = a.n;
  // torch's rule: B is a stack of vectors when it is 1-d or has exactly A's shape without its last dim.
  const Shape a_rows(A.shape().begin(), A.shape().end() - 1);
  const bool vectors = B.dim() == 1 || (B.dim() == A.dim() - 1 && B.shape() == a_rows);
  if ((!vectors && B.dim() < 2) || B.size(vectors ? -1 : -2) != n)
    fail(op, "A of shape ", A.shape(), " and B of shape ", B.shape(),
         " do not match (B must be (*, n) or (*, n, k) with n = ", n, ")");
  const Shape b_lead(B.shape().begin(), B.shape().end() - (vectors ? 1 : 2));
  for (size_t i = 1; i <= std::min(a.lead.size(), b_lead.size()); ++i) {
    const int64_t da = a.lead[a.lead.size() - i], db = b_lead[b_lead.size() - i];
    if (da != db && da != 1 && db != 1)
      fail(op, "batch dims ", a.lead, " of A (shape ", A.shape(), ") and ", b_lead,
           " of B (shape ", B.shape(), ") do not broadcast");
  }
  const Shape lead = broadcast_shapes(op, a.lead, b_lead);
  const int64_t k = vectors ? 1 : B.size(-1);
  const Shape x_shape = vectors ? with(lead, {n}) : with(lead, {n, k});
  // Broadcast batch dims are expanded (stride 0) and copied: each matrix is factorized once per solve.
  const Tensor Ae = expand(a.a, with(lead, {n, n})).contiguous();
  if (B.dtype() != A.dtype())
    fail(op, "A and B must have the same dtype (as torch), got ", dtype_name(A.dtype()), " and ", dtype_name(B.dtype()));
  const Tensor Be = expand(B, x_shape).contiguous();
  Tensor X = Tensor::empty(x_shape, A.dtype());
  int64_t count = 1;
  for (int64_t d : lead) count *= d;
  if (a.f64) {
    detail::check_finite(op, Be.data_as<double>(), Be.numel());
    for (int64_t i = 0; i < count; ++i)
      solve(Ae.data_as<double>() + i * n * n, n, Be.data_as<double>() + i * n * k, k, X.data_as<double>() + i * n * k);
    return X;
  }
  detail::check_finite(op, Be.data(), Be.numel());
  for (int64_t i = 0; i < count; ++i) solve(Ae.data() + i * n * n, n, Be.data() + i * n * k, k, X.data() + i * n * k);
  return X;
}

Tensor matrix_norm(const Tensor& A, const std::string& ord) {
  const Batch b = batch("linalg.norm", A);
  Tensor r = Tensor::empty(b.lead, A.dtype());
  for (int64_t i = 0; i < b.count; ++i) {
    if (b.f64) r.data_as<double>()[i] = norm(b.mat64(i), b.m, b.n, ord);
    else r.data()[i] = float(norm(b.mat(i), b.m, b.n, ord));
  }
  return r;
}

Tensor matrix_norm(const Tensor& A, const std::string& ord, int64_t d0, int64_t d1, bool keepdim) {
  const char* op = "linalg.norm";
  if (A.dim() < 2)
    fail(op, "a matrix norm over dims [", d0, ", ", d1, "] needs at least 2 dims, got shape ", A.shape());
  const int64_t w0 = wrap_dim(op, d0, A.dim()), w1 = wrap_dim(op, d1, A.dim());
  if (w0 == w1) fail(op, "dim ", d1, " appears twice in [", d0, ", ", d1, "]");
  Shape perm, kept = A.shape();
  for (int64_t d = 0; d < A.dim(); ++d)
    if (d != w0 && d != w1) perm.push_back(d);
  perm.push_back(w0);
  perm.push_back(w1);
  kept[size_t(w0)] = kept[size_t(w1)] = 1;
  const Tensor r = matrix_norm(permute(A, perm), ord);
  return keepdim ? reshape(r, kept) : r;
}

Tensor matrix_rank(const Tensor& A, double tol) {
  const Batch b = batch("linalg.matrixRank", A);
  Tensor r = Tensor::empty(b.lead);
  for (int64_t i = 0; i < b.count; ++i)
    r.data()[i] = float(b.f64 ? matrix_rank(b.mat64(i), b.m, b.n, tol) : matrix_rank(b.mat(i), b.m, b.n, tol));
  return r;
}

// float64 A (m, n): the same algorithm with the same omega draws (n, q), in double through the float64
// matmul, qr and svd; U (m, q), S (q), V (n, q) float64.
static LowrankResult svd_lowrank_f64(const char* op, const Tensor& a, int64_t q, int64_t niter,
                                     const std::vector<float>& omega) {
  if (niter < 0) fail(op, "niter must be >= 0, got ", niter);
  detail::check_finite(op, a.data_as<double>(), a.numel());
  const Tensor at = transpose(a, 0, 1);
  Tensor Y = qr(matmul(a, Tensor::from({a.size(1), q}, omega.data()).to(DType::Float64))).Q;  // (m, q)
  for (int64_t it = 0; it < niter; ++it) Y = qr(matmul(a, qr(matmul(at, Y)).Q)).Q;
  const SvdResult b = svd(matmul(transpose(Y, 0, 1), a));  // Q^T A = Ub S Vb^T, (q, n)
  return {matmul(Y, b.U), b.S, transpose(b.Vh, 0, 1).contiguous()};
}

LowrankResult svd_lowrank(const Tensor& A, int64_t q, int64_t niter, uint64_t seed) {
  const char* op = "linalg.svdLowrank";
  if (A.dim() != 2) fail(op, "expects a matrix (2-d), got shape ", A.shape());
  if (A.dtype() != DType::Float32 && A.dtype() != DType::Float64)
    fail(op, "expects float32 or float64 matrices, got ", dtype_name(A.dtype()), " of shape ", A.shape());
  const Tensor a = A.contiguous();
  const int64_t m = A.size(0), n = A.size(1);
  if (q < 1 || q > std::min(m, n)) fail(op, "q must be in [1, min(m, n)] = [1, ", std::min(m, n), "], got ", q);
  std::vector<float> omega(size_t(n * q));
  Rng rng(seed);
  rng.fill_normal(omega.data(), n * q);
  if (A.dtype() == DType::Float64) return svd_lowrank_f64(op, a, q, niter, omega);
  LowrankResult r{Tensor::empty({m, q}), Tensor::empty({q}), Tensor::empty({n, q})};
  svd_lowrank(a.data(), m, n, q, niter, omega.data(), r.U.data(), r.S.data(), r.V.data());
  return r;
}

}  // namespace tp::linalg
