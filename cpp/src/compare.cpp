// isclose/allclose: |a - b| <= atol + rtol * |b| elementwise, with torch's rules for infinities and NaN.
#include <cmath>
#include <limits>

#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

namespace {
void check_tolerances(const char* op, double rtol, double atol) {
  if (!(rtol >= 0) || !(atol >= 0)) fail(op, "rtol and atol must be non-negative, got rtol=", rtol, " atol=", atol);
}
bool close(float a, float b, double rtol, double atol, bool equal_nan) {
  if (a == b) return true;  // also equal infinities
  if (std::isnan(a) || std::isnan(b)) return equal_nan && std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(double(a) - double(b)) <= atol + rtol * std::fabs(double(b));
}
}  // namespace

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  check_tolerances("isclose", rtol, atol);
  const Shape shape = broadcast_shapes("isclose", a.shape(), b.shape());
  const Tensor ea = expand(a, shape), eb = expand(b, shape);
  Tensor out = Tensor::empty(shape);
  const Shape os = out.strides();
  const float* pa = ea.data();
  const float* pb = eb.data();
  float* po = out.data();
  strided_rows<3>(shape, {&ea.strides(), &eb.strides(), &os}, {0, 0, 0},
                  [&](const std::array<int64_t, 3>& o, int64_t n, const std::array<int64_t, 3>& s) {
                    for (int64_t i = 0; i < n; ++i)
                      po[o[2] + i * s[2]] = close(pa[o[0] + i * s[0]], pb[o[1] + i * s[1]], rtol, atol, equal_nan) ? 1.f : 0.f;
                  });
  return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  check_tolerances("allclose", rtol, atol);
  const Tensor c = isclose(a, b, rtol, atol, equal_nan);
  for (int64_t i = 0; i < c.numel(); ++i)
    if (c.data()[i] == 0.f) return false;
  return true;
}

}  // namespace tp
