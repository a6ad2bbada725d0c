// Three linalg quantities built on the decompositions and the GEMM: matrix_power (repeated squaring),
// pinv (through the SVD) and cond (singular values, or norm(A) norm(A^-1) for the other ords). float32
// and float64 (in double throughout); matrix_power also any dtype matmul takes.
#include <algorithm>
#include <cmath>
#include <limits>

#include "linalg_detail.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"

namespace tp::linalg {

namespace {
void check_matrix(const char* op, const Tensor& A, bool square) {
  if (A.dim() < 2) fail(op, "expects a matrix or a batch of matrices (at least 2-d), got shape ", A.shape());
  if (square && A.size(-1) != A.size(-2)) fail(op, "expects square matrices, got shape ", A.shape());
}
void check_float(const char* op, const Tensor& A) {
  if (A.dtype() != DType::Float32 && A.dtype() != DType::Float64)
    fail(op, "expects float32 or float64 matrices, got ", dtype_name(A.dtype()), " of shape ", A.shape());
}

// s (k) descending singular values -> 1/s where s > cut, else 0; in A's precision (float32: 1.f / s).
template <class T>
void invert_above(T* s, int64_t k, int64_t count, double atol, double rtol) {
  for (int64_t b = 0; b < count; ++b) {
    const double cut = std::max(atol, rtol * double(s[b * k]));
    for (int64_t i = 0; i < k; ++i) s[b * k + i] = double(s[b * k + i]) > cut ? T(1) / s[b * k + i] : T(0);
  }
}

// The singular values of the (m, n) a, descending, into s.
void values(const float* a, int64_t m, int64_t n, float* s) { svdvals(a, m, n, s); }
void values(const double* a, int64_t m, int64_t n, double* s) { svd(a, m, n, nullptr, s, nullptr); }

// cond of each (m, n) matrix of the contiguous A into out (A's dtype T).
template <class T>
void cond_into(const T* A, int64_t m, int64_t n, int64_t count, const std::string& ord, T* out) {
  const bool svd_ratio = ord.empty() || ord == "2" || ord == "-2";
  std::vector<T> s(size_t(std::min(m, n))), inverse(size_t(m * n));
  for (int64_t b = 0; b < count; ++b) {
    const T* a = A + b * m * n;
    double c;
    if (svd_ratio) {
      values(a, m, n, s.data());
      const double hi = s.front(), lo = s.back();
      c = ord == "-2" ? lo / hi : hi / lo;  // x/0 is inf: a singular matrix, as torch
    } else {
      try {
        inv(a, n, inverse.data());
        c = norm(a, n, n, ord) * norm(inverse.data(), n, n, ord);
      } catch (const Error&) {
        c = std::numeric_limits<double>::infinity();  // singular: torch's cond is inf
      }
    }
    out[b] = T(c);
  }
}
}  // namespace

Tensor matrix_power(const Tensor& A, int64_t k) {
  // A (*, n, n) -> (*, n, n)
  check_matrix("linalg.matrixPower", A, true);
  if (k == 0) return expand(eye(A.size(-1)).to(A.dtype()), A.shape()).contiguous();
  Tensor base = k < 0 ? inv(A) : A;
  uint64_t e = k < 0 ? uint64_t(0) - uint64_t(k) : uint64_t(k);
  Tensor result;
  bool have = false;
  // Square-and-multiply: about 2 log2(k) products instead of k - 1.
  while (true) {
    if (e & 1u) {
      result = have ? matmul(result, base) : base;
      have = true;
    }
    e >>= 1;
    if (!e) break;
    base = matmul(base, base);
  }
  return result.shares_storage(A) ? A.contiguous().clone() : result;
}

Tensor pinv(const Tensor& A, double atol, double rtol) {
  // A (*, m, n) -> (*, n, m) = V diag(1/s over the kept s) U^T
  const char* op = "linalg.pinv";
  check_matrix(op, A, false);
  check_float(op, A);
  if (!(atol >= 0)) fail(op, "atol must be non-negative, got ", atol);
  if (std::isnan(rtol)) fail(op, "rtol must be a number, got NaN");
  const int64_t m = A.size(-2), n = A.size(-1);
  const bool f64 = A.dtype() == DType::Float64;
  const double eps = f64 ? std::numeric_limits<double>::epsilon() : double(std::numeric_limits<float>::epsilon());
  if (rtol < 0) rtol = atol > 0 ? 0.0 : double(std::max(m, n)) * eps;
  Shape out_shape = A.shape();
  std::swap(out_shape[out_shape.size() - 1], out_shape[out_shape.size() - 2]);
  if (A.numel() == 0) return Tensor::zeros(out_shape, op).to(A.dtype());
  const SvdResult r = svd(A);
  // s_inv (*, k): 1/s where s > max(atol, rtol * s_max), else 0 (s is descending, s_max its first).
  Tensor s_inv = r.S.clone();
  const int64_t k = r.S.size(-1), count = r.S.numel() / k;
  if (f64) invert_above(s_inv.data_as<double>(), k, count, atol, rtol);
  else invert_above(s_inv.data(), k, count, atol, rtol);
  const Tensor v_scaled = binary(BinaryOp::Mul, transpose(r.Vh, -1, -2), unsqueeze(s_inv, -2));  // (*, n, k)
  return matmul(v_scaled, transpose(r.U, -1, -2));
}

Tensor cond(const Tensor& A, const std::string& ord) {
  // A (*, m, n) -> (*)
  const char* op = "linalg.cond";
  check_matrix(op, A, !ord.empty());
  check_float(op, A);
  if (!ord.empty() && ord != "fro" && ord != "nuc" && ord != "1" && ord != "-1" && ord != "inf" && ord != "-inf" &&
      ord != "2" && ord != "-2")
    fail(op, "ord must be none, 'fro', 'nuc', 2, -2, 1, -1, inf or -inf, got '", ord, "'");
  const Tensor Ac = A.contiguous();
  const int64_t m = A.size(-2), n = A.size(-1), count = m * n == 0 ? 0 : A.numel() / (m * n);
  Tensor out = Tensor::empty(Shape(A.shape().begin(), A.shape().end() - 2), A.dtype(), op);
  if (m * n == 0) fail(op, "expects non-empty matrices, got shape ", A.shape());
  if (A.dtype() == DType::Float64) {
    detail::check_finite(op, Ac.data_as<double>(), Ac.numel());
    cond_into(Ac.data_as<double>(), m, n, count, ord, out.data_as<double>());
  } else {
    detail::check_finite(op, Ac.data(), Ac.numel());
    cond_into(Ac.data(), m, n, count, ord, out.data());
  }
  return out;
}

}  // namespace tp::linalg
