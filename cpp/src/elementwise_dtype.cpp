// Elementwise ops on every dtype: torch's result type (weak JS-number scalars included) and one strided
// loop that moves blocks of the operands into a compute type (float, double or int64), computes there,
// and stores the result in its dtype. float32 ⊕ float32 never comes here (elementwise.cpp's SIMD path).
#include "tensorpad/elementwise_dtype.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"
#include "tensorpad/vmath.hpp"

namespace tp {

namespace {

constexpr int64_t kBlock = 256;

// torch's combine_categories (c10 ResultTypeState): the higher-priority result wins unless the lower one
// is of a higher category (floating over integral over bool), when they are promoted together.
// Undefined is represented by an empty optional-like flag.
struct Maybe {
  bool set = false;
  DType d = DType::Bool;
};
Maybe combine(Maybe higher, Maybe lower) {
  if (!higher.set) return lower;
  if (!lower.set) return higher;
  if (is_floating(higher.d)) return higher;
  if (higher.d == DType::Bool || is_floating(lower.d)) return {true, promote_types(higher.d, lower.d)};
  return higher;
}
Maybe add(Maybe m, DType d) { return {true, m.set ? promote_types(m.d, d) : d}; }

// x^e for integers in int64, wrapping as torch's integer pow; e < 0 gives 1/x^|e| truncated (torch's
// tensor-exponent rule: 1 for x = 1, +-1 for x = -1, else 0).
int64_t ipow(int64_t x, int64_t e) {
  if (e < 0) return x == 1 ? 1 : x == -1 ? (e % 2 == 0 ? 1 : -1) : 0;
  uint64_t r = 1, b = uint64_t(x);
  while (e) {
    if (e & 1) r *= b;
    b *= b;
    e >>= 1;
  }
  return int64_t(r);
}

template <class C>
C nan_max(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return a != a ? a : (b != b ? b : (a > b ? a : b));
  else return a > b ? a : b;
}
template <class C>
C nan_min(C a, C b) {
  if constexpr (std::is_floating_point_v<C>) return a != a ? a : (b != b ? b : (a < b ? a : b));
  else return a < b ? a : b;
}

// One block of a binary op in compute type C; integer add/sub/mul wrap (two's complement) as torch.
template <class C>
void binary_block(const void* ctx, const C* a, const C* b, C* o, int64_t n) {
  const BinaryOp op = *static_cast<const BinaryOp*>(ctx);
  using U = std::make_unsigned_t<std::conditional_t<std::is_integral_v<C>, C, int>>;
  constexpr bool integer = std::is_integral_v<C>;
  switch (op) {
    case BinaryOp::Add:
      if constexpr (integer) for (int64_t i = 0; i < n; ++i) o[i] = C(U(a[i]) + U(b[i]));
      else for (int64_t i = 0; i < n; ++i) o[i] = a[i] + b[i];
      return;
    case BinaryOp::Sub:
      if constexpr (integer) for (int64_t i = 0; i < n; ++i) o[i] = C(U(a[i]) - U(b[i]));
      else for (int64_t i = 0; i < n; ++i) o[i] = a[i] - b[i];
      return;
    case BinaryOp::Mul:
      if constexpr (integer) for (int64_t i = 0; i < n; ++i) o[i] = C(U(a[i]) * U(b[i]));
      else for (int64_t i = 0; i < n; ++i) o[i] = a[i] * b[i];
      return;
    case BinaryOp::Div:
      TP_ASSERT(!integer);  // true division computes in a floating type
      if constexpr (!integer) for (int64_t i = 0; i < n; ++i) o[i] = a[i] / b[i];
      return;
    case BinaryOp::Pow:
      if constexpr (integer) for (int64_t i = 0; i < n; ++i) o[i] = ipow(a[i], b[i]);
      else for (int64_t i = 0; i < n; ++i) o[i] = b[i] == C(2) ? a[i] * a[i] : std::pow(a[i], b[i]);
      return;
    case BinaryOp::Maximum: for (int64_t i = 0; i < n; ++i) o[i] = nan_max(a[i], b[i]); return;
    case BinaryOp::Minimum: for (int64_t i = 0; i < n; ++i) o[i] = nan_min(a[i], b[i]); return;
  }
}

// The walks over rows below are shared by the compute types (one strided_rows instance each, not
// three: ~1-2 KB of the WebAssembly module); each block of a row goes to a step for its type C.
using AnyKernel = void (*)();
struct BinaryStep {
  DType da, db, dout;
  AnyKernel k;
  const void* ctx;
};
template <class C>
void binary_step(const BinaryStep& b, const uint8_t* pa, int64_t sa, const uint8_t* pb, int64_t sb, uint8_t* po,
                 int64_t so, int64_t m) {
  C ba[kBlock], bb[kBlock], bo[kBlock];
  load_block(b.da, pa, sa, m, ba);
  load_block(b.db, pb, sb, m, bb);
  reinterpret_cast<void (*)(const void*, const C*, const C*, C*, int64_t)>(b.k)(b.ctx, ba, bb, bo, m);
  store_block(b.dout, bo, m, po, so);
}
using BinaryStepFn = void (*)(const BinaryStep&, const uint8_t*, int64_t, const uint8_t*, int64_t, uint8_t*, int64_t,
                              int64_t);

void run_block_rows(const Tensor& ea, const Tensor& eb, Tensor& out, const Shape& shape, const BinaryStep& b,
                    BinaryStepFn step) {
  const auto* pa = static_cast<const uint8_t*>(ea.raw());
  const auto* pb = static_cast<const uint8_t*>(eb.raw());
  auto* po = static_cast<uint8_t*>(out.raw());
  const int64_t sa = itemsize(b.da), sb = itemsize(b.db), so = itemsize(b.dout);
  strided_rows<3>(shape, {&ea.strides(), &eb.strides(), &out.strides()}, {0, 0, 0},
                  [&](const std::array<int64_t, 3>& o, int64_t n, const std::array<int64_t, 3>& st) {
                    for (int64_t i0 = 0; i0 < n; i0 += kBlock)
                      step(b, pa + (o[0] + i0 * st[0]) * sa, st[0], pb + (o[1] + i0 * st[1]) * sb, st[1],
                           po + (o[2] + i0 * st[2]) * so, st[2], std::min(kBlock, n - i0));
                  });
}

template <class C>
void run_blocks(const Tensor& ea, const Tensor& eb, Tensor& out, const Shape& shape, void (*k)(const void*, const C*, const C*, C*, int64_t),
                const void* ctx) {
  const BinaryStep b{ea.dtype(), eb.dtype(), out.dtype(), reinterpret_cast<AnyKernel>(k), ctx};
  run_block_rows(ea, eb, out, shape, b, &binary_step<C>);
}

template <class C>
void unary_block(UnaryOp op, C* p, int64_t n) {
  switch (op) {
    case UnaryOp::Neg:
      if constexpr (std::is_integral_v<C>) for (int64_t i = 0; i < n; ++i) p[i] = C(0 - uint64_t(p[i]));
      else for (int64_t i = 0; i < n; ++i) p[i] = -p[i];
      return;
    case UnaryOp::Abs:
      if constexpr (std::is_integral_v<C>) for (int64_t i = 0; i < n; ++i) p[i] = p[i] < 0 ? C(0 - uint64_t(p[i])) : p[i];
      else for (int64_t i = 0; i < n; ++i) p[i] = std::fabs(p[i]);
      return;
    case UnaryOp::Square:
      if constexpr (std::is_integral_v<C>) for (int64_t i = 0; i < n; ++i) p[i] = C(uint64_t(p[i]) * uint64_t(p[i]));
      else for (int64_t i = 0; i < n; ++i) p[i] = p[i] * p[i];
      return;
    case UnaryOp::Relu: for (int64_t i = 0; i < n; ++i) p[i] = p[i] > 0 ? p[i] : (p[i] != p[i] ? p[i] : C(0)); return;
    case UnaryOp::Sign: for (int64_t i = 0; i < n; ++i) p[i] = p[i] > 0 ? C(1) : (p[i] < 0 ? C(-1) : p[i]); return;
    default: break;
  }
  if constexpr (std::is_floating_point_v<C>) {
    switch (op) {
      case UnaryOp::Sqrt: for (int64_t i = 0; i < n; ++i) p[i] = std::sqrt(p[i]); return;
      case UnaryOp::Exp: for (int64_t i = 0; i < n; ++i) p[i] = std::exp(p[i]); return;
      case UnaryOp::Log: for (int64_t i = 0; i < n; ++i) p[i] = std::log(p[i]); return;
      case UnaryOp::Round: for (int64_t i = 0; i < n; ++i) p[i] = std::nearbyint(p[i]); return;
      default: break;
    }
    // sin ... trunc: ops_unary.cpp's function tables (float for float16/bfloat16 and integers, double for float64)
    if constexpr (std::is_same_v<C, float>) unary_more_f32(op, p, n);
    else unary_more_f64(op, p, n);
    return;
  } else if (op == UnaryOp::Round || op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Trunc) {
    return;  // integers are already round
  }
  TP_ASSERT(false);
}

template <class C>
void unary_step(UnaryOp op, DType dx, const uint8_t* px, int64_t sx, DType dout, uint8_t* po, int64_t so, int64_t m) {
  C buf[kBlock];
  load_block(dx, px, sx, m, buf);
  unary_block(op, buf, m);
  store_block(dout, buf, m, po, so);
}
using UnaryStepFn = void (*)(UnaryOp, DType, const uint8_t*, int64_t, DType, uint8_t*, int64_t, int64_t);

Tensor unary_rows(UnaryOp op, const Tensor& x, DType out_dtype, UnaryStepFn step) {
  Tensor out = Tensor::empty(x.shape(), out_dtype, unary_name(op));
  if (out.numel() == 0) return out;
  const auto* px = static_cast<const uint8_t*>(x.raw());
  auto* po = static_cast<uint8_t*>(out.raw());
  const DType dx = x.dtype();
  const int64_t sx = itemsize(dx), so = itemsize(out_dtype);
  strided_rows<2>(x.shape(), {&x.strides(), &out.strides()}, {0, 0},
                  [&](const std::array<int64_t, 2>& o, int64_t n, const std::array<int64_t, 2>& st) {
                    for (int64_t i0 = 0; i0 < n; i0 += kBlock)
                      step(op, dx, px + (o[0] + i0 * st[0]) * sx, st[0], out_dtype, po + (o[1] + i0 * st[1]) * so, st[1],
                           std::min(kBlock, n - i0));
                  });
  return out;
}

template <class C>
Tensor unary_typed(UnaryOp op, const Tensor& x, DType out_dtype) {
  return unary_rows(op, x, out_dtype, &unary_step<C>);
}

bool integer_valued(double v) { return std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < 9.2e18; }

// A JS number is a Python int when it is integer-valued (2.0 included: JS cannot tell), else a Python
// float, which counts as the default dtype float32.
DType result_type_of(DType tensor, double scalar) {
  return combine({true, tensor}, {true, integer_valued(scalar) ? DType::Int64 : DType::Float32}).d;
}

}  // namespace

DType compute_dtype(DType d) {
  return d == DType::Float64 ? DType::Float64 : is_floating(d) ? DType::Float32 : DType::Int64;
}

DType result_type(const Tensor& a, const Tensor& b) {
  Maybe dims, zeros;
  for (const Tensor* t : {&a, &b}) {
    if (t->dim() == 0) zeros = add(zeros, t->dtype());
    else dims = add(dims, t->dtype());
  }
  return combine(dims, zeros).d;
}

DType result_type(const Tensor& a, double scalar) { return result_type_of(a.dtype(), scalar); }

Tensor scalar_tensor(double value) {
  return Tensor::full({}, value, integer_valued(value) ? DType::Int64 : DType::Float64);
}

Tensor elementwise2(const char* op, const Tensor& a, const Tensor& b, DType compute, DType out_dtype,
                    const BlockKernels& k) {
  const Shape shape = broadcast_shapes(op, a.shape(), b.shape());
  Tensor out = Tensor::empty(shape, out_dtype, op);
  if (out.numel() == 0) return out;
  const Tensor ea = expand(a, shape), eb = expand(b, shape);
  switch (compute_dtype(compute)) {
    case DType::Float32: run_blocks<float>(ea, eb, out, shape, k.f32, k.ctx); break;
    case DType::Float64: run_blocks<double>(ea, eb, out, shape, k.f64, k.ctx); break;
    default: run_blocks<int64_t>(ea, eb, out, shape, k.i64, k.ctx); break;
  }
  return out;
}

Tensor binary_typed(BinaryOp op, const Tensor& a, const Tensor& b, DType result) {
  const char* name = binary_name(op);
  if (op == BinaryOp::Sub && (a.dtype() == DType::Bool || b.dtype() == DType::Bool))
    fail(name, "subtraction with a bool tensor is not supported (as torch); use logicalXor, or logicalNot to invert a mask");
  if (op == BinaryOp::Pow && result == DType::Bool) fail(name, "pow of bool tensors is not supported (as torch)");
  // True division: integer and bool results become float32, torch's default dtype.
  const DType out = op == BinaryOp::Div && !is_floating(result) ? DType::Float32 : result;
  // As torch, each operand is first cast to the common dtype (uint8 max(4, int32 0-d -6) compares 4 with
  // 250; a float64 0-d operand of a float16 op is rounded to float16), then computed in its compute type.
  const Tensor ca = a.to(out), cb = b.to(out);
  const BlockKernels k{&binary_block<float>, &binary_block<double>, &binary_block<int64_t>, &op};
  return elementwise2(name, ca, cb, out, out, k);
}

void check_int_pow(BinaryOp op, DType base, double e) {
  if (op == BinaryOp::Pow && !is_floating(result_type_of(base, e)) && e < 0)
    fail("pow", "integers to negative integer powers are not allowed (as torch), got a ", dtype_name(base),
         " tensor to the power ", e);
}

Tensor clamp_typed(const Tensor& x, double lo, double hi) {
  // torch.clamp's result type counts both bounds as scalars: int32 clamped to 0.5 is float32.
  DType r = x.dtype();
  if (lo == lo) r = promote_types(r, result_type_of(x.dtype(), lo));
  if (hi == hi) r = promote_types(r, result_type_of(x.dtype(), hi));
  if (lo == lo && hi == hi && lo > hi) lo = hi;  // torch: min > max sets every element to max
  Tensor t = x.to(r);
  if (lo == lo) t = binary_typed(BinaryOp::Maximum, t, scalar_tensor(lo), r);
  if (hi == hi) t = binary_typed(BinaryOp::Minimum, t, scalar_tensor(hi), r);
  return t.dtype() == r && t.shares_storage(x) ? t.clone() : t;
}

Tensor unary_typed(UnaryOp op, const Tensor& x) {
  const char* name = unary_name(op);
  const DType d = x.dtype();
  const bool rounding = op == UnaryOp::Round || op == UnaryOp::Floor || op == UnaryOp::Ceil || op == UnaryOp::Trunc;
  if (d == DType::Bool && (op == UnaryOp::Neg || op == UnaryOp::Abs || rounding || op == UnaryOp::Relu))
    fail(name, op == UnaryOp::Neg ? "negating a bool tensor is not supported (as torch); use logicalNot"
                                  : "not supported for bool tensors (as torch)");
  // sqrt, exp, log and sin ... reciprocal of integers and bools are float32 (torch's default dtype); bool
  // squares to int64; the rounding ops keep integers as they are.
  const bool float_op = op == UnaryOp::Sqrt || op == UnaryOp::Exp || op == UnaryOp::Log ||
                        (op >= UnaryOp::Sin && !rounding);
  const DType out = float_op && !is_floating(d) ? DType::Float32 : op == UnaryOp::Square && d == DType::Bool ? DType::Int64 : d;
  switch (compute_dtype(out)) {
    case DType::Float32: return unary_typed<float>(op, x, out);
    case DType::Float64: return unary_typed<double>(op, x, out);
    default: return unary_typed<int64_t>(op, x, out);
  }
}

}  // namespace tp
