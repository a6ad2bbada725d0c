// torch's float functions beyond the basic ones: trig, tanh, sigmoid, erf, expm1, log1p, rsqrt,
// reciprocal, floor, ceil, trunc (UnaryOp codes from Sin on; unary() in elementwise.cpp dispatches here).
#include <cmath>

#include "tensorpad/ops.hpp"

namespace tp {

namespace {
float sigmoid(float v) { return 1.f / (1.f + std::exp(-v)); }  // exp(-v) = inf for v < -88 gives exactly 0, as torch
float rsqrt(float v) { return 1.f / std::sqrt(v); }
float reciprocal(float v) { return 1.f / v; }
float fsin(float v) { return std::sin(v); }
float fcos(float v) { return std::cos(v); }
float ftan(float v) { return std::tan(v); }
float ftanh(float v) { return std::tanh(v); }
float ferf(float v) { return std::erf(v); }
float fexpm1(float v) { return std::expm1(v); }
float flog1p(float v) { return std::log1p(v); }
float ffloor(float v) { return std::floor(v); }
float fceil(float v) { return std::ceil(v); }
float ftrunc(float v) { return std::trunc(v); }
}  // namespace

void unary_more_f32(UnaryOp op, float* p, int64_t n) {
  // p is (n), overwritten with op(p); NaN stays NaN. One loop through a function pointer rather than a
  // loop per op: these run at the speed of their libm call either way, and each extra loop costs module size.
  static float (*const fns[])(float) = {fsin, fcos, ftan, ftanh, sigmoid, ferf, fexpm1, flog1p, rsqrt, reciprocal,
                                        ffloor, fceil, ftrunc};
  const int k = int(op) - int(UnaryOp::Sin);
  if (k < 0 || k >= int(sizeof fns / sizeof *fns)) fail("unary", "unknown op code ", int(op));
  float (*const f)(float) = fns[k];
  for (int64_t i = 0; i < n; ++i) p[i] = f(p[i]);
}

}  // namespace tp
