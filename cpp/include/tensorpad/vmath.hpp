// Vectorised math kernels over contiguous float rows: exp, and the row softmax built on it.
#pragma once
#include <cstdint>

namespace tp::kernels {

// exp_f32's constants (Cephes expf), shared with kernels that inline its steps (attention's softmax).
namespace expf_cephes {
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;  // ln2 split so n*kLn2Hi is exact
// Above kMaxArg (the float just above ln FLT_MAX) exp is +inf; below kMinArg (ln FLT_MIN) it is flushed
// to 0: the subnormal results torch gives there (< 1.2e-38) matter to no sum, and producing them would
// cost x86's slow subnormal path on every masked logit a softmax sees.
constexpr float kMaxArg = 88.72283935546875f, kMinArg = -87.3365f;
constexpr float kP0 = 1.9875691500e-4f, kP1 = 1.3981999507e-3f, kP2 = 8.3334519073e-3f, kP3 = 4.1665795894e-2f,
                kP4 = 1.6666665459e-1f, kP5 = 5.0000001201e-1f;
}  // namespace expf_cephes

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
