// Vectorised math kernels over contiguous float rows: exp, and the row softmax built on it.
#pragma once
#include <cstdint>

namespace tp::kernels {

// y[i] = exp(x[i]) by range reduction to [-ln2/2, ln2/2] and a degree-6 polynomial (Cephes expf):
// relative error below 3e-7 for normal results; -inf and anything below -87.3 give 0, NaN stays NaN,
// anything above 88.7 gives +inf. In place (y == x) is allowed.
void exp_f32(const float* x, float* y, int64_t n);
void exp_f32_ref(const float* x, float* y, int64_t n);  // the same algorithm, one lane at a time

// Each of `rows` contiguous rows of length n becomes exp(x - max) / sum, in place.
// A row that is all -inf becomes NaN, as in torch.
void softmax_rows(float* x, int64_t rows, int64_t n);
void softmax_rows_ref(float* x, int64_t rows, int64_t n);

}  // namespace tp::kernels
