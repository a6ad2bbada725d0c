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

// The 8 values at p as floats: lo = p[0:4], hi = p[4:8].
inline void widen8(Half kind, const uint16_t* p, simd::f32x4& lo, simd::f32x4& hi) {
  widen_u16(wasm_v128_load(p), lo, hi);
  if (kind == Half::BF16) {
    lo = bf16_lanes_to_f32(lo);
    hi = bf16_lanes_to_f32(hi);
  } else {
    lo = f16_lanes_to_f32(lo);
    hi = f16_lanes_to_f32(hi);
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
