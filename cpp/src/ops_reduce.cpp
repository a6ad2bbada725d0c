// torch's statistical reductions beyond sum/mean/amax/amin/median: var, std and logsumexp over a list
// of dims, prod and cumprod along one, log_softmax. Every line is accumulated in double, as torch does
// for float32 on the CPU.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"
#include "lines_around.hpp"

namespace tp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// x as contiguous lines of `count` values, one per element of the result `out` (x's shape without the
// reduced dims, or with 1 there when keepdim). dims empty means every dim; each wrapped, none twice.
struct Lines {
  Tensor values;  // (rows, count)
  int64_t rows = 1, count = 1;
  Shape out;
};
Lines lines_over(const char* op, const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  std::vector<bool> reduced(size_t(std::max<int64_t>(x.dim(), 1)), dims.empty());
  for (int64_t d : dims) {
    const size_t w = size_t(wrap_dim(op, d, x.dim()));
    if (reduced[w] && !dims.empty()) fail(op, "dim ", d, " appears twice in ", shape_str(dims));
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
  perm.insert(perm.end(), tail.begin(), tail.end());
  l.values = reshape(x.dim() == 0 ? x : permute(x, perm), {l.rows, l.count});
  return l;
}

// The result of f(line, count) for each line.
template <class F>
Tensor reduce_with(const Lines& l, F f) {
  Tensor out = Tensor::empty(l.out);
  const float* p = l.values.data();
  for (int64_t r = 0; r < l.rows; ++r) out.data()[r] = float(f(p + r * l.count, l.count));
  return out;
}

double variance(const float* p, int64_t n, double correction) {
  double mean = 0;
  for (int64_t i = 0; i < n; ++i) mean += p[i];
  mean /= double(n);
  double ss = 0;
  for (int64_t i = 0; i < n; ++i) ss += (p[i] - mean) * (p[i] - mean);
  return ss / std::max(0.0, double(n) - correction);  // 0/0 = NaN for n <= correction, as torch
}

// log(sum(exp(v))) over n values at stride s. An infinite max is not subtracted (inf - inf is NaN):
// all -inf gives -inf, any +inf gives +inf.
double lse(const float* p, int64_t n, int64_t s) {
  double m = -kInf;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(p[i * s])) return p[i * s];
    m = std::max(m, double(p[i * s]));
  }
  if (std::isinf(m)) return m;
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(double(p[i * s]) - m);
  return m + std::log(sum);
}

// Calls f(first, n, stride) for every line of the contiguous `out` along dim.
template <class F>
void each_line(Tensor& out, int64_t dim, F f) {
  const detail::Lines a = detail::lines_around(out.shape(), dim);
  float* p = out.data();
  for (int64_t o = 0; o < a.outer; ++o)
    for (int64_t i = 0; i < a.inner; ++i) f(p + o * a.n * a.inner + i, a.n, a.inner);
}

}  // namespace

Tensor var(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  // x (...) -> x without dims (or 1 there with keepdim)
  if (std::isnan(correction)) fail("var", "correction must be a number, got NaN");
  const Lines l = lines_over("var", x, dims, keepdim);
  return reduce_with(l, [&](const float* p, int64_t n) { return variance(p, n, correction); });
}

Tensor std_dev(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  if (std::isnan(correction)) fail("std", "correction must be a number, got NaN");
  const Lines l = lines_over("std", x, dims, keepdim);
  return reduce_with(l, [&](const float* p, int64_t n) { return std::sqrt(variance(p, n, correction)); });
}

Tensor logsumexp(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  const Lines l = lines_over("logsumexp", x, dims, keepdim);
  return reduce_with(l, [](const float* p, int64_t n) { return lse(p, n, 1); });
}

namespace {
double product(const float* p, int64_t n) {
  double r = 1;
  for (int64_t i = 0; i < n; ++i) r *= p[i];
  return r;
}
}  // namespace

Tensor prod(const Tensor& x, int64_t dim, bool keepdim) {
  // x (..., n at dim, ...) -> (..., ...) or (..., 1, ...)
  return reduce_with(lines_over("prod", x, {wrap_dim("prod", dim, x.dim())}, keepdim), product);
}

Tensor prod_all(const Tensor& x) { return reduce_with(lines_over("prod", x, {}, false), product); }

Tensor cumprod(const Tensor& x, int64_t dim) {
  // x (...) -> same shape, running products along dim
  const int64_t d = wrap_dim("cumprod", dim, x.dim());
  Tensor out = x.clone();
  if (x.dim() == 0) return out;
  each_line(out, d, [](float* p, int64_t n, int64_t s) {
    double r = 1;
    for (int64_t i = 0; i < n; ++i) p[i * s] = float(r *= p[i * s]);
  });
  return out;
}

Tensor log_softmax(const Tensor& x, int64_t dim) {
  // x (...) -> same shape, x - logsumexp along dim
  const int64_t d = wrap_dim("logSoftmax", dim, x.dim());
  Tensor out = x.clone();
  if (x.dim() == 0) {
    out.data()[0] = std::isnan(out.data()[0]) ? out.data()[0] : 0.f;
    return out;
  }
  each_line(out, d, [](float* p, int64_t n, int64_t s) {
    const double z = lse(p, n, s);
    for (int64_t i = 0; i < n; ++i) p[i * s] = float(double(p[i * s]) - z);
  });
  return out;
}

}  // namespace tp
