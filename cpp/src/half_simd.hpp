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

// bfloat16: the value is the top half of a float32.
inline v128_t bf16_lanes_to_f32(v128_t u) { return wasm_i32x4_shl(u, 16); }

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

// Eight float16 at once, when none is inf or NaN (a weight matrix's every block): the same bits as
// f16_lanes_to_f32 in about half the instructions (the GEMM's m = 1 path is bound by this conversion).
// Working in the 16-bit lanes before widening, the 15 bits below the sign shifted up 13 split into a low
// half (em << 13) and a high half (em >> 3, with the sign put back at its bit 15); interleaved, they are
// the float32 whose exponent is short by 112, and one multiply by 2^112 fixes it, subnormals included
// (as above; the sign rides through the multiply). Returns false, writing nothing, when a lane is inf or
// NaN: the caller widens those eight the general way.
inline bool f16x8_to_f32_finite(v128_t v, v128_t& lo, v128_t& hi) {
  const v128_t em = wasm_v128_and(v, wasm_i16x8_const_splat(0x7fff));
  if (wasm_v128_any_true(wasm_i16x8_gt(em, wasm_i16x8_const_splat(0x7bff)))) return false;
  const v128_t low = wasm_i16x8_shl(em, 13);
  const v128_t high = wasm_v128_or(wasm_u16x8_shr(em, 3), wasm_v128_xor(v, em));
  const v128_t scale = wasm_f32x4_const_splat(0x1p112f);
  lo = wasm_f32x4_mul(wasm_i16x8_shuffle(low, high, 0, 8, 1, 9, 2, 10, 3, 11), scale);
  hi = wasm_f32x4_mul(wasm_i16x8_shuffle(low, high, 4, 12, 5, 13, 6, 14, 7, 15), scale);
  return true;
}

// Eight float16 with an inf or NaN among them: rare, so out of line (one copy, not one per caller).
[[gnu::noinline]] inline void f16x8_to_f32_special(v128_t v, v128_t& lo, v128_t& hi) {
  widen_u16(v, lo, hi);
  lo = f16_lanes_to_f32(lo);
  hi = f16_lanes_to_f32(hi);
}

// The 8 values at p as floats: lo = p[0:4], hi = p[4:8].
inline void widen8(Half kind, const uint16_t* p, simd::f32x4& lo, simd::f32x4& hi) {
  const v128_t v = wasm_v128_load(p);
  if (kind == Half::BF16) {
    widen_u16(v, lo, hi);
    lo = bf16_lanes_to_f32(lo);
    hi = bf16_lanes_to_f32(hi);
  } else if (!f16x8_to_f32_finite(v, lo, hi)) {
    f16x8_to_f32_special(v, lo, hi);
  }
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
