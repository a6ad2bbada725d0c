// The dtype-generic elementwise machinery: torch's result type for two operands (JS numbers as weak
// scalars) and one broadcasting loop over any dtypes that computes in blocks of a compute type. Ops other
// than arithmetic (comparisons, where, logical ops) supply their own block kernels.
#pragma once
#include "tensorpad/ops.hpp"

namespace tp {

// The type an op computes in for a result or promoted input dtype: float64 -> double, other floats ->
// float (torch's opmath for float16/bfloat16), integers and bool -> int64.
DType compute_dtype(DType d);

// torch.result_type(a, b): dimensioned tensors outrank 0-d tensors unless a 0-d one is of a higher
// category (float > integer > bool), as torch (float32 [n] + float64 0-d is float32; int32 [n] + float64
// 0-d is float64).
DType result_type(const Tensor& a, const Tensor& b);
// torch.result_type(a, scalar) with the scalar a Python number: an integer-valued JS number counts as a
// Python int (int32 + 2 -> int32, bool + 2 -> int64), any other as a Python float (int32 + 2.5 ->
// float32, float16 + 2.5 -> float16). JS cannot tell 2.0 from 2: both are ints here.
DType result_type(const Tensor& a, double scalar);
// A 0-d tensor holding a JS number exactly: int64 when integer-valued, else float64.
Tensor scalar_tensor(double value);

// Block kernels, one per compute type: o[i] = f(a[i], b[i]) for i < n; ctx is passed through.
struct BlockKernels {
  void (*f32)(const void* ctx, const float* a, const float* b, float* o, int64_t n);
  void (*f64)(const void* ctx, const double* a, const double* b, double* o, int64_t n);
  void (*i64)(const void* ctx, const int64_t* a, const int64_t* b, int64_t* o, int64_t n);
  const void* ctx;
};
// a and b broadcast (op names the shapes' error), converted block by block to compute_dtype(compute),
// combined by the kernel, and stored as out_dtype (a bool result: the kernel writes 0/1).
Tensor elementwise2(const char* op, const Tensor& a, const Tensor& b, DType compute, DType out_dtype,
                    const BlockKernels& k);

// The paths of ops.hpp's entry points for tensors other than float32 (they dispatch here).
Tensor binary_typed(BinaryOp op, const Tensor& a, const Tensor& b, DType result);
// torch refuses an integer tensor to a negative integer scalar power ("pow: integers to negative ...").
void check_int_pow(BinaryOp op, DType base, double exponent);
Tensor unary_typed(UnaryOp op, const Tensor& x);
Tensor clamp_typed(const Tensor& x, double lo, double hi);
// Along dim, or over every element when all (0-d result); sum of integers/bools is int64, mean of them an error.
Tensor reduce_typed(ReduceOp op, const Tensor& x, int64_t dim, bool all, bool keepdim);
Tensor cumsum_typed(const Tensor& x, int64_t dim);
Tensor softmax_f64(const Tensor& x, int64_t dim);  // float64 softmax in double  // integers and bools accumulate in int64
Tensor matmul_typed(const Tensor& a, const Tensor& b);  // float64 in double; float16/bfloat16 via float32
// Throws "op: expected a floating tensor, got int32 of shape [2]" unless x is float32/64, float16 or bfloat16.
void check_floating(const char* op, const Tensor& x);
// A float32-only kernel f on a floating x of any precision: float32 as is; float64, float16 and bfloat16
// computed in float32 and converted back (so float64 keeps only float32's precision here).
template <class F>
Tensor via_float32(const char* op, const Tensor& x, F&& f) {
  if (x.dtype() == DType::Float32) return f(x);
  check_floating(op, x);
  return f(x.to(DType::Float32)).to(x.dtype());
}

}  // namespace tp
