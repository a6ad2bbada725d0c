// Comparisons, selection and logic with torch's semantics: eq..ge, where, masked_fill, logical_and/or/not,
// any/all. Every result but where's and masked_fill's is bool. Operands broadcast (numpy rules) and are
// compared in torch's promoted dtype (result_type below), so int32 16777217 == float32 16777216.
#pragma once
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp {

// One operand of a mixed op: a tensor, or a JS number (a "weak" scalar: an integral value counts as an
// int, any other as a float; it never widens a tensor of its own category).
struct Operand {
  const Tensor* tensor = nullptr;
  double number = 0;
  static Operand of(const Tensor& t) { return {&t, 0}; }
  static Operand of(double v) { return {nullptr, v}; }
};

// torch.result_type over tensors and numbers: dimensioned tensors decide, then 0-d tensors and numbers
// only when of a higher category (bool < integer < float); a float number gives float32 (torch's default).
DType result_type(const std::vector<Operand>& operands);

enum class CompareOp { Eq, Ne, Lt, Le, Gt, Ge };
const char* compare_name(CompareOp op);  // "eq", ...
// a op b elementwise -> bool (NaN compares unequal to everything, as IEEE and torch).
Tensor compare(CompareOp op, const Operand& a, const Operand& b);

// cond (bool) ? a : b, broadcast over all three, in result_type(a, b).
Tensor where(const Tensor& cond, const Operand& a, const Operand& b);
// x with value where mask (bool, broadcast to x's shape) is true; x's dtype (value converted as .to does).
Tensor masked_fill(const Tensor& x, const Tensor& mask, double value);

enum class LogicOp { And, Or, Xor };
// Non-zero is true (NaN too), any dtypes -> bool.
Tensor logical(LogicOp op, const Tensor& a, const Tensor& b);
Tensor logical_not(const Tensor& x);
// Whether any / all elements are non-zero, over dims (empty: all of them) -> bool. any of nothing is
// false, all of nothing is true.
Tensor any(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim);
Tensor all(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim);

}  // namespace tp
