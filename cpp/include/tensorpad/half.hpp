// 16-bit floats as model files store them: bfloat16 (the top half of a float32) and IEEE binary16
// (float16). Scalar conversions, written for clarity: the oracle the SIMD widening is tested against.
#pragma once
#include <cstdint>
#include <cstring>

namespace tp {

// Which 16-bit format a uint16_t buffer holds.
enum class Half : uint8_t { BF16, F16 };

namespace half {

inline float bits_to_f32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint32_t f32_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// bfloat16 is a float32 with the low 16 bits of its mantissa dropped: widening is exact.
inline float bf16_to_f32(uint16_t h) { return bits_to_f32(uint32_t(h) << 16); }

// binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. Every value is exact in float32.
inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_to_f32(sign | 0x7f800000u | (mant << 13));  // inf, NaN (payload kept)
  if (exp != 0) return bits_to_f32(sign | ((exp + 112) << 23) | (mant << 13));
  // Zero or subnormal: mant * 2^-24, exact in float32.
  const float v = float(mant) * 0x1p-24f;
  return bits_to_f32(sign | f32_to_bits(v));
}

inline float to_f32(Half kind, uint16_t h) { return kind == Half::BF16 ? bf16_to_f32(h) : f16_to_f32(h); }

// Round to nearest, ties to even; NaN stays a (quiet) NaN with its sign.
inline uint16_t f32_to_bf16(float x) {
  const uint32_t u = f32_to_bits(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40u);
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

// Round to nearest, ties to even; beyond 65504 (after rounding) gives inf; NaN stays a quiet NaN.
inline uint16_t f32_to_f16(float x) {
  const uint32_t u = f32_to_bits(x), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return uint16_t(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
  if (a >= 0x477ff000u) return uint16_t(sign | 0x7c00u);  // rounds to 65520 or more: inf
  if (a < 0x38800000u) {
    // Below the smallest normal (2^-14): a multiple of 2^-24, rounded by the float addition itself.
    const float v = bits_to_f32(a) + 0.5f;  // 0.5 = 2^-1: one ulp of it is 2^-24
    return uint16_t(sign | (f32_to_bits(v) - 0x3f000000u));
  }
  const uint32_t rounded = a + 0xfffu + ((a >> 13) & 1u) - (uint32_t(127 - 15) << 23);
  return uint16_t(sign | (rounded >> 13));
}

}  // namespace half

namespace kernels {
// dst[0:count] = the float32 values of src[0:count]: the GEMM's packing conversion (WASM SIMD), for
// whole buffers. Bit-identical to half::to_f32 for all 65536 inputs (tested).
void widen_half(Half kind, const uint16_t* src, float* dst, int64_t count);
}  // namespace kernels

}  // namespace tp
