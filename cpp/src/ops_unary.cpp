// torch's float functions beyond the basic ones: trig, tanh, sigmoid, erf, expm1, log1p, rsqrt,
// reciprocal, floor, ceil, trunc (UnaryOp codes from Sin on), in float (float32, and float16/bfloat16/
// integers computed in float, as torch) and in double (float64). unary() in elementwise.cpp and
// unary_typed() in elementwise_dtype.cpp dispatch here.
#include <cmath>

#include "tensorpad/ops.hpp"

namespace tp {

namespace {
// The libm functions run in double for every dtype: float32 rounds the double result once (correctly
// rounded but for a rare double rounding, where sinf and friends are within 1 ulp), and the module links
// one sin, not a sin and a sinf (the double ones are linked anyway: RoPE tables, gelu).
double dsin(double v) { return std::sin(v); }
double dcos(double v) { return std::cos(v); }
double dtan(double v) { return std::tan(v); }
double dtanh(double v) { return std::tanh(v); }
double derf(double v) { return std::erf(v); }
double dexpm1(double v) { return std::expm1(v); }
double dlog1p(double v) { return std::log1p(v); }

// p is (n), overwritten with op(p); NaN stays NaN. One loop through a function pointer for the libm
// ones rather than a loop per op: they run at the speed of their libm call either way, and each extra
// loop costs module size.
template <class T>
void unary_more(UnaryOp op, T* p, int64_t n) {
  switch (op) {
    // exp(-v) = inf for v < -88 (float) gives exactly 0, as torch's float sigmoid
    case UnaryOp::Sigmoid: for (int64_t i = 0; i < n; ++i) p[i] = T(1) / (T(1) + std::exp(-p[i])); return;
    case UnaryOp::Rsqrt: for (int64_t i = 0; i < n; ++i) p[i] = T(1) / std::sqrt(p[i]); return;
    case UnaryOp::Reciprocal: for (int64_t i = 0; i < n; ++i) p[i] = T(1) / p[i]; return;
    case UnaryOp::Floor: for (int64_t i = 0; i < n; ++i) p[i] = std::floor(p[i]); return;
    case UnaryOp::Ceil: for (int64_t i = 0; i < n; ++i) p[i] = std::ceil(p[i]); return;
    case UnaryOp::Trunc: for (int64_t i = 0; i < n; ++i) p[i] = std::trunc(p[i]); return;
    default: break;
  }
  static double (*const libm[])(double) = {dsin, dcos, dtan, dtanh, nullptr, derf, dexpm1, dlog1p};
  const int k = int(op) - int(UnaryOp::Sin);
  if (k < 0 || k >= int(sizeof libm / sizeof *libm) || !libm[k]) fail("unary", "unknown op code ", int(op));
  double (*const f)(double) = libm[k];
  for (int64_t i = 0; i < n; ++i) p[i] = T(f(double(p[i])));
}
}  // namespace

void unary_more_f32(UnaryOp op, float* p, int64_t n) { unary_more(op, p, n); }
void unary_more_f64(UnaryOp op, double* p, int64_t n) { unary_more(op, p, n); }

}  // namespace tp
