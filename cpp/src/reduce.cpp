// Reductions along one dim or all: sum, mean, amax, amin, median, p-norms; cumsum; softmax.
#include <algorithm>
#include <cmath>
#include <vector>
#include <limits>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/vmath.hpp"
#include "lines_around.hpp"
#include "nth_median.hpp"

namespace tp {

namespace detail {
__attribute__((noinline)) double nth_median(std::vector<double>& v) {
  TP_ASSERT(!v.empty());
  const auto mid = v.begin() + (int64_t(v.size()) - 1) / 2;
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}
}  // namespace detail

namespace {

using detail::Lines;
using detail::lines_around;

// Reduces n values spaced by `step`; sums accumulate in double so long rows keep float accuracy.
float reduce_line(ReduceOp op, const float* p, int64_t n, int64_t step) {
  if (op == ReduceOp::Median) {
    // In double, through the other dtypes' instance (nth_median): float -> double is exact and compares
    // alike (-0 == +0 too), so nth_element moves the same elements and the same value lands at the middle.
    std::vector<double> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const float x = p[i * step];
      if (x != x) return x;  // NaN propagates, as in torch
      v[size_t(i)] = double(x);
    }
    return float(detail::nth_median(v));
  }
  if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
    double s = 0.0;
    for (int64_t i = 0; i < n; ++i) s += double(p[i * step]);
    return op == ReduceOp::Sum ? float(s) : float(s / double(n));
  }
  float m = p[0];
  for (int64_t i = 1; i < n; ++i) {
    const float v = p[i * step];
    if (v != v) return v;  // NaN propagates, as in torch
    if (op == ReduceOp::Amax ? v > m : v < m) m = v;
  }
  return m;
}

// The sum of |x|^p over n values spaced by `step`, each term and the sum in double (as torch accumulates
// float norms on the CPU), then to the power 1/p: squaring in float would overflow from |x| ~ 1.8e19 and
// underflow below ~1e-23, long before the norm itself leaves float's range.
float pnorm_line(const float* x, int64_t n, int64_t step, double p) {
  double s = 0.0;
  if (p == 2.0) {
    for (int64_t i = 0; i < n; ++i) s += double(x[i * step]) * double(x[i * step]);
    return float(std::sqrt(s));
  }
  if (p == 1.0) {
    for (int64_t i = 0; i < n; ++i) s += std::fabs(double(x[i * step]));
    return float(s);
  }
  for (int64_t i = 0; i < n; ++i) s += std::pow(std::fabs(double(x[i * step])), p);
  return float(std::pow(s, 1.0 / p));
}

// Reduces x's lines along `dim` with line(first, n, step), into x's shape without dim (or with 1 there).
template <class Line>
Tensor reduce_lines(const char* name, const Tensor& x, int64_t dim, bool keepdim, const Line& line) {
  const size_t d = size_t(wrap_dim(name, dim, x.dim()));
  const Tensor c = x.contiguous();
  const Lines l = lines_around(c.shape(), d);
  Shape shape = c.shape();
  if (keepdim) shape[d] = 1;
  else shape.erase(shape.begin() + int64_t(d));
  Tensor out = Tensor::empty(shape);
  const float* p = c.data();
  float* o = out.data();
  for (int64_t a = 0; a < l.outer; ++a)
    for (int64_t b = 0; b < l.inner; ++b) o[a * l.inner + b] = line(p + a * l.n * l.inner + b, l.n, l.inner);
  return out;
}

}  // namespace

const char* reduce_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "sum";
    case ReduceOp::Mean: return "mean";
    case ReduceOp::Amax: return "amax";
    case ReduceOp::Amin: return "amin";
    case ReduceOp::Median: return "median";
  }
  return "reduce";
}

Tensor reduce(ReduceOp op, const Tensor& x, int64_t dim, bool keepdim) {
  const char* name = reduce_name(op);
  if (x.dim() == 0) {
    wrap_dim(name, dim, 0);
    return x.dtype() == DType::Float32 ? x.clone() : reduce_typed(op, x, 0, true, false);
  }
  const size_t d = size_t(wrap_dim(name, dim, x.dim()));
  if (x.shape()[d] == 0 && (op == ReduceOp::Amax || op == ReduceOp::Amin || op == ReduceOp::Median))
    fail(name, "cannot reduce dim ", dim, " of size 0 (shape ", x.shape(), ")");
  if (x.dtype() != DType::Float32) return reduce_typed(op, x, dim, false, keepdim);
  return reduce_lines(name, x, dim, keepdim, [op](const float* p, int64_t n, int64_t step) { return reduce_line(op, p, n, step); });
}

Tensor reduce_pnorm(const Tensor& x, double p, const std::vector<int64_t>& dims, bool keepdim) {
  TP_ASSERT(p != 0 && std::isfinite(p) && dims.size() <= 1);
  if (x.dtype() != DType::Float32)
    return via_float32("norm", x, [&](const Tensor& f) { return reduce_pnorm(f, p, dims, keepdim); });
  if (!dims.empty() && x.dim() > 0)
    return reduce_lines("norm", x, dims[0], keepdim, [p](const float* v, int64_t n, int64_t step) { return pnorm_line(v, n, step, p); });
  if (!dims.empty()) wrap_dim("norm", dims[0], 0);
  const Tensor c = x.contiguous();
  return Tensor::scalar(pnorm_line(c.data(), c.numel(), 1, p));
}

Tensor reduce_all(ReduceOp op, const Tensor& x) {
  const char* name = reduce_name(op);
  if (x.numel() == 0 && (op == ReduceOp::Amax || op == ReduceOp::Amin))
    fail(name, "cannot reduce an empty tensor of shape ", x.shape());
  if (x.dtype() != DType::Float32) return reduce_typed(op, x, 0, true, false);
  if (x.numel() == 0 && op == ReduceOp::Median) return Tensor::scalar(std::numeric_limits<float>::quiet_NaN());  // torch
  const Tensor c = x.contiguous();
  return Tensor::scalar(reduce_line(op, c.data(), c.numel(), 1));
}

Tensor cumsum(const Tensor& x, int64_t dim) {
  if (x.dtype() != DType::Float32) return cumsum_typed(x, dim);
  if (x.dim() == 0) {
    wrap_dim("cumsum", dim, 0);
    return x.clone();
  }
  const size_t d = size_t(wrap_dim("cumsum", dim, x.dim()));
  Tensor out = x.clone();
  const Lines l = lines_around(out.shape(), d);
  float* p = out.data();
  for (int64_t a = 0; a < l.outer; ++a)
    for (int64_t b = 0; b < l.inner; ++b) {
      float* q = p + a * l.n * l.inner + b;
      double s = 0.0;
      for (int64_t i = 0; i < l.n; ++i) {
        s += double(q[i * l.inner]);
        q[i * l.inner] = float(s);
      }
    }
  return out;
}

Tensor softmax(const Tensor& x, int64_t dim) {
  if (x.dtype() == DType::Float64) return softmax_f64(x, dim);
  if (x.dtype() != DType::Float32) return via_float32("softmax", x, [&](const Tensor& f) { return softmax(f, dim); });
  // x is (..., n, ...) with n at dim; each line along dim becomes exp(x - max) / sum.
  if (x.dim() == 0) {
    wrap_dim("softmax", dim, 0);
    return Tensor::scalar(1.f);
  }
  const size_t d = size_t(wrap_dim("softmax", dim, x.dim()));
  Tensor out = x.clone();
  const Lines l = lines_around(out.shape(), d);
  float* p = out.data();
  if (l.inner == 1) {  // the common case, softmax over the last dim: contiguous rows, SIMD kernel
    kernels::softmax_rows(p, l.outer, l.n);
    return out;
  }
  for (int64_t a = 0; a < l.outer; ++a)
    for (int64_t b = 0; b < l.inner; ++b) {
      float* q = p + a * l.n * l.inner + b;
      const int64_t s = l.inner;
      // Subtract the row max only for numerical stability: exp never overflows, and -inf gives 0.
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < l.n; ++i) m = q[i * s] > m || q[i * s] != q[i * s] ? q[i * s] : m;
      double sum = 0.0;
      for (int64_t i = 0; i < l.n; ++i) {
        const float e = std::exp(q[i * s] - m);
        q[i * s] = e;
        sum += e;
      }
      const float inv = float(1.0 / sum);
      for (int64_t i = 0; i < l.n; ++i) q[i * s] *= inv;
    }
  return out;
}

}  // namespace tp
