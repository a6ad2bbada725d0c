// Comparisons, where, masked_fill, logical ops and any/all (tensorpad/logic.hpp). Operands are first
// converted to their promoted dtype (Tensor::to), then compared row by row in double (floats) or int64
// (integers and bools) through dtype.hpp's block loads: one loop per compute type, not per dtype pair.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "tensorpad/logic.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

namespace {

enum class Category { Bool, Integer, Float };
Category category(DType d) { return d == DType::Bool ? Category::Bool : is_floating(d) ? Category::Float : Category::Integer; }

// torch's combine_categories: the higher-priority result stands unless the lower one is of a higher category.
DType combine(bool has_hi, DType hi, bool has_lo, DType lo) {
  if (!has_hi) return lo;
  if (!has_lo) return hi;
  return category(lo) > category(hi) ? promote_types(hi, lo) : hi;
}

bool is_integral_number(double v) { return std::isfinite(v) && v == std::floor(v); }

// a number as a 0-d tensor of the dtype it takes next to `like` (the result dtype of the op).
Tensor number_tensor(double v, DType dtype) { return Tensor::full({}, v, dtype, "scalar"); }

Tensor as_tensor(const Operand& o, DType dtype) {
  return o.tensor ? o.tensor->to(dtype) : number_tensor(o.number, dtype);
}
// By value, not a reference to a function-local static empty shape: its first use needed a guard
// (__cxa_guard_acquire, with a mutex and condition variable in the pthreads core).
Shape shape_of(const Operand& o) { return o.tensor ? o.tensor->shape() : Shape(); }

constexpr int64_t kBlock = 256;

// The walk over rows of each_pair_as, shared by its instances (one strided_rows instance, not one per
// element type and callback: ~1 KB each of the WebAssembly module); each block of a row goes to a step
// for its type T and callback F.
struct PairWalk {
  DType d;
  const void* f;
};
using PairStep = void (*)(const PairWalk&, const uint8_t*, int64_t, const uint8_t*, int64_t, int64_t, int64_t, int64_t);
template <class T, class F>
void pair_step(const PairWalk& w, const uint8_t* pa, int64_t sa, const uint8_t* pb, int64_t sb, int64_t i0, int64_t si,
               int64_t m) {
  T xa[kBlock], xb[kBlock];
  load_block(w.d, pa, sa, m, xa);
  load_block(w.d, pb, sb, m, xb);
  const F& f = *static_cast<const F*>(w.f);
  for (int64_t i = 0; i < m; ++i) f(i0 + i * si, xa[i], xb[i]);
}
void pair_rows(const Tensor& ea, const Tensor& eb, const Shape& shape, const PairWalk& w, PairStep step) {
  const int64_t item = itemsize(w.d);
  const auto* pa = static_cast<const uint8_t*>(ea.raw());
  const auto* pb = static_cast<const uint8_t*>(eb.raw());
  const Shape os = contiguous_strides(shape);
  strided_rows<3>(shape, {&ea.strides(), &eb.strides(), &os}, {0, 0, 0},
                  [&](const std::array<int64_t, 3>& o, int64_t n, const std::array<int64_t, 3>& s) {
                    for (int64_t j = 0; j < n; j += kBlock)
                      step(w, pa + (o[0] + j * s[0]) * item, s[0], pb + (o[1] + j * s[1]) * item, s[1], o[2] + j * s[2],
                           s[2], std::min(kBlock, n - j));
                  });
}

// Calls f(i, x, y) for every element of the broadcast a, b (already of one dtype d): x and y are double
// for float dtypes, int64 otherwise; i counts the output elements in row-major order.
template <class T, class F>
void each_pair_as(const Tensor& a, const Tensor& b, const Shape& shape, F&& f) {
  const Tensor ea = expand(a, shape), eb = expand(b, shape);
  const PairWalk w{a.dtype(), &f};
  pair_rows(ea, eb, shape, w, &pair_step<T, std::remove_reference_t<F>>);
}
template <class F>
void each_pair(const Tensor& a, const Tensor& b, const Shape& shape, F&& f) {
  if (is_floating(a.dtype())) each_pair_as<double>(a, b, shape, f);
  else each_pair_as<int64_t>(a, b, shape, f);
}

template <class T>
bool compare_values(CompareOp op, T x, T y) {
  switch (op) {
    case CompareOp::Eq: return x == y;
    case CompareOp::Ne: return x != y;
    case CompareOp::Lt: return x < y;
    case CompareOp::Le: return x <= y;
    case CompareOp::Gt: return x > y;
    case CompareOp::Ge: return x >= y;
  }
  return false;
}

// One row of element bytes: out[i] = (take_a[i] ? a : b)[i], for one item size.
template <class U>
void select_row(const bool* pc, const uint8_t* a, const uint8_t* b, uint8_t* out, int64_t n,
                const std::array<int64_t, 4>& s) {
  const U* pa = reinterpret_cast<const U*>(a);
  const U* pb = reinterpret_cast<const U*>(b);
  U* po = reinterpret_cast<U*>(out);
  for (int64_t i = 0; i < n; ++i) po[i * s[3]] = pc[i * s[0]] ? pa[i * s[1]] : pb[i * s[2]];
}
// Copies element bytes: out[i] = (take_a[i] ? a : b)[i]. One walk (one strided_rows instance) with the
// item size picked per row: a walk per item size was ~0.7 KB more of the WebAssembly module.
void select_bytes(const Tensor& cond, const Tensor& a, const Tensor& b, Tensor& out) {
  const Shape& shape = out.shape();
  const Shape os = out.strides();
  const bool* pc = cond.data_as<bool>();
  const auto* pa = static_cast<const uint8_t*>(a.raw());
  const auto* pb = static_cast<const uint8_t*>(b.raw());
  auto* po = static_cast<uint8_t*>(out.raw());
  const int64_t size = itemsize(out.dtype());
  strided_rows<4>(shape, {&cond.strides(), &a.strides(), &b.strides(), &os}, {0, 0, 0, 0},
                  [&](const std::array<int64_t, 4>& o, int64_t n, const std::array<int64_t, 4>& s) {
                    const bool* c = pc + o[0];
                    const uint8_t *x = pa + o[1] * size, *y = pb + o[2] * size;
                    uint8_t* z = po + o[3] * size;
                    switch (size) {
                      case 1: return select_row<uint8_t>(c, x, y, z, n, s);
                      case 2: return select_row<uint16_t>(c, x, y, z, n, s);
                      case 4: return select_row<uint32_t>(c, x, y, z, n, s);
                      default: return select_row<uint64_t>(c, x, y, z, n, s);
                    }
                  });
}

Tensor any_all(const char* op, bool want_any, const Tensor& x, const std::vector<int64_t>& dims_in, bool keepdim) {
  const int64_t nd = x.dim();
  std::vector<uint8_t> reduced(size_t(nd), dims_in.empty());
  for (int64_t d : dims_in) {
    const int64_t w = wrap_dim(op, d, nd);
    if (reduced[size_t(w)]) fail(op, "dim ", d, " appears twice in the dims");
    reduced[size_t(w)] = true;
  }
  // Kept dims first, reduced dims last: each output element is one contiguous run of bools.
  Shape perm, out_shape, kept_shape;
  int64_t inner = 1;
  for (int64_t d = 0; d < nd; ++d)
    if (!reduced[size_t(d)]) perm.push_back(d), kept_shape.push_back(x.size(d));
  for (int64_t d = 0; d < nd; ++d)
    if (reduced[size_t(d)]) perm.push_back(d), inner *= x.size(d);
  for (int64_t d = 0; d < nd; ++d)
    if (!reduced[size_t(d)]) out_shape.push_back(x.size(d));
    else if (keepdim) out_shape.push_back(1);
  const Tensor b = permute(x.to(DType::Bool), perm).contiguous();
  Tensor out = Tensor::empty(out_shape, DType::Bool, op);
  const bool* pb = b.data_as<bool>();
  bool* po = out.data_as<bool>();
  for (int64_t i = 0; i < out.numel(); ++i) {
    const bool* row = pb + i * inner;
    po[i] = want_any ? std::any_of(row, row + inner, [](bool v) { return v; })
                     : std::all_of(row, row + inner, [](bool v) { return v; });
  }
  return out;
}

}  // namespace

DType result_type(const std::vector<Operand>& operands) {
  bool has_dim = false, has_zero = false, has_num = false;
  DType dim = DType::Bool, zero = DType::Bool, num = DType::Bool;
  for (const Operand& o : operands) {
    if (o.tensor) {
      DType& r = o.tensor->dim() > 0 ? dim : zero;
      bool& has = o.tensor->dim() > 0 ? has_dim : has_zero;
      r = has ? promote_types(r, o.tensor->dtype()) : o.tensor->dtype();
      has = true;
    } else {
      const DType t = is_integral_number(o.number) ? DType::Int64 : DType::Float32;
      num = has_num ? promote_types(num, t) : t;
      has_num = true;
    }
  }
  return combine(has_dim, dim, has_zero || has_num, combine(has_zero, zero, has_num, num));
}

const char* compare_name(CompareOp op) {
  static const char* names[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  return names[int(op)];
}

Tensor compare(CompareOp op, const Operand& a, const Operand& b) {
  // a is (...), b is (...), out is their broadcast shape, bool.
  const char* name = compare_name(op);
  const DType t = result_type({a, b});
  const Shape shape = broadcast_shapes(name, shape_of(a), shape_of(b));
  const Tensor ca = as_tensor(a, t), cb = as_tensor(b, t);
  Tensor out = Tensor::empty(shape, DType::Bool, name);
  bool* po = out.data_as<bool>();
  each_pair(ca, cb, shape, [&](int64_t i, auto x, auto y) { po[i] = compare_values(op, x, y); });
  return out;
}

Tensor where(const Tensor& cond, const Operand& a, const Operand& b) {
  // cond, a, b broadcast to one shape; out has it, in result_type(a, b).
  if (cond.dtype() != DType::Bool) fail("where", "condition must be bool, got ", dtype_name(cond.dtype()));
  const DType t = result_type({a, b});
  const Shape shape = broadcast_shapes("where", cond.shape(), broadcast_shapes("where", shape_of(a), shape_of(b)));
  const Tensor ca = as_tensor(a, t), cb = as_tensor(b, t);
  Tensor out = Tensor::empty(shape, t, "where");
  select_bytes(expand(cond, shape), expand(ca, shape), expand(cb, shape), out);
  return out;
}

Tensor masked_fill(const Tensor& x, const Tensor& mask, double value) {
  // x is (...), mask broadcasts to x's shape, out is x's shape and dtype.
  if (mask.dtype() != DType::Bool) fail("maskedFill", "mask must be bool, got ", dtype_name(mask.dtype()));
  if (broadcast_shapes("maskedFill", x.shape(), mask.shape()) != x.shape())
    fail("maskedFill", "mask of shape ", mask.shape(), " does not broadcast to the shape ",
         x.shape(), " of the tensor");
  const Tensor fill = number_tensor(value, x.dtype());
  Tensor out = Tensor::empty(x.shape(), x.dtype(), "maskedFill");
  select_bytes(expand(mask, x.shape()), expand(fill, x.shape()), x, out);
  return out;
}

Tensor logical(LogicOp op, const Tensor& a, const Tensor& b) {
  static const char* names[] = {"logicalAnd", "logicalOr", "logicalXor"};
  const char* name = names[int(op)];
  const Shape shape = broadcast_shapes(name, a.shape(), b.shape());
  Tensor out = Tensor::empty(shape, DType::Bool, name);
  bool* po = out.data_as<bool>();
  each_pair_as<int64_t>(a.to(DType::Bool), b.to(DType::Bool), shape, [&](int64_t i, int64_t x, int64_t y) {
    po[i] = op == LogicOp::And ? (x && y) : op == LogicOp::Or ? (x || y) : (bool(x) != bool(y));
  });
  return out;
}

Tensor logical_not(const Tensor& x) {
  Tensor out = x.to(DType::Bool).clone();
  bool* p = out.data_as<bool>();
  for (int64_t i = 0; i < out.numel(); ++i) p[i] = !p[i];
  return out;
}

Tensor any(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) { return any_all("any", true, x, dims, keepdim); }
Tensor all(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim) { return any_all("all", false, x, dims, keepdim); }

}  // namespace tp
