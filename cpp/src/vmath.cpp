// exp and row softmax: a WASM SIMD kernel and, beside it, the scalar reference of the same algorithm.
#include "tensorpad/vmath.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "exp_lanes.hpp"
#include "tensorpad/error.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tp::kernels {

namespace {
using namespace expf_cephes;

float exp_one(float x) {
  if (x != x) return x;
  if (x > kMaxArg) return std::numeric_limits<float>::infinity();
  if (x < kMinArg) return 0.f;
  const float n = std::nearbyint(x * kLog2e);
  const float r = (x - n * kLn2Hi) - n * kLn2Lo;
  float p = kP0;
  p = p * r + kP1;
  p = p * r + kP2;
  p = p * r + kP3;
  p = p * r + kP4;
  p = p * r + kP5;
  const float y = p * r * r + r + 1.f;
  // Scale by 2^n through the exponent bits, as 2^(n/2) 2^(n - n/2): n reaches 128 just below ln FLT_MAX,
  // where 2^n itself is not a float (its bits would read +inf).
  const int32_t n1 = int32_t(n) >> 1, n2 = int32_t(n) - n1;
  const int32_t bits1 = (n1 + 127) << 23, bits2 = (n2 + 127) << 23;
  float scale1, scale2;
  std::memcpy(&scale1, &bits1, 4);
  std::memcpy(&scale2, &bits2, 4);
  return y * scale1 * scale2;
}
}  // namespace

void exp_f32_ref(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = exp_one(x[i]);
}

#if defined(__wasm_simd128__)
void exp_f32(const float* x, float* y, int64_t n) {
  int64_t i = 0;
  const v128_t maxa = wasm_f32x4_splat(kMaxArg), mina = wasm_f32x4_splat(kMinArg);
  const v128_t inf = wasm_f32x4_splat(std::numeric_limits<float>::infinity());
  for (; i + 4 <= n; i += 4) {
    const v128_t v = wasm_v128_load(x + i);
    const v128_t c = wasm_f32x4_min(wasm_f32x4_max(v, mina), maxa);  // keep 2^n representable
    v128_t k;
    v128_t e = exp_reduced_lanes(c, k);
    const v128_t ki = wasm_i32x4_trunc_sat_f32x4(k), k1 = wasm_i32x4_shr(ki, 1), k2 = wasm_i32x4_sub(ki, k1);
    const v128_t bias = wasm_i32x4_splat(127);
    e = wasm_f32x4_mul(wasm_f32x4_mul(e, wasm_i32x4_shl(wasm_i32x4_add(k1, bias), 23)), wasm_i32x4_shl(wasm_i32x4_add(k2, bias), 23));
    // Out-of-range lanes: 0 below, +inf above, NaN stays NaN.
    e = wasm_v128_bitselect(wasm_f32x4_splat(0.f), e, wasm_f32x4_lt(v, mina));
    e = wasm_v128_bitselect(inf, e, wasm_f32x4_gt(v, maxa));
    e = wasm_v128_bitselect(v, e, wasm_f32x4_ne(v, v));
    wasm_v128_store(y + i, e);
  }
  for (; i < n; ++i) y[i] = exp_one(x[i]);
}
#else
void exp_f32(const float* x, float* y, int64_t n) { exp_f32_ref(x, y, n); }
#endif

namespace {
template <void (*Exp)(const float*, float*, int64_t)>
void softmax_rows_with(float* x, int64_t rows, int64_t n) {
  for (int64_t r = 0; r < rows; ++r) {
    float* row = x + r * n;
    // Subtract the row max only for numerical stability: exp never overflows, and -inf gives 0.
    float m = -std::numeric_limits<float>::infinity();
    bool nan = false;
    for (int64_t i = 0; i < n; ++i) {
      nan |= row[i] != row[i];
      m = row[i] > m ? row[i] : m;
    }
    if (nan || m == -std::numeric_limits<float>::infinity()) {
      for (int64_t i = 0; i < n; ++i) row[i] = std::numeric_limits<float>::quiet_NaN();
      continue;
    }
    for (int64_t i = 0; i < n; ++i) row[i] -= m;
    Exp(row, row, n);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i) sum += row[i];
    const float inv = float(1.0 / sum);
    for (int64_t i = 0; i < n; ++i) row[i] *= inv;
  }
}
}  // namespace

void softmax_rows(float* x, int64_t rows, int64_t n) { softmax_rows_with<exp_f32>(x, rows, n); }
void softmax_rows_ref(float* x, int64_t rows, int64_t n) { softmax_rows_with<exp_f32_ref>(x, rows, n); }

}  // namespace tp::kernels
