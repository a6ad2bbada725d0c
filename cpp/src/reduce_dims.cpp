// Reductions and vector norms over a list of dims (torch's sum(dim=[0, 2]), vector_norm(dim=(0, 2))):
// the dims are moved last and merged into one, and each line of their values is reduced in one pass.
#include <algorithm>
#include <cmath>
#include <vector>

#include "tensorpad/ops.hpp"

namespace tp {

namespace {

// Which dims a reduction over `dims` removes (every dim when dims is empty). Each is wrapped as wrap_dim
// does (a 0-d tensor takes 0 or -1, as torch); all are range-checked before any repeat is looked for,
// and a repeat names the second mention with the list as given.
std::vector<uint8_t> reduced_dims(const char* op, const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<uint8_t> reduced(size_t(std::max<int64_t>(ndim, 1)), dims.empty());
  std::vector<size_t> wrapped;
  for (int64_t d : dims) wrapped.push_back(size_t(wrap_dim(op, d, ndim)));
  for (size_t i = 0; i < dims.size(); ++i) {
    if (reduced[wrapped[i]]) fail(op, "dim ", dims[i], " appears twice in ", dims);
    reduced[wrapped[i]] = true;
  }
  return reduced;
}

// x (any shape) as lines (outer, count): the kept dims first, in order, then the reduced dims merged, so
// each reduction line is `count` adjacent values. out / out_keepdim: the result's shape without / with
// keepdim (1 at each reduced dim).
struct Folded {
  Tensor lines;
  Shape out, out_keepdim;
};
Folded fold(const Tensor& x, const std::vector<uint8_t>& reduced) {
  Shape kept_dims, reduced_list, out, out_keepdim;
  int64_t outer = 1, count = 1;
  for (int64_t d = 0; d < x.dim(); ++d) {
    const int64_t n = x.shape()[size_t(d)];
    if (reduced[size_t(d)]) {
      reduced_list.push_back(d);
      count *= n;
      out_keepdim.push_back(1);
    } else {
      kept_dims.push_back(d);
      outer *= n;
      out.push_back(n);
      out_keepdim.push_back(n);
    }
  }
  Shape perm = kept_dims;
  for (const auto& e : reduced_list) perm.push_back(e);
  const Tensor moved = x.dim() == 0 ? x : permute(x, perm);  // a view; reshape copies when it must
  return {reshape(moved, {outer, count}), out, out_keepdim};
}

// The vector norm of ord along dim of x (x at least 1-d).
Tensor norm_along(const Tensor& x, double ord, int64_t dim, bool keepdim) {
  if (std::isfinite(ord) && ord != 0) return reduce_pnorm(x, ord, {dim}, keepdim);
  const Tensor a = unary(UnaryOp::Abs, x);
  if (ord == 0) return reduce(ReduceOp::Sum, unary(UnaryOp::Sign, a), dim, keepdim);  // count of non-zeros
  if (a.numel() == 0) fail("norm", "the inf-norm of an empty tensor is undefined");
  return reduce(ord > 0 ? ReduceOp::Amax : ReduceOp::Amin, a, dim, keepdim);
}

}  // namespace

Tensor reduce_dims(ReduceOp op, const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) {
  const char* name = reduce_name(op);
  const std::vector<uint8_t> reduced = reduced_dims(name, dims, x.dim());
  if (x.dim() == 0) return x.dtype() == DType::Float32 ? x.clone() : reduce_all(op, x);  // sum of int32 is int64
  if (dims.size() == 1) return reduce(op, x, dims[0], keepdim);
  if (dims.empty()) {  // every dim: reduce_all's rules (an empty tensor's median is NaN, its amax an error)
    const Tensor r = reduce_all(op, x);
    return keepdim ? reshape(r, Shape(size_t(x.dim()), 1)) : r;
  }
  if (op == ReduceOp::Amax || op == ReduceOp::Amin || op == ReduceOp::Median)
    for (int64_t d : dims)
      if (x.shape()[size_t(wrap_dim(name, d, x.dim()))] == 0)
        fail(name, "cannot reduce dim ", d, " of size 0 (shape ", x.shape(), ")");
  const Folded f = fold(x, reduced);
  return reshape(reduce(op, f.lines, 1, false), keepdim ? f.out_keepdim : f.out);
}

Tensor vector_norm(const Tensor& x, double ord, const std::vector<int64_t>& dims, bool keepdim) {
  if (std::isnan(ord)) fail("norm", "ord must be a number, got NaN");
  const std::vector<uint8_t> reduced = reduced_dims("norm", dims, x.dim());
  if (dims.size() == 1 && x.dim() > 0) return norm_along(x, ord, dims[0], keepdim);
  const Folded f = fold(x, reduced);
  return reshape(norm_along(f.lines, ord, 1, false), keepdim ? f.out_keepdim : f.out);
}

}  // namespace tp
