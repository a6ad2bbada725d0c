// isclose/allclose with |a - b| <= atol + rtol * |b|, and vector norms.
#include <cmath>
#include <limits>

#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

namespace {
void check_tolerances(const char* op, double rtol, double atol) {
  if (!(rtol >= 0) || !(atol >= 0)) fail(op, "rtol and atol must be non-negative, got rtol=", rtol, " atol=", atol);
}
bool close(float a, float b, double rtol, double atol) {
  if (a == b) return true;  // also equal infinities
  if (std::isnan(a) || std::isnan(b) || std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(double(a) - double(b)) <= atol + rtol * std::fabs(double(b));
}
}  // namespace

Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
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
                      po[o[2] + i * s[2]] = close(pa[o[0] + i * s[0]], pb[o[1] + i * s[1]], rtol, atol) ? 1.f : 0.f;
                  });
  return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol) {
  check_tolerances("allclose", rtol, atol);
  const Tensor c = isclose(a, b, rtol, atol);
  for (int64_t i = 0; i < c.numel(); ++i)
    if (c.data()[i] == 0.f) return false;
  return true;
}

Tensor vector_norm(const Tensor& x, double ord, const std::vector<int64_t>& dims, bool keepdim) {
  if (std::isnan(ord)) fail("norm", "ord must be a number, got NaN");
  if (dims.size() > 1) fail("norm", "a vector norm reduces one dim or all of them, got ", dims.size(), " dims");
  if (std::isfinite(ord) && ord != 0) return reduce_pnorm(x, ord, dims, keepdim);
  const Tensor a = unary(UnaryOp::Abs, x);
  auto reduce_by = [&](ReduceOp op, const Tensor& t) {
    return dims.empty() ? reduce_all(op, t) : reduce(op, t, dims[0], keepdim);
  };
  if (ord == 0) return reduce_by(ReduceOp::Sum, unary(UnaryOp::Sign, a));  // count of non-zeros
  if (a.numel() == 0) fail("norm", "the inf-norm of an empty tensor is undefined");
  return reduce_by(ord > 0 ? ReduceOp::Amax : ReduceOp::Amin, a);
}

}  // namespace tp
