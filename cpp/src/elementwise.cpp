// Elementwise arithmetic with numpy broadcasting: three flat loops per op for the common layouts (which
// the compiler vectorises with -msimd128), one strided walk for every other case.
#include <algorithm>
#include <cmath>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"
#include "tensorpad/vmath.hpp"

namespace tp {

namespace {

inline float nan_max(float a, float b) { return a != a ? a : (b != b ? b : (a > b ? a : b)); }
inline float nan_min(float a, float b) { return a != a ? a : (b != b ? b : (a < b ? a : b)); }

// Calls body with op as a function object. Add, sub, mul and div always get one of their own; pow,
// maximum and minimum too when all_ops, else they share one that picks the op per element (their
// loops are rarely hot, and every copy of body costs module size).
template <bool all_ops, class F>
auto with_binary(BinaryOp op, F&& body) {
  switch (op) {
    case BinaryOp::Add: return body([](float a, float b) { return a + b; });
    case BinaryOp::Sub: return body([](float a, float b) { return a - b; });
    case BinaryOp::Mul: return body([](float a, float b) { return a * b; });
    case BinaryOp::Div: return body([](float a, float b) { return a / b; });
    default: break;
  }
  if constexpr (all_ops) {
    switch (op) {
      case BinaryOp::Pow: return body([](float a, float b) { return b == 2.f ? a * a : std::pow(a, b); });
      case BinaryOp::Maximum: return body([](float a, float b) { return nan_max(a, b); });
      case BinaryOp::Minimum: return body([](float a, float b) { return nan_min(a, b); });
      default: break;
    }
    fail("binary", "unknown op");
  } else {
    return body([op](float a, float b) { return with_binary<true>(op, [&](auto f) { return f(a, b); }); });
  }
}

// s without its leading size-1 dims (a [1, 1, n] row is a [n] row).
Shape drop_leading_ones(const Shape& s) {
  size_t i = 0;
  while (i < s.size() && s[i] == 1) ++i;
  return Shape(s.begin() + int64_t(i), s.end());
}

// Whether t (contiguous) is x's shape with its last dim 1: one value per row of x (a column to divide
// rows by, say), where x is contiguous and as big as the output.
bool is_row_scalars(const Tensor& t, const Tensor& x) {
  if (!t.is_contiguous() || t.dim() != x.dim() || x.dim() == 0 || t.size(-1) != 1) return false;
  return std::equal(t.shape().begin(), t.shape().end() - 1, x.shape().begin());
}

// The three contiguous loops of every fast layout, o[i] = f(a[i], b[i]), f(a[i], s) and f(s, b[i]);
// a trailing operand or one value per row runs them row by row. Not inlined: one vectorised copy of each
// per op (o never aliases a or b, so no runtime overlap checks either).
template <class F>
__attribute__((noinline)) void loop_vv(F f, const float* __restrict a, const float* __restrict b, float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], b[i]);
}
template <class F>
__attribute__((noinline)) void loop_vs(F f, const float* __restrict a, float s, float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = f(a[i], s);
}
template <class F>
__attribute__((noinline)) void loop_sv(F f, float s, const float* __restrict b, float* __restrict o, int64_t n) {
  for (int64_t i = 0; i < n; ++i) o[i] = f(s, b[i]);
}

}  // namespace

const char* binary_name(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "add";
    case BinaryOp::Sub: return "sub";
    case BinaryOp::Mul: return "mul";
    case BinaryOp::Div: return "div";
    case BinaryOp::Pow: return "pow";
    case BinaryOp::Maximum: return "maximum";
    case BinaryOp::Minimum: return "minimum";
  }
  return "binary";
}

const char* unary_name(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: return "neg";
    case UnaryOp::Abs: return "abs";
    case UnaryOp::Sqrt: return "sqrt";
    case UnaryOp::Exp: return "exp";
    case UnaryOp::Log: return "log";
    case UnaryOp::Square: return "square";
    case UnaryOp::Round: return "round";
    case UnaryOp::Relu: return "relu";
    case UnaryOp::Sign: return "sign";
    default: break;
  }
  static const char* const more[] = {"sin", "cos", "tan", "tanh", "sigmoid", "erf", "expm1", "log1p",
                                     "rsqrt", "reciprocal", "floor", "ceil", "trunc"};
  const int k = int(op) - int(UnaryOp::Sin);
  if (k >= 0 && k < int(sizeof more / sizeof *more)) return more[k];
  return "unary";
}

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b) {
  const size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1)
      fail(op, "shapes ", a, " and ", b, " do not broadcast (", da, " vs ", db,
           " in dim ", int64_t(i) - int64_t(n), ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b) {
  // a is (...), b is (...), out is their broadcast shape, of torch's result type (elementwise_dtype.cpp
  // unless both are float32: the loops below).
  if (a.dtype() != DType::Float32 || b.dtype() != DType::Float32) return binary_typed(op, a, b, result_type(a, b));
  const Shape shape = broadcast_shapes(binary_name(op), a.shape(), b.shape());
  Tensor out = Tensor::empty(shape);
  const int64_t n = out.numel();
  if (n == 0) return out;
  float* o = out.data();
  const bool ca = a.is_contiguous(), cb = b.is_contiguous();
  const bool fa = ca && a.numel() == n, fb = cb && b.numel() == n;  // as big as the output, in order
  // A trailing operand (a bias row, a per-channel scale, [1, n] as [n]) repeats over the other's leading dims.
  auto trails = [&](const Tensor& t, const Tensor& full) {
    const Shape s = drop_leading_ones(t.shape());
    return t.is_contiguous() && t.numel() > 0 && n % t.numel() == 0 && std::equal(s.rbegin(), s.rend(), full.shape().rbegin());
  };
  const bool fast = (fa && fb) || (fa && b.numel() == 1) || (fb && a.numel() == 1) || (fa && trails(b, a)) ||
                    (fb && trails(a, b)) || (fa && is_row_scalars(b, a)) || (fb && is_row_scalars(a, b));
  if (!fast) {
    // The general strided or broadcast case (transposed views, outer sums): one walk over the rows of
    // the broadcast views, the op chosen per element (rarely hot; one copy of the loop for every op).
    const Tensor ea = expand(a, shape), eb = expand(b, shape);
    const float* pa = ea.data();
    const float* pb = eb.data();
    strided_rows<3>(shape, {&ea.strides(), &eb.strides(), &out.strides()}, {0, 0, 0},
                    [&](const std::array<int64_t, 3>& at, int64_t m, const std::array<int64_t, 3>& st) {
                      for (int64_t i = 0; i < m; ++i)
                        o[at[2] + i * st[2]] = with_binary<true>(op, [&](auto g) { return g(pa[at[0] + i * st[0]], pb[at[1] + i * st[1]]); });
                    });
    return out;
  }
  with_binary<false>(op, [&](auto f) {
    const float* pa = a.data();
    const float* pb = b.data();
    if (fa && fb) {
      loop_vv(f, pa, pb, o, n);
    } else if (fa && b.numel() == 1) {
      loop_vs(f, pa, pb[0], o, n);
    } else if (fb && a.numel() == 1) {
      loop_sv(f, pa[0], pb, o, n);
    } else if (fa && trails(b, a)) {
      const int64_t m = b.numel();
      for (int64_t r = 0; r < n; r += m) loop_vv(f, pa + r, pb, o + r, m);
    } else if (fb && trails(a, b)) {
      const int64_t m = a.numel();
      for (int64_t r = 0; r < n; r += m) loop_vv(f, pa, pb + r, o + r, m);
    } else if (fa) {  // b holds one value per row of a
      const int64_t k = a.size(-1);
      for (int64_t r = 0; r < n / k; ++r) loop_vs(f, pa + r * k, pb[r], o + r * k, k);
    } else {  // a holds one value per row of b
      const int64_t k = b.size(-1);
      for (int64_t r = 0; r < n / k; ++r) loop_sv(f, pa[r], pb + r * k, o + r * k, k);
    }
    return 0;
  });
  return out;
}

Tensor binary_scalar(BinaryOp op, const Tensor& a, double b) {
  if (a.dtype() == DType::Float32) return binary(op, a, Tensor::scalar(float(b)));
  check_int_pow(op, a.dtype(), b);
  return binary_typed(op, a, scalar_tensor(b), result_type(a, b));
}
Tensor scalar_binary(BinaryOp op, double a, const Tensor& b) {
  if (b.dtype() == DType::Float32) return binary(op, Tensor::scalar(float(a)), b);
  return binary_typed(op, scalar_tensor(a), b, result_type(b, a));
}

Tensor unary(UnaryOp op, const Tensor& x) {
  if (x.dtype() != DType::Float32) return unary_typed(op, x);
  Tensor out = x.clone();
  float* p = out.data();
  const int64_t n = out.numel();
  switch (op) {
    case UnaryOp::Neg: for (int64_t i = 0; i < n; ++i) p[i] = -p[i]; break;
    case UnaryOp::Abs: for (int64_t i = 0; i < n; ++i) p[i] = std::fabs(p[i]); break;
    case UnaryOp::Sqrt: for (int64_t i = 0; i < n; ++i) p[i] = std::sqrt(p[i]); break;
    case UnaryOp::Exp: kernels::exp_f32(p, p, n); break;
    case UnaryOp::Log: for (int64_t i = 0; i < n; ++i) p[i] = std::log(p[i]); break;
    case UnaryOp::Square: for (int64_t i = 0; i < n; ++i) p[i] = p[i] * p[i]; break;
    // nearbyint rounds half to even in the default rounding mode, as torch.round and numpy.round do.
    case UnaryOp::Round: for (int64_t i = 0; i < n; ++i) p[i] = std::nearbyint(p[i]); break;
    case UnaryOp::Relu: for (int64_t i = 0; i < n; ++i) p[i] = p[i] > 0.f ? p[i] : (p[i] != p[i] ? p[i] : 0.f); break;
    case UnaryOp::Sign: for (int64_t i = 0; i < n; ++i) p[i] = p[i] > 0.f ? 1.f : (p[i] < 0.f ? -1.f : p[i]); break;
    default: unary_more_f32(op, p, n); break;
  }
  return out;
}

Tensor clamp(const Tensor& x, float lo, float hi) {
  if (x.dtype() != DType::Float32) return clamp_typed(x, lo, hi);
  if (lo == lo && hi == hi && lo > hi) lo = hi;  // torch: min > max sets every element to max
  Tensor out = x.clone();
  float* p = out.data();
  for (int64_t i = 0; i < out.numel(); ++i) {
    if (lo == lo && p[i] < lo) p[i] = lo;
    if (hi == hi && p[i] > hi) p[i] = hi;
  }
  return out;
}

}  // namespace tp
