// Row norms, activations and RoPE on raw row-major buffers.
#include <cmath>
#include <vector>

#include "tensorpad/nn.hpp"

namespace tp::kernels {

void layer_norm_f32(int64_t rows, int64_t d, const float* x, const float* weight, const float* bias,
                    float eps, float* y) {
  TP_ASSERT(d > 0);
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * d;
    float* yr = y + r * d;
    // Two passes in double: the mean first, so the variance is not a difference of large squares.
    double mean = 0;
    for (int64_t j = 0; j < d; ++j) mean += xr[j];
    mean /= double(d);
    double var = 0;
    for (int64_t j = 0; j < d; ++j) var += (xr[j] - mean) * (xr[j] - mean);
    var /= double(d);  // biased, as LayerNorm defines it
    const double inv = 1.0 / std::sqrt(var + double(eps));
    for (int64_t j = 0; j < d; ++j) {
      double v = (xr[j] - mean) * inv;
      if (weight) v *= weight[j];
      if (bias) v += bias[j];
      yr[j] = float(v);
    }
  }
}

void rms_norm_f32(int64_t rows, int64_t d, const float* x, const float* weight, float eps, float* y) {
  TP_ASSERT(d > 0);
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * d;
    float* yr = y + r * d;
    double ms = 0;
    for (int64_t j = 0; j < d; ++j) ms += double(xr[j]) * xr[j];
    ms /= double(d);
    // An all-zero row with eps = 0 gives 0 * inf = NaN, as torch's x * rsqrt(mean(x^2) + eps) does.
    const double inv = 1.0 / std::sqrt(ms + double(eps));
    for (int64_t j = 0; j < d; ++j) {
      double v = xr[j] * inv;
      if (weight) v *= weight[j];
      yr[j] = float(v);
    }
  }
}

void relu_f32(int64_t n, const float* x, float* y) {
  for (int64_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : (x[i] != x[i] ? x[i] : 0.0f);
}

void gelu_erf_f32(int64_t n, const float* x, float* y) {
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = float(0.5 * v * (1.0 + std::erf(v * 0.70710678118654752440)));
  }
}

void gelu_tanh_f32(int64_t n, const float* x, float* y) {
  const double k = std::sqrt(2.0 / 3.14159265358979323846);
  for (int64_t i = 0; i < n; ++i) {
    const double v = x[i];
    y[i] = float(0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v))));
  }
}

void silu_f32(int64_t n, const float* x, float* y) {
  // x / (1 + e^-x): for very negative x the exponential overflows to inf and the result is -0, as it should.
  for (int64_t i = 0; i < n; ++i) y[i] = float(double(x[i]) / (1.0 + std::exp(-double(x[i]))));
}

void rope_matrix_f32(double pos, int64_t dim, double theta, float* R) {
  TP_ASSERT(dim % 2 == 0);
  for (int64_t i = 0; i < dim * dim; ++i) R[i] = 0.0f;
  for (int64_t i = 0; i < dim / 2; ++i) {
    const double a = pos * std::pow(theta, -2.0 * double(i) / double(dim));
    const float c = float(std::cos(a)), s = float(std::sin(a));
    const int64_t r0 = 2 * i, r1 = 2 * i + 1;
    R[r0 * dim + r0] = c;
    R[r0 * dim + r1] = s;
    R[r1 * dim + r0] = -s;
    R[r1 * dim + r1] = c;
  }
}

void apply_rope_f32(int64_t rows, int64_t dim, const float* x, const double* pos, double theta, float* y) {
  TP_ASSERT(dim % 2 == 0);
  std::vector<double> freq(dim / 2);
  for (int64_t i = 0; i < dim / 2; ++i) freq[i] = std::pow(theta, -2.0 * double(i) / double(dim));
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * dim;
    float* yr = y + r * dim;
    for (int64_t i = 0; i < dim / 2; ++i) {
      const double a = pos[r] * freq[i];
      const float c = float(std::cos(a)), s = float(std::sin(a));
      const float x0 = xr[2 * i], x1 = xr[2 * i + 1];
      // The row vector (x0, x1) times the block [[c, s], [-s, c]].
      yr[2 * i] = x0 * c - x1 * s;
      yr[2 * i + 1] = x0 * s + x1 * c;
    }
  }
}

}  // namespace tp::kernels
