// isclose/allclose: |a - b| <= atol + rtol * |b| elementwise, with torch's rules for infinities and NaN.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

namespace {
void check_tolerances(const char* op, double rtol, double atol) {
  if (!(rtol >= 0) || !(atol >= 0)) fail(op, "rtol and atol must be non-negative, got rtol=", rtol, " atol=", atol);
}
bool close(double a, double b, double rtol, double atol, bool equal_nan) {
  if (a == b) return true;  // also equal infinities
  if (std::isnan(a) || std::isnan(b)) return equal_nan && std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(a - b) <= atol + rtol * std::fabs(b);
}
}  // namespace

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  // a and b broadcast; out is bool. Values of any dtype are compared as doubles (exact for every dtype
  // but int64 beyond 2^53).
  check_tolerances("isclose", rtol, atol);
  const Shape shape = broadcast_shapes("isclose", a.shape(), b.shape());
  const Tensor ea = expand(a, shape), eb = expand(b, shape);
  Tensor out = Tensor::empty(shape, DType::Bool, "isclose");
  const Shape os = out.strides();
  const auto* pa = static_cast<const uint8_t*>(ea.raw());
  const auto* pb = static_cast<const uint8_t*>(eb.raw());
  const int64_t ia = itemsize(a.dtype()), ib = itemsize(b.dtype());
  bool* po = out.data_as<bool>();
  constexpr int64_t kBlock = 256;
  double xa[kBlock], xb[kBlock];
  strided_rows<3>(shape, {&ea.strides(), &eb.strides(), &os}, {0, 0, 0},
                  [&](const std::array<int64_t, 3>& o, int64_t n, const std::array<int64_t, 3>& s) {
                    for (int64_t j = 0; j < n; j += kBlock) {
                      const int64_t m = std::min(kBlock, n - j);
                      load_block(a.dtype(), pa + (o[0] + j * s[0]) * ia, s[0], m, xa);
                      load_block(b.dtype(), pb + (o[1] + j * s[1]) * ib, s[1], m, xb);
                      for (int64_t i = 0; i < m; ++i) po[o[2] + (j + i) * s[2]] = close(xa[i], xb[i], rtol, atol, equal_nan);
                    }
                  });
  return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  check_tolerances("allclose", rtol, atol);
  const Tensor c = isclose(a, b, rtol, atol, equal_nan);
  const bool* p = c.data_as<bool>();
  return std::all_of(p, p + c.numel(), [](bool v) { return v; });
}

}  // namespace tp
