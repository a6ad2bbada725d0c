// Three linalg quantities built on the decompositions and the GEMM: matrix_power (repeated squaring),
// pinv (through the SVD) and cond (singular values, or norm(A) norm(A^-1) for the other ords).
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
  if (A.dim() < 2) fail(op, "expects a matrix or a batch of matrices (at least 2-d), got shape ", shape_str(A.shape()));
  if (square && A.size(-1) != A.size(-2)) fail(op, "expects square matrices, got shape ", shape_str(A.shape()));
}
}  // namespace

Tensor matrix_power(const Tensor& A, int64_t k) {
  // A (*, n, n) -> (*, n, n)
  check_matrix("linalg.matrixPower", A, true);
  if (k == 0) return expand(eye(A.size(-1)), A.shape()).contiguous();
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
  if (!(atol >= 0)) fail(op, "atol must be non-negative, got ", atol);
  if (std::isnan(rtol)) fail(op, "rtol must be a number, got NaN");
  const int64_t m = A.size(-2), n = A.size(-1);
  if (rtol < 0) rtol = atol > 0 ? 0.0 : double(std::max(m, n)) * double(std::numeric_limits<float>::epsilon());
  Shape out_shape = A.shape();
  std::swap(out_shape[out_shape.size() - 1], out_shape[out_shape.size() - 2]);
  if (A.numel() == 0) return Tensor::zeros(out_shape, op);
  const SvdResult r = svd(A);
  // s_inv (*, k): 1/s where s > max(atol, rtol * s_max), else 0 (s is descending, s_max its first).
  Tensor s_inv = r.S.clone();
  const int64_t k = r.S.size(-1), count = r.S.numel() / k;
  float* s = s_inv.data();
  for (int64_t b = 0; b < count; ++b) {
    const double cut = std::max(atol, rtol * double(s[b * k]));
    for (int64_t i = 0; i < k; ++i) s[b * k + i] = double(s[b * k + i]) > cut ? 1.f / s[b * k + i] : 0.f;
  }
  const Tensor v_scaled = binary(BinaryOp::Mul, transpose(r.Vh, -1, -2), unsqueeze(s_inv, -2));  // (*, n, k)
  return matmul(v_scaled, transpose(r.U, -1, -2));
}

Tensor cond(const Tensor& A, const std::string& ord) {
  // A (*, m, n) -> (*)
  const char* op = "linalg.cond";
  check_matrix(op, A, !ord.empty());
  if (!ord.empty() && ord != "fro" && ord != "nuc" && ord != "1" && ord != "-1" && ord != "inf" && ord != "-inf" &&
      ord != "2" && ord != "-2")
    fail(op, "ord must be none, 'fro', 'nuc', 2, -2, 1, -1, inf or -inf, got '", ord, "'");
  const Tensor Ac = A.contiguous();
  const int64_t m = A.size(-2), n = A.size(-1), count = m * n == 0 ? 0 : A.numel() / (m * n);
  Tensor out = Tensor::empty(Shape(A.shape().begin(), A.shape().end() - 2), op);
  if (m * n == 0) fail(op, "expects non-empty matrices, got shape ", shape_str(A.shape()));
  detail::check_finite(op, Ac.data(), Ac.numel());
  const bool svd_ratio = ord.empty() || ord == "2" || ord == "-2";
  std::vector<float> s(size_t(std::min(m, n))), inverse(size_t(m * n));
  for (int64_t b = 0; b < count; ++b) {
    const float* a = Ac.data() + b * m * n;
    double c;
    if (svd_ratio) {
      svdvals(a, m, n, s.data());
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
    out.data()[b] = float(c);
  }
  return out;
}

}  // namespace tp::linalg
