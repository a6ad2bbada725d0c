// Widening eight 16-bit floats (bfloat16 or float16) to two f32x4, for the GEMM's packing step and
// widen_half. WASM SIMD under -msimd128; otherwise the scalar conversions of half.hpp. Not a public header.
#pragma once
#include <cstdint>

#include "tensorpad/half.hpp"
#include "tensorpad/simd.hpp"

namespace tp::detail {

#if defined(__wasm_simd128__)

// Eight uint16 lanes, zero-extended to 32 bits, as two vectors (lanes 0-3 and 4-7).
inline void widen_u16(v128_t v, v128_t& lo, v128_t& hi) {
  lo = wasm_u32x4_extend_low_u16x8(v);
  hi = wasm_u32x4_extend_high_u16x8(v);
}

// Eight bfloat16 (the top halves of float32s) as floats: zeros interleaved below them, one shuffle per
// four values (x86 punpcklwd / punpckhwd) where zero-extending and shifting took two.
inline void bf16x8_to_f32(v128_t v, v128_t& lo, v128_t& hi) {
  const v128_t z = wasm_i32x4_const_splat(0);
  lo = wasm_i16x8_shuffle(z, v, 0, 8, 1, 9, 2, 10, 3, 11);
  hi = wasm_i16x8_shuffle(z, v, 4, 12, 5, 13, 6, 14, 7, 15);
}

// float16, by bit manipulation: the 15 bits below the sign, moved up 13, are a float32 whose exponent is
// short by 127 - 15 = 112; multiplying by 2^112 fixes the exponent and also turns float16 subnormals
// (float32 subnormals after the shift) into the right normal values, exactly. Inf and NaN (exponent 31)
// get the all-ones exponent, keeping their mantissa; then the sign goes back on.
inline v128_t f16_lanes_to_f32(v128_t u) {
  const v128_t em = wasm_v128_and(u, wasm_i32x4_const_splat(0x7fff));
  const v128_t sign = wasm_i32x4_shl(wasm_v128_xor(u, em), 16);  // u's bit 15 alone
  v128_t f = wasm_f32x4_mul(wasm_i32x4_shl(em, 13), wasm_f32x4_const_splat(0x1p112f));
  const v128_t special = wasm_i32x4_gt(em, wasm_i32x4_const_splat(0x7bff));
  f = wasm_v128_or(f, wasm_v128_and(special, wasm_i32x4_const_splat(0x7f800000)));
  return wasm_v128_or(f, sign);
}

// Eight float16, finite or not, as float32 times 2^-112: the 15 bits below the sign shifted up 13 (a float32
// whose exponent is short by 127 - 15 = 112), with the sign on top; exact for every finite value, float16
// subnormals becoming float32 subnormals. Working in the 16-bit lanes before widening, those bits split
// into a low half (v << 13: the sign shifts out) and a high half (v >> 3 arithmetic, masked to the sign at
// bit 15 and the 12 bits of em >> 3), interleaved. Inf and NaN come out as finite values: callers look
// for them (f16x8_special, or the running maximum in gemm.cpp's dot_half).
inline void f16x8_to_f32_scaled(v128_t v, v128_t& lo, v128_t& hi) {
  const v128_t low = wasm_i16x8_shl(v, 13);
  const v128_t high = wasm_v128_and(wasm_i16x8_shr(v, 3), wasm_i16x8_const_splat(int16_t(0x8fff)));
  lo = wasm_i16x8_shuffle(low, high, 0, 8, 1, 9, 2, 10, 3, 11);
  hi = wasm_i16x8_shuffle(low, high, 4, 12, 5, 13, 6, 14, 7, 15);
}

// Four of eight float16, the even lanes (0, 2, 4, 6; odd = false) or the odd ones, as float32 times 2^-112 in
// lanes 0-3: the bits of f16x8_to_f32_scaled for those four, with no shift and no interleave. i32x4.dot_i16x8_s
// (x86 pmaddwd: a multiplier, where shifts and shuffles compete for fewer ports) multiplies each lane pair by
// (2^13, 0) or (0, 2^13) and adds: the chosen weight as a signed integer times 2^13, that is its 15 bits below
// the sign at bits 13-27 and, for a negative weight, ones at bits 28-31 (-2^28 wraps to 0xf0000000); the mask
// keeps bit 31 and drops bits 28-30. Scalar reference: the float32 with bits (h & 0x8000) << 16 | (h & 0x7fff) << 13,
// which is half::to_f32(Half::F16, h) * 2^-112 for finite h. Inf and NaN come out finite: the caller looks for them.
inline v128_t f16x4_to_f32_scaled(v128_t v, bool odd) {
  const v128_t weight = odd ? wasm_i32x4_const_splat(0x2000 << 16) : wasm_i32x4_const_splat(0x2000);
  return wasm_v128_and(wasm_i32x4_dot_i16x8(v, weight), wasm_i32x4_const_splat(int32_t(0x8fffffff)));
}

// Eight float16 none of which is inf or NaN (the caller checks: f16x8_special): the same bits as
// f16_lanes_to_f32 in about half the instructions, f16x8_to_f32_scaled and one multiply by 2^112 that
// fixes the exponent, subnormals included (as in f16_lanes_to_f32; the sign rides through the multiply).
inline void f16x8_to_f32_finite(v128_t v, v128_t& lo, v128_t& hi) {
  const v128_t scale = wasm_f32x4_const_splat(0x1p112f);
  f16x8_to_f32_scaled(v, lo, hi);
  lo = wasm_f32x4_mul(lo, scale);
  hi = wasm_f32x4_mul(hi, scale);
}

// Whether any of eight float16 is inf or NaN: the 15 bits below its sign above the largest finite's.
inline bool f16x8_special(v128_t v) {
  const v128_t em = wasm_v128_and(v, wasm_i16x8_const_splat(0x7fff));
  return wasm_v128_any_true(wasm_i16x8_gt(em, wasm_i16x8_const_splat(0x7bff)));
}

// Eight float16 with an inf or NaN among them: rare, so out of line (one copy, not one per caller).
[[gnu::noinline]] inline void f16x8_to_f32_special(v128_t v, v128_t& lo, v128_t& hi) {
  widen_u16(v, lo, hi);
  lo = f16_lanes_to_f32(lo);
  hi = f16_lanes_to_f32(hi);
}

// Eight 16-bit floats held in a vector, as floats: lo = lanes 0-3, hi = lanes 4-7.
inline void widen8(Half kind, v128_t v, simd::f32x4& lo, simd::f32x4& hi) {
  if (kind == Half::BF16)
    bf16x8_to_f32(v, lo, hi);
  else if (f16x8_special(v))
    f16x8_to_f32_special(v, lo, hi);
  else
    f16x8_to_f32_finite(v, lo, hi);
}

// The 8 values at p as floats: lo = p[0:4], hi = p[4:8].
inline void widen8(Half kind, const uint16_t* p, simd::f32x4& lo, simd::f32x4& hi) {
  widen8(kind, wasm_v128_load(p), lo, hi);
}

#else

inline void widen8(Half kind, const uint16_t* p, simd::f32x4& lo, simd::f32x4& hi) {
  for (int i = 0; i < 4; ++i) {
    lo.v[i] = half::to_f32(kind, p[i]);
    hi.v[i] = half::to_f32(kind, p[4 + i]);
  }
}

#endif

}  // namespace tp::detail
