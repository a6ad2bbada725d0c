// Reductions and cumsum of tensors other than float32, with torch's result dtypes: sum of integers and
// bools is int64, mean of them an error, amax/amin/median keep the dtype; floats accumulate in double,
// integers in int64 (wrapping as torch's int64 sums do).
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/ops.hpp"
#include "lines_around.hpp"
#include "nth_median.hpp"

namespace tp {

namespace {

constexpr int64_t kBlock = 256;

// Reduces n values of dtype d at p (spaced by step elements) in compute type C.
template <class C>
C reduce_line_typed(ReduceOp op, DType d, const uint8_t* p, int64_t n, int64_t step) {
  const int64_t size = itemsize(d);
  C buf[kBlock];
  if (op == ReduceOp::Median) {
    std::vector<C> v(static_cast<size_t>(n));
    load_block(d, p, step, n, v.data());
    if constexpr (std::is_floating_point_v<C>)
      for (C x : v)
        if (x != x) return x;  // NaN propagates, as in torch
    if constexpr (std::is_same_v<C, double>) return detail::nth_median(v);
    const auto mid = v.begin() + (n - 1) / 2;
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
  }
  C acc = C(0);
  bool first = true;
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    load_block(d, p + i0 * step * size, step, m, buf);
    if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
      if constexpr (std::is_integral_v<C>) for (int64_t i = 0; i < m; ++i) acc = C(uint64_t(acc) + uint64_t(buf[i]));
      else for (int64_t i = 0; i < m; ++i) acc += buf[i];
      continue;
    }
    for (int64_t i = 0; i < m; ++i) {
      const C v = buf[i];
      if constexpr (std::is_floating_point_v<C>)
        if (v != v) return v;  // NaN propagates
      if (first || (op == ReduceOp::Amax ? v > acc : v < acc)) acc = v;
      first = false;
    }
  }
  if (op == ReduceOp::Mean) return C(double(acc) / double(n));
  return acc;
}

DType reduce_result(ReduceOp op, DType d) {
  if (op == ReduceOp::Mean && !is_floating(d))
    fail("mean", "cannot infer a floating result for a ", dtype_name(d),
         " tensor (as torch); convert it first, e.g. x.float().mean()");
  if (op == ReduceOp::Sum && !is_floating(d)) return DType::Int64;
  return d;
}

template <class C>
void reduce_typed_into(ReduceOp op, const Tensor& c, int64_t outer, int64_t n, int64_t inner, Tensor& out) {
  const auto* p = static_cast<const uint8_t*>(c.raw());
  auto* o = static_cast<uint8_t*>(out.raw());
  const int64_t size = itemsize(c.dtype()), osize = itemsize(out.dtype());
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t b = 0; b < inner; ++b) {
      const C v = reduce_line_typed<C>(op, c.dtype(), p + (a * n * inner + b) * size, n, inner);
      store_block(out.dtype(), &v, 1, o + (a * inner + b) * osize, 1);
    }
}

}  // namespace

// x (not float32) reduced along dim (all dims when all), torch's result dtype.
Tensor reduce_typed(ReduceOp op, const Tensor& x, int64_t dim, bool all, bool keepdim) {
  const char* name = reduce_name(op);
  const DType result = reduce_result(op, x.dtype());
  const Tensor c = x.contiguous();
  int64_t outer = 1, n = c.numel(), inner = 1;
  Shape shape;
  if (!all) {
    const size_t d = size_t(wrap_dim(name, dim, x.dim()));
    for (size_t i = 0; i < c.shape().size(); ++i) {
      if (i < d) outer *= c.shape()[i];
      else if (i > d) inner *= c.shape()[i];
    }
    n = c.shape()[d];
    shape = c.shape();
    if (keepdim) shape[d] = 1;
    else shape.erase(shape.begin() + int64_t(d));
  }
  if (op == ReduceOp::Median && n == 0 && !is_floating(result))
    fail(name, "cannot take the median of an empty ", dtype_name(x.dtype()), " tensor");
  Tensor out = Tensor::empty(shape, result, name);
  if (out.numel() == 0) return out;
  if (n == 0 && op == ReduceOp::Median) return Tensor::full(shape, NAN, result, name);
  if (is_floating(x.dtype())) reduce_typed_into<double>(op, c, outer, n, inner, out);
  else reduce_typed_into<int64_t>(op, c, outer, n, inner, out);
  return out;
}

Tensor cumsum_typed(const Tensor& x, int64_t dim) {
  const DType result = is_floating(x.dtype()) ? x.dtype() : DType::Int64;  // torch: integers and bools sum in int64
  const Tensor c = x.to(result).contiguous().clone();
  if (c.dim() == 0) return c;
  const size_t d = size_t(wrap_dim("cumsum", dim, x.dim()));
  const auto [outer, n, inner] = detail::lines_around(c.shape(), int64_t(d));
  auto* p = static_cast<uint8_t*>(const_cast<void*>(c.raw()));
  const int64_t size = itemsize(result);
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t b = 0; b < inner; ++b) {
      uint8_t* q = p + (a * n * inner + b) * size;
      if (result == DType::Int64) {
        int64_t* v = reinterpret_cast<int64_t*>(q);
        uint64_t s = 0;
        for (int64_t i = 0; i < n; ++i) v[i * inner] = int64_t(s += uint64_t(v[i * inner]));
      } else {
        double s = 0;
        for (int64_t i = 0; i < n; ++i) {
          double v;
          load_block(result, q + i * inner * size, 1, 1, &v);
          s += v;
          store_block(result, &s, 1, q + i * inner * size, 1);
        }
      }
    }
  return c;
}

Tensor softmax_f64(const Tensor& x, int64_t dim) {
  // x is float64 (..., n, ...); each line along dim becomes exp(x - max) / sum, all in double.
  Tensor c = x.clone();
  if (c.dim() == 0) {
    wrap_dim("softmax", dim, 0);
    c.data_as<double>()[0] = 1.0;
    return c;
  }
  const size_t d = size_t(wrap_dim("softmax", dim, x.dim()));
  const auto [outer, n, inner] = detail::lines_around(c.shape(), int64_t(d));
  double* p = c.data_as<double>();
  for (int64_t a = 0; a < outer; ++a)
    for (int64_t b = 0; b < inner; ++b) {
      double* q = p + a * n * inner + b;
      double m = -INFINITY;
      for (int64_t i = 0; i < n; ++i) m = q[i * inner] > m || q[i * inner] != q[i * inner] ? q[i * inner] : m;
      double sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += (q[i * inner] = std::exp(q[i * inner] - m));
      for (int64_t i = 0; i < n; ++i) q[i * inner] /= sum;
    }
  return c;
}

}  // namespace tp
