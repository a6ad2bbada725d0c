// Symmetric quantization: fake quantization (quantize then dequantize, in float) for error studies,
// and a real int8 path (int8 storage, int32 accumulation) for speed.
// tp::kernels: raw row-major buffers, asserts only. tp::quant: Tensors, validated, throws tp::Error.
#pragma once
#include <cstdint>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp::kernels {

// The symmetric grid of `bits`: integers in [-qmax-1, qmax], qmax = 2^(bits-1) - 1.
inline int32_t quant_qmax(int bits) { return (int32_t(1) << (bits - 1)) - 1; }

// x is (rows,cols), scales is (rows) when per_row else (1): max|x| / qmax over the row or the tensor,
// computed in float as torch does. An all-zero row has scale 0.
void absmax_scales(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, float* scales);
// x is (rows,cols), y is (rows,cols): y = clamp(round_half_even(x / s), -qmax-1, qmax) * s with the scale
// s of the row (or tensor). Where s = 0 the row is all zeros and y is 0 (no 0/0).
void fake_quant_f32(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, float* y);
// ‖approx - exact‖_F / ‖exact‖_F over n values, in double. exact = 0 everywhere gives +inf (or 0 if
// approx is also 0).
double rel_error_f32(int64_t n, const float* approx, const float* exact);
// x is (rows,cols), q is (rows,cols) int8, scales as absmax_scales. bits <= 8.
void quantize_i8(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, int8_t* q,
                 float* scales);

// A is (m,k) int8, B is (n,k) int8 (both rows along k, the layout of a linear layer's x and W),
// C is (m,n) int32: C = A Bᵀ, exact (k * 128 * 128 < 2^31, so k <= 131071).
void matmul_i8_ref(int64_t m, int64_t n, int64_t k, const int8_t* A, const int8_t* B, int32_t* C);
// The same product: operands widened to int16 once, then wasm_i32x4_dot_i16x8 (8 products per
// instruction) on 4x2 register tiles, cache-blocked over B's rows.
void matmul_i8(int64_t m, int64_t n, int64_t k, const int8_t* A, const int8_t* B, int32_t* C);
// matmul_i8 with the dequantization fused in: out(i,j) = C(i,j) * sa[i or 0] * sb[j or 0], out (m,n) float.
void matmul_i8_dequant(int64_t m, int64_t n, int64_t k, const int8_t* A, const float* sa, bool a_per_row,
                       const int8_t* B, const float* sb, bool b_per_row, float* out);

}  // namespace tp::kernels

namespace tp::quant {

// An int8 tensor with its symmetric scale(s): value = q * scale (per tensor) or q * scale[row].
// Rows are the last dim; per_row scales have one entry per row (numel / shape.back()).
struct QTensor {
  Shape shape;
  std::vector<int8_t> q;
  std::vector<float> scale;
  bool per_row = false;
  int bits = 8;
  int64_t rows() const;
  int64_t cols() const;
  Tensor dequantize() const;
  Tensor scale_tensor() const;  // [rows] when per_row, else [1]
};

Tensor fake_quant(const Tensor& x, int bits = 8, bool per_row = false);
double rel_error(const Tensor& approx, const Tensor& exact);
QTensor quantize(const Tensor& x, int bits = 8, bool per_row = false);
// a is (m,k), b is (n,k), result (m,n) float: a Bᵀ as a linear layer computes it (x Wᵀ), accumulated
// exactly in int32 and scaled once. b must be per tensor or per row (per output channel): a per-row
// scale of a (k,n) operand would vary along the sum and could not be factored out.
Tensor matmul_int8(const QTensor& a, const QTensor& b);

}  // namespace tp::quant
