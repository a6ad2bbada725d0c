// torch's ops that find or follow int64 indices: argmax/argmin, max/min along a dim, topk, sort,
// argsort, gather, index_select and embedding. Comparisons read each line once as double keys
// (load_block: one loop per dtype, exact for every dtype but int64 beyond 2^53); values move as bytes,
// so every dtype works without a template per dtype.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "tensorpad/dtype.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"
#include "lines_around.hpp"

namespace tp {

namespace {

using detail::Lines;
using detail::lines_around;

// NaN ranks above everything (torch's sort, max and argmax treat it as the largest value).
inline bool less_nan_last(double a, double b) { return !std::isnan(a) && (std::isnan(b) || a < b); }

// The shape of a reduction of `s` along d: d removed, or 1 there with keepdim.
Shape reduced_shape(Shape s, size_t d, bool keepdim) {
  if (keepdim) s[d] = 1;
  else s.erase(s.begin() + int64_t(d));
  return s;
}

// Calls f(line, index of the line's first element in x, step) for each line of x along d, the line's
// values as doubles in `buf`.
template <class F>
void for_lines(const Tensor& xc, int64_t d, F f) {
  const Lines a = lines_around(xc.shape(), d);
  std::vector<double> buf(size_t(a.n));
  const auto* base = static_cast<const uint8_t*>(xc.raw());
  const int64_t isz = itemsize(xc.dtype());
  for (int64_t o = 0; o < a.outer; ++o)
    for (int64_t i = 0; i < a.inner; ++i) {
      const int64_t first = o * a.n * a.inner + i;
      load_block(xc.dtype(), base + first * isz, a.inner, a.n, buf.data());
      f(buf, first, a.inner, o * a.inner + i);
    }
}

// The position of the largest (max) or smallest value of v, the first one on ties; a NaN wins at once.
int64_t arg_extreme(const std::vector<double>& v, bool max) {
  int64_t best = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) return int64_t(i);
    if (max ? v[i] > v[size_t(best)] : v[i] < v[size_t(best)]) best = int64_t(i);
  }
  return best;
}

void copy_element(const Tensor& from, int64_t i, Tensor& to, int64_t j) {
  const int64_t isz = itemsize(from.dtype());
  std::memcpy(static_cast<uint8_t*>(to.raw()) + j * isz, static_cast<const uint8_t*>(from.raw()) + i * isz, size_t(isz));
}

// The values and int64 indices of the extreme of each line along dim.
ValuesIndices arg_reduce(const char* op, const Tensor& x, int64_t dim, bool keepdim, bool max) {
  // x (..., n, ...) -> values, indices (..., ...) or (..., 1, ...)
  const int64_t d = wrap_dim(op, dim, x.dim());
  if (x.dim() > 0 && x.shape()[size_t(d)] == 0)
    fail(op, "cannot reduce dim ", dim, " of size 0 (shape ", x.shape(), ")");
  const Tensor xc = x.contiguous();
  const Shape shape = x.dim() == 0 ? Shape{} : reduced_shape(x.shape(), size_t(d), keepdim);
  ValuesIndices r{Tensor::empty(shape, x.dtype(), op), Tensor::empty(shape, DType::Int64, op)};
  int64_t* idx = r.indices.data_as<int64_t>();
  for_lines(xc, d, [&](const std::vector<double>& v, int64_t first, int64_t step, int64_t line) {
    const int64_t k = arg_extreme(v, max);
    idx[line] = k;
    copy_element(xc, first + k * step, r.values, line);
  });
  return r;
}

// Over every element: x flattened.
ValuesIndices arg_reduce_all(const char* op, const Tensor& x, bool max) {
  if (x.numel() == 0) fail(op, "cannot reduce an empty tensor of shape ", x.shape());
  return arg_reduce(op, reshape(x, {-1}), 0, false, max);
}

}  // namespace

Tensor argmax(const Tensor& x, int64_t dim, bool keepdim) { return arg_reduce("argmax", x, dim, keepdim, true).indices; }
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim) { return arg_reduce("argmin", x, dim, keepdim, false).indices; }
Tensor argmax_all(const Tensor& x) { return arg_reduce_all("argmax", x, true).indices; }
Tensor argmin_all(const Tensor& x) { return arg_reduce_all("argmin", x, false).indices; }
ValuesIndices max_dim(const Tensor& x, int64_t dim, bool keepdim) { return arg_reduce("max", x, dim, keepdim, true); }
ValuesIndices min_dim(const Tensor& x, int64_t dim, bool keepdim) { return arg_reduce("min", x, dim, keepdim, false); }
Tensor max_all(const Tensor& x) { return arg_reduce_all("max", x, true).values; }
Tensor min_all(const Tensor& x) { return arg_reduce_all("min", x, false).values; }

namespace {
// The stable order of v: ascending with NaN last, or descending with NaN first; equal values keep
// their positions' order, as torch's stable sort.
void stable_order(const std::vector<double>& v, bool descending, std::vector<int64_t>& order) {
  order.resize(v.size());
  std::iota(order.begin(), order.end(), int64_t(0));
  // std::sort on (value, index), a total order whose one sorted permutation is the stable one: the same
  // result as std::stable_sort, whose merges (__inplace_merge and its buffer) were ~3.4 KB of the module
  // against std::sort's ~2 KB. One comparator for both directions (one instantiation).
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const double x = v[size_t(a)], y = v[size_t(b)];
    if (descending ? less_nan_last(y, x) : less_nan_last(x, y)) return true;
    if (descending ? less_nan_last(x, y) : less_nan_last(y, x)) return false;
    return a < b;
  });
}

// The first k of each line's stable order along dim, as values and indices of x's shape with k at dim.
ValuesIndices ordered(const char* op, const Tensor& x, int64_t dim, int64_t k, bool descending) {
  const Tensor xc = x.contiguous();
  if (x.dim() == 0) return {xc.clone(), Tensor::zeros({}, DType::Int64, op)};
  Shape shape = x.shape();
  shape[size_t(dim)] = k;
  ValuesIndices r{Tensor::empty(shape, x.dtype(), op), Tensor::empty(shape, DType::Int64, op)};
  int64_t* idx = r.indices.data_as<int64_t>();
  const Lines a = lines_around(shape, dim);
  std::vector<int64_t> order;
  for_lines(xc, dim, [&](const std::vector<double>& v, int64_t first, int64_t step, int64_t line) {
    stable_order(v, descending, order);
    const int64_t o = line / a.inner, i = line % a.inner;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t at = (o * k + j) * a.inner + i;
      idx[at] = order[size_t(j)];
      copy_element(xc, first + order[size_t(j)] * step, r.values, at);
    }
  });
  return r;
}
}  // namespace

ValuesIndices sort(const Tensor& x, int64_t dim, bool descending) {
  // x (..., n, ...) -> values, indices of the same shape
  const int64_t d = wrap_dim("sort", dim, x.dim());
  return ordered("sort", x, d, x.dim() == 0 ? 1 : x.shape()[size_t(d)], descending);
}

ValuesIndices topk(const Tensor& x, int64_t k, int64_t dim, bool largest, bool sorted) {
  // x (..., n, ...) -> values, indices (..., k, ...): the k largest (or smallest), in order
  const int64_t d = wrap_dim("topk", dim, x.dim());
  const int64_t n = x.dim() == 0 ? 1 : x.shape()[size_t(d)];
  if (k < 0 || k > n)
    fail("topk", "k ", k, " is out of range for dim ", dim, " of size ", n, " (shape ", x.shape(), ")");
  (void)sorted;  // always sorted: a valid answer for sorted=false too, and the same one torch's CPU gives
  return ordered("topk", x, d, k, largest);
}

namespace {
// index as int64 values (any integer dtype), each checked against [0, n).
std::vector<int64_t> indices_of(const char* op, const Tensor& index, int64_t n, const char* what) {
  if (!is_integral(index.dtype()))
    fail(op, "index must be an integer tensor (int64 or int32), got ", dtype_name(index.dtype()));
  const Tensor c = index.contiguous();
  std::vector<int64_t> v(size_t(c.numel()));
  load_block(c.dtype(), c.raw(), 1, c.numel(), v.data());
  for (int64_t i : v)
    if (i < 0 || i >= n) fail(op, "index ", i, " is out of range for ", what, " of size ", n);
  return v;
}
}  // namespace

Tensor gather(const Tensor& x, int64_t dim, const Tensor& index) {
  // x (..., n, ...), index (..., m, ...) with each other dim at most x's -> out of index's shape
  const int64_t d = wrap_dim("gather", dim, x.dim());
  if (index.dim() != x.dim() && !(x.dim() == 0 && index.dim() <= 1))
    fail("gather", "index must have as many dims as x: got shapes ", index.shape(), " and ", x.shape());
  for (int64_t i = 0; i < index.dim() && x.dim() > 0; ++i)
    if (i != d && index.shape()[size_t(i)] > x.shape()[size_t(i)])
      fail("gather", "index of shape ", index.shape(), " is larger than x of shape ", x.shape(),
           " in dim ", i);
  const Tensor xc = x.contiguous();
  const int64_t n = x.dim() == 0 ? 1 : x.shape()[size_t(d)];
  const std::vector<int64_t> idx = indices_of("gather", index, n, "the gathered dim");
  Tensor out = Tensor::empty(index.shape(), x.dtype(), "gather");
  if (out.numel() == 0) return out;
  const Shape xs = xc.dim() == 0 ? Shape{1} : xc.strides();
  const Shape is = index.dim() == 0 ? Shape{1} : index.shape();
  // out[p] = x[p with its dim-d coordinate replaced by index[p]]
  std::vector<int64_t> pos(is.size(), 0);
  for (int64_t p = 0; p < out.numel(); ++p) {
    int64_t src = 0;
    for (size_t k = 0; k < is.size(); ++k) src += (int64_t(k) == d ? idx[size_t(p)] : pos[k]) * xs[k];
    copy_element(xc, src, out, p);
    for (int64_t k = int64_t(is.size()) - 1; k >= 0 && ++pos[size_t(k)] == is[size_t(k)]; --k) pos[size_t(k)] = 0;
  }
  return out;
}

Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index) {
  // x (a..., n, b...), index (m) -> (a..., m, b...)
  if (index.dim() > 1) fail("indexSelect", "index must be 0-d or 1-d, got shape ", index.shape());
  const int64_t d = wrap_dim("indexSelect", dim, x.dim());
  const int64_t n = x.dim() == 0 ? 1 : x.shape()[size_t(d)];
  const std::vector<int64_t> idx = indices_of("indexSelect", index, n, "the selected dim");
  if (x.dim() == 0) return x.clone();
  const Tensor xc = x.contiguous();
  Shape shape = x.shape();
  shape[size_t(d)] = int64_t(idx.size());
  Tensor out = Tensor::empty(shape, x.dtype(), "indexSelect");
  const Lines a = lines_around(x.shape(), d);
  const int64_t isz = itemsize(x.dtype()), row = a.inner * isz, m = int64_t(idx.size());
  const auto* src = static_cast<const uint8_t*>(xc.raw());
  auto* dst = static_cast<uint8_t*>(out.raw());
  for (int64_t o = 0; o < a.outer; ++o)
    for (int64_t j = 0; j < m; ++j)
      std::memcpy(dst + (o * m + j) * row, src + (o * a.n + idx[size_t(j)]) * row, size_t(row));
  return out;
}

Tensor embedding(const Tensor& ids, const Tensor& weight) {
  // ids (...) integer, weight (num, dim) -> (..., dim): row ids[p] of weight
  if (weight.dim() != 2) fail("nn.embedding", "weight must be 2-d (num, dim), got shape ", weight.shape());
  if (!is_integral(ids.dtype())) fail("nn.embedding", "ids must be an integer tensor, got ", dtype_name(ids.dtype()));
  Shape shape = ids.shape();
  shape.push_back(weight.shape()[1]);
  const Tensor rows = [&] {
    try {
      return index_select(weight, 0, reshape(ids, {-1}));
    } catch (const Error& e) {
      throw Error(std::string("nn.embedding") + (e.what() + std::strlen("indexSelect")));
    }
  }();
  return reshape(rows, shape);
}

}  // namespace tp
