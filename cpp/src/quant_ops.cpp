// Tensor-level quantization: validation, then the kernels of quant_kernel.cpp.
#include <cmath>

#include "tensorpad/quant.hpp"

namespace tp::quant {

namespace {

void check_bits(const char* op, int bits, int max_bits) {
  if (bits < 2 || bits > max_bits) fail(op, "bits must be in [2, ", max_bits, "], got ", bits);
}

// (rows, cols) of x read as rows along the last dim; a 0-d tensor is one row of one value.
void row_shape(const Shape& shape, int64_t* rows, int64_t* cols) {
  *cols = shape.empty() ? 1 : shape.back();
  *rows = 1;
  for (size_t d = 0; d + 1 < shape.size(); ++d) *rows *= shape[d];
}

// The absmax scale needs finite input: a NaN would be skipped by the max, and an Inf would make every
// level NaN (0 * inf).
void check_finite_values(const char* op, const Tensor& xc) {
  for (int64_t i = 0; i < xc.numel(); ++i)
    if (!std::isfinite(xc.data()[i])) fail(op, "x has a non-finite value (", xc.data()[i], ") at flat index ", i);
}

}  // namespace

int64_t QTensor::cols() const { return shape.empty() ? 1 : shape.back(); }
int64_t QTensor::rows() const {
  int64_t r, c;
  row_shape(shape, &r, &c);
  return r;
}

Tensor QTensor::dequantize() const {
  Tensor y = Tensor::empty(shape);
  const int64_t r = rows(), c = cols();
  for (int64_t i = 0; i < r; ++i) {
    const float s = scale[per_row ? i : 0];
    for (int64_t j = 0; j < c; ++j) y.data()[i * c + j] = float(q[i * c + j]) * s;
  }
  return y;
}

Tensor QTensor::scale_tensor() const { return Tensor::from({int64_t(scale.size())}, scale.data()); }

Tensor fake_quant(const Tensor& x, int bits, bool per_row) {
  check_bits("quant.fakeQuant", bits, 16);
  int64_t rows, cols;
  row_shape(x.shape(), &rows, &cols);
  const Tensor xc = x.contiguous();
  check_finite_values("quant.fakeQuant", xc);
  Tensor y = Tensor::empty(x.shape());
  if (x.numel() > 0) kernels::fake_quant_f32(rows, cols, xc.data(), bits, per_row, y.data());
  return y;
}

double rel_error(const Tensor& approx, const Tensor& exact) {
  if (approx.shape() != exact.shape())
    fail("quant.relError", "approx ", approx.shape(), " and exact ", exact.shape(),
         " must have the same shape");
  const Tensor a = approx.contiguous(), e = exact.contiguous();
  return kernels::rel_error_f32(a.numel(), a.data(), e.data());
}

QTensor quantize(const Tensor& x, int bits, bool per_row) {
  check_bits("quant.quantize", bits, 8);
  QTensor out;
  out.shape = x.shape();
  out.per_row = per_row;
  out.bits = bits;
  int64_t rows, cols;
  row_shape(x.shape(), &rows, &cols);
  out.q.resize(size_t(x.numel()));
  out.scale.clear();  // then zeros (clear + resize: no vector<float>::assign(n, v) instance)
  out.scale.resize(per_row ? size_t(rows) : 1);
  const Tensor xc = x.contiguous();
  check_finite_values("quant.quantize", xc);
  if (x.numel() > 0) kernels::quantize_i8(rows, cols, xc.data(), bits, per_row, out.q.data(), out.scale.data());
  return out;
}

Tensor matmul_int8(const QTensor& a, const QTensor& b) {
  const char* op = "quant.matmulInt8";
  if (a.shape.size() != 2 || b.shape.size() != 2)
    fail(op, "expects 2-d operands a (m,k) and b (n,k), got ", a.shape, " and ", b.shape);
  const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[0];
  if (b.shape[1] != k)
    fail(op, "a ", a.shape, " and b ", b.shape,
         " must share the last dim (the product is a bᵀ, like x Wᵀ): ", k, " != ", b.shape[1]);
  if (k >= (int64_t(1) << 31) / (128 * 128))
    fail(op, "k = ", k, " could overflow the int32 accumulator (max 131071)");
  Tensor out = Tensor::empty({m, n});
  kernels::matmul_i8_dequant(m, n, k, a.q.data(), a.scale.data(), a.per_row, b.q.data(), b.scale.data(),
                             b.per_row, out.data());
  return out;
}

}  // namespace tp::quant
