// The tensor operations of the core, with torch semantics. Every op validates its inputs and throws
// tp::Error("op: ...") naming the offending shapes or values; dims may be negative (from the end).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp {

// ---- creation ------------------------------------------------------------------------------------
Tensor eye(int64_t n, int64_t m = -1);                    // n x m identity (m = n by default)
// [start, end) by step, like torch; each value start + i*step in double, converted to dtype.
Tensor arange(double start, double end, double step, DType dtype = DType::Float32);

// ---- views and layout (no copy unless stated) ----------------------------------------------------
Tensor reshape(const Tensor& x, Shape shape);             // one -1 allowed; copies only if x is not contiguous
Tensor transpose(const Tensor& x, int64_t d0, int64_t d1);
Tensor permute(const Tensor& x, const Shape& dims);
Tensor select(const Tensor& x, int64_t dim, int64_t index);          // drops dim
Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length);
Tensor expand(const Tensor& x, const Shape& shape);       // broadcast view (stride 0 on new dims)
Tensor unsqueeze(const Tensor& x, int64_t dim);
Tensor stack(const std::vector<Tensor>& xs, int64_t dim);
Tensor cat(const std::vector<Tensor>& xs, int64_t dim);

// ---- elementwise ---------------------------------------------------------------------------------
enum class BinaryOp { Add, Sub, Mul, Div, Pow, Maximum, Minimum };
enum class UnaryOp {
  Neg, Abs, Sqrt, Exp, Log, Square, Round, Relu, Sign,
  // torch's other float functions (cpp/src/ops_unary.cpp)
  Sin, Cos, Tan, Tanh, Sigmoid, Erf, Expm1, Log1p, Rsqrt, Reciprocal, Floor, Ceil, Trunc
};

Shape broadcast_shapes(const char* op, const Shape& a, const Shape& b);  // numpy rules
// Every dtype, with torch's type promotion (result_type in elementwise_dtype.hpp): int32 + float32 is
// float32, integer div is float32 (true division), bool - bool an error. A scalar is a "weak" Python
// number: int32 + 2 stays int32, int32 + 2.5 is float32, float16 + 2.5 stays float16.
Tensor binary(BinaryOp op, const Tensor& a, const Tensor& b);           // with broadcasting
Tensor binary_scalar(BinaryOp op, const Tensor& a, double b);            // a op b
Tensor scalar_binary(BinaryOp op, double a, const Tensor& b);            // a op b
// Same dtype out, except the float functions (sqrt, exp, log, sin ... reciprocal) of integers and bools
// (float32) and bool squared (int64), as torch; floor/ceil/trunc keep integers and refuse bools.
Tensor unary(UnaryOp op, const Tensor& x);
// NaN bounds mean "no bound"; lo > hi sets every element to hi, as torch.clamp (NaN stays NaN).
Tensor clamp(const Tensor& x, float lo, float hi);
const char* binary_name(BinaryOp op);
const char* unary_name(UnaryOp op);
void unary_more_f32(UnaryOp op, float* p, int64_t n);   // in place, for the codes from Sin on
void unary_more_f64(UnaryOp op, double* p, int64_t n);  // the same in double (float64 tensors)

// ---- reductions ----------------------------------------------------------------------------------
// Median is the lower median (element (n-1)/2 in sorted order), as torch.median; NaN propagates.
enum class ReduceOp { Sum, Mean, Amax, Amin, Median };
Tensor reduce(ReduceOp op, const Tensor& x, int64_t dim, bool keepdim);  // one dim
Tensor reduce_all(ReduceOp op, const Tensor& x);                          // 0-d result
const char* reduce_name(ReduceOp op);                                     // "sum", ...
// Over a list of dims at once, as torch's sum(dim=[...]): dims empty means every dim; each is wrapped and
// may appear once. Each line is reduced in one pass (sums in double), not dim by dim. A median over
// several dims is the median of all their values (torch has none; the JS API refuses dim lists for it).
Tensor reduce_dims(ReduceOp op, const Tensor& x, const std::vector<int64_t>& dims, bool keepdim);
// (sum |x|^p)^(1/p) over one dim or, dims empty, all elements (0-d result); p finite and non-zero. Terms
// and sum in double, so no float overflow or underflow before the result's own. vector_norm is the API.
Tensor reduce_pnorm(const Tensor& x, double p, const std::vector<int64_t>& dims, bool keepdim);
Tensor cumsum(const Tensor& x, int64_t dim);
Tensor softmax(const Tensor& x, int64_t dim);                             // -inf entries get weight 0

// ---- products --------------------------------------------------------------------------------------
Tensor matmul(const Tensor& a, const Tensor& b);  // 1-D, 2-D and batched [..., m, k] @ [..., k, n]
Tensor outer(const Tensor& a, const Tensor& b);   // a is (m), b is (n), out is (m, n)
// torch.nn.functional.linear: x [..., in] float32 @ w [out, in]^T (+ bias [out], float32) -> [..., out].
// w may be float32, bfloat16 or float16: 16-bit weights stay as stored and are widened while the GEMM
// packs them, giving the bits of linear(x, w.to(float32)).
Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias = std::nullopt);

// ---- comparison and norms ----------------------------------------------------------------------------
// Bool: true where |a-b| <= atol + rtol*|b| (a and b broadcast, any dtypes, compared as doubles). Equal
// values (infinities too) are close; NaN is close to nothing, except to NaN when equal_nan (torch's).
Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan = false);
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan = false);
// torch's vector_norm: (sum |x|^ord)^(1/ord) over a list of dims (dims empty: every element, a matrix
// flattened), any ord but NaN; 0 counts non-zeros, inf/-inf take the largest/smallest |x|. Several dims
// are reduced as one line (their values together), keepdim keeps them as 1.
Tensor vector_norm(const Tensor& x, double ord, const std::vector<int64_t>& dims, bool keepdim);

}  // namespace tp
