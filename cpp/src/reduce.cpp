// Reductions along one dim or all: sum, mean, amax, amin; cumsum; softmax.
#include <algorithm>
#include <cmath>
#include <vector>
#include <limits>

#include "tensorpad/ops.hpp"
#include "tensorpad/vmath.hpp"

namespace tp {

namespace {

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

// A contiguous x seen as (outer, n, inner) around dim d.
struct Lines {
  int64_t outer = 1, n = 1, inner = 1;
};
Lines lines_around(const Shape& shape, size_t d) {
  Lines l;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i < d) l.outer *= shape[i];
    else if (i == d) l.n = shape[i];
    else l.inner *= shape[i];
  }
  return l;
}

// Reduces n values spaced by `step`; sums accumulate in double so long rows keep float accuracy.
float reduce_line(ReduceOp op, const float* p, int64_t n, int64_t step) {
  if (op == ReduceOp::Median) {
    std::vector<float> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      v[size_t(i)] = p[i * step];
      if (v[size_t(i)] != v[size_t(i)]) return v[size_t(i)];  // NaN propagates, as in torch
    }
    const auto mid = v.begin() + (n - 1) / 2;
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
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

}  // namespace

Tensor reduce(ReduceOp op, const Tensor& x, int64_t dim, bool keepdim) {
  const char* name = reduce_name(op);
  if (x.dim() == 0) {
    wrap_dim(name, dim, 0);
    return x.clone();
  }
  const size_t d = size_t(wrap_dim(name, dim, x.dim()));
  if (x.shape()[d] == 0 && (op == ReduceOp::Amax || op == ReduceOp::Amin || op == ReduceOp::Median))
    fail(name, "cannot reduce dim ", dim, " of size 0 (shape ", shape_str(x.shape()), ")");
  const Tensor c = x.contiguous();
  const Lines l = lines_around(c.shape(), d);
  Shape shape = c.shape();
  if (keepdim) shape[d] = 1;
  else shape.erase(shape.begin() + int64_t(d));
  Tensor out = Tensor::empty(shape);
  const float* p = c.data();
  float* o = out.data();
  for (int64_t a = 0; a < l.outer; ++a)
    for (int64_t b = 0; b < l.inner; ++b) o[a * l.inner + b] = reduce_line(op, p + a * l.n * l.inner + b, l.n, l.inner);
  return out;
}

Tensor reduce_all(ReduceOp op, const Tensor& x) {
  const char* name = reduce_name(op);
  if (x.numel() == 0 && (op == ReduceOp::Amax || op == ReduceOp::Amin || op == ReduceOp::Median))
    fail(name, "cannot reduce an empty tensor of shape ", shape_str(x.shape()));
  const Tensor c = x.contiguous();
  return Tensor::scalar(reduce_line(op, c.data(), c.numel(), 1));
}

Tensor cumsum(const Tensor& x, int64_t dim) {
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
