// torch's statistical reductions beyond sum/mean/amax/amin/median: var, std and logsumexp over a list
// of dims, prod and cumprod along one, log_softmax, in every dtype with torch's result dtypes. Floating
// inputs are read into double and every line is computed there (as torch does for float32 on the CPU;
// float16/bfloat16, which torch computes in float, round once at the end); integer and bool prod/cumprod
// multiply in int64, wrapping as torch's int64 products do. One double path (and one int64 path for the
// products) serves every dtype: float32 gives the bits it had when it was the only dtype.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"
#include "lines_around.hpp"

namespace tp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// A compact copy of x in dtype c that the caller may overwrite.
Tensor owned(const Tensor& x, DType c) { return x.dtype() == c ? x.clone() : x.to(c); }

// x as contiguous lines of `count` values of dtype c (Float64 or Int64), one per element of the result
// `out` (x's shape without the reduced dims, or with 1 there when keepdim). dims empty means every dim;
// each wrapped, none twice.
struct Lines {
  Tensor values;  // (rows, count) of c
  int64_t rows = 1, count = 1;
  Shape out;
};
Lines lines_over(const char* op, const Tensor& x, const std::vector<int64_t>& dims, bool keepdim,
                 DType c = DType::Float64) {
  std::vector<uint8_t> reduced(size_t(std::max<int64_t>(x.dim(), 1)), dims.empty());
  for (int64_t d : dims) {
    const size_t w = size_t(wrap_dim(op, d, x.dim()));
    if (reduced[w] && !dims.empty()) fail(op, "dim ", d, " appears twice in ", dims);
    reduced[w] = true;
  }
  Lines l;
  Shape perm, tail;
  for (int64_t d = 0; d < x.dim(); ++d) {
    const int64_t n = x.shape()[size_t(d)];
    if (reduced[size_t(d)]) {
      tail.push_back(d);
      l.count *= n;
      if (keepdim) l.out.push_back(1);
    } else {
      perm.push_back(d);
      l.rows *= n;
      l.out.push_back(n);
    }
  }
  for (const auto& e : tail) perm.push_back(e);
  l.values = reshape((x.dim() == 0 ? x : permute(x, perm)).to(c), {l.rows, l.count});
  return l;
}

// The result of f(line, count) for each line, in C, converted to `result`.
template <class C, class F>
Tensor reduce_with(const Lines& l, DType result, F f) {
  Tensor out = Tensor::empty(l.out, dtype_of<C>::value);
  const C* p = l.values.template data_as<C>();
  C* o = out.template data_as<C>();
  for (int64_t r = 0; r < l.rows; ++r) o[r] = f(p + r * l.count, l.count);
  return out.to(result);
}

double variance(const double* p, int64_t n, double correction) {
  double mean = 0;
  for (int64_t i = 0; i < n; ++i) mean += p[i];
  mean /= double(n);
  double ss = 0;
  for (int64_t i = 0; i < n; ++i) ss += (p[i] - mean) * (p[i] - mean);
  return ss / std::max(0.0, double(n) - correction);  // 0/0 = NaN for n <= correction, as torch
}

// log(sum(exp(v))) over n values at stride s. An infinite max is not subtracted (inf - inf is NaN):
// all -inf gives -inf, any +inf gives +inf.
double lse(const double* p, int64_t n, int64_t s) {
  double m = -kInf;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(p[i * s])) return p[i * s];
    m = std::max(m, p[i * s]);
  }
  if (std::isinf(m)) return m;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(p[i * s] - m);
  return m + std::log(sum);
}

// Calls f(first, n, stride) for every line of the contiguous `out` (of C) along dim.
template <class C, class F>
void each_line(Tensor& out, int64_t dim, F f) {
  const detail::Lines a = detail::lines_around(out.shape(), dim);
  C* p = out.template data_as<C>();
  for (int64_t o = 0; o < a.outer; ++o)
    for (int64_t i = 0; i < a.inner; ++i) f(p + o * a.n * a.inner + i, a.n, a.inner);
}

}  // namespace

Tensor var(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  // x (...) floating -> x without dims (or 1 there with keepdim), x's dtype
  check_floating("var", x);
  if (std::isnan(correction)) fail("var", "correction must be a number, got NaN");
  const Lines l = lines_over("var", x, dims, keepdim);
  return reduce_with<double>(l, x.dtype(), [&](const double* p, int64_t n) { return variance(p, n, correction); });
}

Tensor std_dev(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  check_floating("std", x);
  if (std::isnan(correction)) fail("std", "correction must be a number, got NaN");
  const Lines l = lines_over("std", x, dims, keepdim);
  return reduce_with<double>(l, x.dtype(), [&](const double* p, int64_t n) { return std::sqrt(variance(p, n, correction)); });
}

Tensor logsumexp(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  // integers and bools give float32, torch's default dtype
  const Lines l = lines_over("logsumexp", x, dims, keepdim);
  return reduce_with<double>(l, is_floating(x.dtype()) ? x.dtype() : DType::Float32,
                             [](const double* p, int64_t n) { return lse(p, n, 1); });
}

namespace {
// The product of n values; integers wrap (two's complement), as torch's int64 products.
template <class C>
C product(const C* p, int64_t n) {
  if constexpr (std::is_integral_v<C>) {
    uint64_t r = 1;
    for (int64_t i = 0; i < n; ++i) r *= uint64_t(p[i]);
    return C(r);
  } else {
    double r = 1;
    for (int64_t i = 0; i < n; ++i) r *= p[i];
    return r;
  }
}
// prod over dims: floating in double to x's dtype, integers and bools in int64 to int64 (torch).
Tensor prod_over(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  if (is_floating(x.dtype())) return reduce_with<double>(lines_over("prod", x, dims, keepdim), x.dtype(), product<double>);
  return reduce_with<int64_t>(lines_over("prod", x, dims, keepdim, DType::Int64), DType::Int64, product<int64_t>);
}
// Running products along each line, in place.
template <class C>
void running_products(C* p, int64_t n, int64_t s) {
  if constexpr (std::is_integral_v<C>) {
    uint64_t r = 1;
    for (int64_t i = 0; i < n; ++i) p[i * s] = C(r *= uint64_t(p[i * s]));
  } else {
    double r = 1;
    for (int64_t i = 0; i < n; ++i) p[i * s] = r *= p[i * s];
  }
}
}  // namespace

Tensor prod(const Tensor& x, int64_t dim, bool keepdim) {
  // x (..., n at dim, ...) -> (..., ...) or (..., 1, ...)
  return prod_over(x, {wrap_dim("prod", dim, x.dim())}, keepdim);
}

Tensor prod_all(const Tensor& x) { return prod_over(x, {}, false); }

Tensor cumprod(const Tensor& x, int64_t dim) {
  // x (...) -> same shape, running products along dim; x's dtype when floating, else int64 (torch)
  const int64_t d = wrap_dim("cumprod", dim, x.dim());
  const bool f = is_floating(x.dtype());
  Tensor out = owned(x, f ? DType::Float64 : DType::Int64);
  if (x.dim() > 0) {
    if (f) each_line<double>(out, d, running_products<double>);
    else each_line<int64_t>(out, d, running_products<int64_t>);
  }
  return out.to(f ? x.dtype() : DType::Int64);
}

Tensor log_softmax(const Tensor& x, int64_t dim) {
  // x (...) floating -> same shape and dtype, x - logsumexp along dim
  check_floating("logSoftmax", x);
  const int64_t d = wrap_dim("logSoftmax", dim, x.dim());
  Tensor out = owned(x, DType::Float64);
  if (x.dim() == 0) {
    double& v = out.data_as<double>()[0];
    v = std::isnan(v) ? v : 0.0;
  } else {
    each_line<double>(out, d, [](double* p, int64_t n, int64_t s) {
      const double z = lse(p, n, s);
      for (int64_t i = 0; i < n; ++i) p[i * s] -= z;
    });
  }
  return out.to(x.dtype());
}

}  // namespace tp
