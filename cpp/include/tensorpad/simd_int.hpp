// Integer SIMD for the int8 matmul: i16x8 inputs, i32x4 accumulators, the pairwise dot product
// (wasm_i32x4_dot_i16x8) and sign-extending widening of int8. WASM SIMD under -msimd128, a scalar
// struct otherwise, so the native build runs the same algorithm the browser runs.
#pragma once
#include <cstdint>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tp::simd {

#if defined(__wasm_simd128__)

using i16x8 = v128_t;
using i32x4 = v128_t;
inline i16x8 load_i16x8(const int16_t* p) { return wasm_v128_load(p); }
inline i32x4 zero_i32x4() { return wasm_i32x4_const_splat(0); }
inline i32x4 add_i32x4(i32x4 a, i32x4 b) { return wasm_i32x4_add(a, b); }
// acc + (a0 b0 + a1 b1, a2 b2 + a3 b3, a4 b4 + a5 b5, a6 b6 + a7 b7): one instruction, 8 products.
inline i32x4 dot_acc_i16x8(i32x4 acc, i16x8 a, i16x8 b) { return wasm_i32x4_add(acc, wasm_i32x4_dot_i16x8(a, b)); }
inline int32_t hsum_i32x4(i32x4 a) {
  return (wasm_i32x4_extract_lane(a, 0) + wasm_i32x4_extract_lane(a, 1)) +
         (wasm_i32x4_extract_lane(a, 2) + wasm_i32x4_extract_lane(a, 3));
}
// Sign-extends 16 int8 at p: the first 8 to lo[0..7], the last 8 to hi[0..7].
inline void widen_i8x16_split(const int8_t* p, int16_t* lo, int16_t* hi) {
  const v128_t v = wasm_v128_load(p);
  wasm_v128_store(lo, wasm_i16x8_extend_low_i8x16(v));
  wasm_v128_store(hi, wasm_i16x8_extend_high_i8x16(v));
}

#else

struct i16x8 {
  int16_t v[8];
};
struct i32x4 {
  int32_t v[4];
};
inline i16x8 load_i16x8(const int16_t* p) {
  i16x8 r;
  for (int i = 0; i < 8; ++i) r.v[i] = p[i];
  return r;
}
inline i32x4 zero_i32x4() { return {{0, 0, 0, 0}}; }
inline i32x4 add_i32x4(i32x4 a, i32x4 b) {
  for (int i = 0; i < 4; ++i) a.v[i] += b.v[i];
  return a;
}
inline i32x4 dot_acc_i16x8(i32x4 acc, i16x8 a, i16x8 b) {
  for (int i = 0; i < 4; ++i)
    acc.v[i] += int32_t(a.v[2 * i]) * b.v[2 * i] + int32_t(a.v[2 * i + 1]) * b.v[2 * i + 1];
  return acc;
}
inline int32_t hsum_i32x4(i32x4 a) { return (a.v[0] + a.v[1]) + (a.v[2] + a.v[3]); }
inline void widen_i8x16_split(const int8_t* p, int16_t* lo, int16_t* hi) {
  for (int i = 0; i < 8; ++i) {
    lo[i] = p[i];
    hi[i] = p[8 + i];
  }
}

#endif

}  // namespace tp::simd
