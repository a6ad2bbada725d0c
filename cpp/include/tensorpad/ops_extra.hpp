// The rest of torch's everyday tensor ops (issue 22), with torch semantics: ranges, layout copies
// (flip, roll, repeat, tile, tril/triu), views (split, chunk, flatten, unflatten, squeeze), reductions
// (var/std, prod, cumprod, logsumexp, log_softmax), einsum and three linalg quantities. Every op validates
// at its entry and throws tp::Error("op: ...") naming the shapes or values; dims may be negative.
// The new elementwise functions (sin ... trunc) are UnaryOp codes in ops.hpp.
#pragma once
#include <string>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp {

// ---- ranges ----------------------------------------------------------------------------------------
// steps values from start to end inclusive, evenly spaced (torch's symmetric formula: the first half
// counts up from start, the second down from end, so both ends are exact). Values are computed in double
// and converted to dtype.
Tensor linspace(double start, double end, int64_t steps, DType dtype = DType::Float32);
// base ^ linspace(start, end)
Tensor logspace(double start, double end, int64_t steps, double base, DType dtype = DType::Float32);

// ---- views (no copy; every dtype) ------------------------------------------------------------------
// x (..., n at dim, ...) -> pieces of `size` along dim (the last may be shorter); torch.split(int).
std::vector<Tensor> split(const Tensor& x, int64_t size, int64_t dim);
// pieces of the given sizes, which must add up to n; torch.split(list).
std::vector<Tensor> split_sizes(const Tensor& x, const std::vector<int64_t>& sizes, int64_t dim);
// ceil(n / chunks) per piece, so possibly fewer than `chunks` pieces, as torch.chunk.
std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim);
// dims start..end merged into one (a 0-d x becomes 1-d); torch.flatten.
Tensor flatten(const Tensor& x, int64_t start, int64_t end);
// dim split into `sizes` (one -1 allowed) whose product is its size; torch.unflatten.
Tensor unflatten(const Tensor& x, int64_t dim, const Shape& sizes);
// size-1 dims removed: all of them (dims empty) or those listed; a listed dim of size > 1 stays.
Tensor squeeze(const Tensor& x, const std::vector<int64_t>& dims, bool all);

// ---- layout copies (every dtype: elements move as bytes) -----------------------------------------------
Tensor flip(const Tensor& x, const std::vector<int64_t>& dims);  // reversed along each dim listed
// Elements shifted by shifts[i] along dims[i], wrapping around; dims empty: x flattened, rolled, reshaped.
Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims);
// x tiled reps[i] times along dim i; len(reps) >= x.dim() (torch.Tensor.repeat).
Tensor repeat(const Tensor& x, const std::vector<int64_t>& reps);
Tensor tile(const Tensor& x, std::vector<int64_t> reps);  // reps padded with leading 1s (torch.tile)
// x (*, m, n): elements above (tril) or below (triu) the diagonal-th diagonal set to 0.
Tensor tril(const Tensor& x, int64_t diagonal);
Tensor triu(const Tensor& x, int64_t diagonal);

// ---- reductions --------------------------------------------------------------------------------------
// Over a list of dims (empty: all) in double: sum (x - mean)^2 / max(0, N - correction); std its sqrt.
Tensor var(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim);
Tensor std_dev(const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim);
// log(sum(exp(x))) over a list of dims (empty: all), stable: the line max is subtracted first.
Tensor logsumexp(const Tensor& x, const std::vector<int64_t>& dims, bool keepdim);
Tensor prod(const Tensor& x, int64_t dim, bool keepdim);   // product along dim, in double
Tensor prod_all(const Tensor& x);                          // 0-d product of every element
Tensor cumprod(const Tensor& x, int64_t dim);              // running product along dim, in double
Tensor log_softmax(const Tensor& x, int64_t dim);          // x - logsumexp(x, dim, keepdim)

// ---- indices (int64), any dtype -------------------------------------------------------------------------
// Values are compared as doubles (exact but for int64 beyond 2^53); NaN counts as the largest value, so
// argmax/max and a descending sort put it first, argmin/min pick it too (it propagates), as torch.
struct ValuesIndices {
  Tensor values, indices;  // indices int64
};
// x (..., n, ...) -> (..., ...) or (..., 1, ...): the first position of the largest / smallest value.
Tensor argmax(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmin(const Tensor& x, int64_t dim, bool keepdim);
Tensor argmax_all(const Tensor& x);  // 0-d index into x flattened
Tensor argmin_all(const Tensor& x);
ValuesIndices max_dim(const Tensor& x, int64_t dim, bool keepdim);
ValuesIndices min_dim(const Tensor& x, int64_t dim, bool keepdim);
Tensor max_all(const Tensor& x);  // 0-d, x's dtype; an empty x is an error
Tensor min_all(const Tensor& x);
// Stable: equal values keep their order (ascending: NaN last; descending: NaN first).
ValuesIndices sort(const Tensor& x, int64_t dim, bool descending);
// x (..., n, ...) -> (..., k, ...): the k largest (or smallest) in order, ties by position; always sorted.
ValuesIndices topk(const Tensor& x, int64_t k, int64_t dim, bool largest, bool sorted);
// out[p] = x[p with coordinate dim replaced by index[p]]; index int64 (or int32), x's dims, out index's shape.
Tensor gather(const Tensor& x, int64_t dim, const Tensor& index);
// x (a..., n, b...), index (m) integers in [0, n) -> (a..., m, b...).
Tensor index_select(const Tensor& x, int64_t dim, const Tensor& index);
// ids (...) integers, weight (num, d) -> (..., d): rows of weight (torch.nn.functional.embedding).
Tensor embedding(const Tensor& ids, const Tensor& weight);

// ---- einsum ------------------------------------------------------------------------------------------------
// torch.einsum: labels a-z A-Z, "..." for broadcast dims, "->" optional (implicit output: "..." then
// the labels used once, alphabetically). Operands are contracted left to right, each pair as one
// batched GEMM (batch labels, kept labels of each side, contracted labels); a label repeated within an
// operand takes its diagonal; size-1 dims broadcast.
Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands);

}  // namespace tp

namespace tp::linalg {
// A (*, n, n): A^k by repeated squaring; k = 0 gives I, k < 0 inverts A first (an error if singular).
Tensor matrix_power(const Tensor& A, int64_t k);
// A (*, m, n) -> (*, n, m): V diag(1/s) U^T over the singular values s > max(atol, rtol * s_max);
// rtol < 0 means torch's default max(m, n) * eps(float32) (when atol is 0 too).
Tensor pinv(const Tensor& A, double atol, double rtol);
// A (*, m, n) -> (*): s_max / s_min for ord "" (the 2-norm, any shape); other ords (square A only)
// norm(A, ord) * norm(inv(A), ord), ord one of matrix_norm's; inf for a singular A.
Tensor cond(const Tensor& A, const std::string& ord);
}  // namespace tp::linalg
