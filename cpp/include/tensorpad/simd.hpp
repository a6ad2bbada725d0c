// A thin f32x4 layer: WASM SIMD (wasm_simd128.h) when compiled with -msimd128, a plain scalar struct
// otherwise, so the native build runs and tests exactly the algorithm the browser runs.
// Loads and stores are unaligned; there is no FMA (WASM SIMD has none), so madd rounds twice everywhere.
#pragma once

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#else
#include <cmath>
#endif

namespace tp::simd {

#if defined(__wasm_simd128__)

inline constexpr bool is_wasm_simd = true;
using f32x4 = v128_t;

inline f32x4 load(const float* p) { return wasm_v128_load(p); }
inline void store(float* p, f32x4 v) { wasm_v128_store(p, v); }
inline f32x4 splat(float x) { return wasm_f32x4_splat(x); }
// Broadcasts *p to the four lanes straight from memory (one load, no shuffle on x86).
inline f32x4 load_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline f32x4 zero() { return wasm_f32x4_const_splat(0.0f); }
inline f32x4 add(f32x4 a, f32x4 b) { return wasm_f32x4_add(a, b); }
inline f32x4 sub(f32x4 a, f32x4 b) { return wasm_f32x4_sub(a, b); }
inline f32x4 mul(f32x4 a, f32x4 b) { return wasm_f32x4_mul(a, b); }
inline f32x4 div(f32x4 a, f32x4 b) { return wasm_f32x4_div(a, b); }
// IEEE-style min/max: NaN in either operand propagates (like numpy.minimum/maximum).
inline f32x4 min(f32x4 a, f32x4 b) { return wasm_f32x4_min(a, b); }
inline f32x4 max(f32x4 a, f32x4 b) { return wasm_f32x4_max(a, b); }
inline f32x4 neg(f32x4 a) { return wasm_f32x4_neg(a); }
inline f32x4 abs(f32x4 a) { return wasm_f32x4_abs(a); }
inline f32x4 sqrt(f32x4 a) { return wasm_f32x4_sqrt(a); }
template <int L>
inline float lane(f32x4 a) { return wasm_f32x4_extract_lane(a, L); }
// Lanes I0..I3 of the eight lanes (a0..a3, b0..b3); with a == b and a rotation, one pshufd on x86.
template <int I0, int I1, int I2, int I3>
inline f32x4 shuffle(f32x4 a, f32x4 b) { return wasm_i32x4_shuffle(a, b, I0, I1, I2, I3); }
// Transposes the 4x4 matrix whose rows are r0..r3, in place.
inline void transpose4(f32x4& r0, f32x4& r1, f32x4& r2, f32x4& r3) {
  const f32x4 t0 = wasm_i32x4_shuffle(r0, r1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(r0, r1, 2, 6, 3, 7);
  const f32x4 t2 = wasm_i32x4_shuffle(r2, r3, 0, 4, 1, 5), t3 = wasm_i32x4_shuffle(r2, r3, 2, 6, 3, 7);
  r0 = wasm_i64x2_shuffle(t0, t2, 0, 2);
  r1 = wasm_i64x2_shuffle(t0, t2, 1, 3);
  r2 = wasm_i64x2_shuffle(t1, t3, 0, 2);
  r3 = wasm_i64x2_shuffle(t1, t3, 1, 3);
}

#else

inline constexpr bool is_wasm_simd = false;
struct f32x4 {
  float v[4];
};

inline f32x4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline void store(float* p, f32x4 a) {
  for (int i = 0; i < 4; ++i) p[i] = a.v[i];
}
inline f32x4 splat(float x) { return {{x, x, x, x}}; }
inline f32x4 load_splat(const float* p) { return splat(*p); }
inline f32x4 zero() { return splat(0.0f); }
#define TP_SIMD_LANEWISE(name, expr)                 \
  inline f32x4 name(f32x4 a, f32x4 b) {              \
    f32x4 r;                                         \
    for (int i = 0; i < 4; ++i) {                    \
      const float x = a.v[i], y = b.v[i];            \
      r.v[i] = (expr);                               \
    }                                                \
    return r;                                        \
  }
TP_SIMD_LANEWISE(add, x + y)
TP_SIMD_LANEWISE(sub, x - y)
TP_SIMD_LANEWISE(mul, x * y)
TP_SIMD_LANEWISE(div, x / y)
TP_SIMD_LANEWISE(min, (x != x || y != y) ? x + y : (x < y ? x : y))
TP_SIMD_LANEWISE(max, (x != x || y != y) ? x + y : (x > y ? x : y))
#undef TP_SIMD_LANEWISE
inline f32x4 neg(f32x4 a) {
  for (float& x : a.v) x = -x;
  return a;
}
inline f32x4 abs(f32x4 a) {
  for (float& x : a.v) x = std::fabs(x);
  return a;
}
inline f32x4 sqrt(f32x4 a) {
  for (float& x : a.v) x = std::sqrt(x);
  return a;
}
template <int L>
inline float lane(f32x4 a) { return a.v[L]; }
template <int I0, int I1, int I2, int I3>
inline f32x4 shuffle(f32x4 a, f32x4 b) {
  const float ab[8] = {a.v[0], a.v[1], a.v[2], a.v[3], b.v[0], b.v[1], b.v[2], b.v[3]};
  return {{ab[I0], ab[I1], ab[I2], ab[I3]}};
}
inline void transpose4(f32x4& r0, f32x4& r1, f32x4& r2, f32x4& r3) {
  f32x4* r[4] = {&r0, &r1, &r2, &r3};
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) {
      const float t = r[i]->v[j];
      r[i]->v[j] = r[j]->v[i];
      r[j]->v[i] = t;
    }
}

#endif

// a*b + c, as a multiply then an add (two roundings) on every target.
inline f32x4 madd(f32x4 a, f32x4 b, f32x4 c) { return add(mul(a, b), c); }
// Sum of the four lanes, in the fixed order (l0 + l1) + (l2 + l3).
inline float hsum(f32x4 a) { return (lane<0>(a) + lane<1>(a)) + (lane<2>(a) + lane<3>(a)); }

}  // namespace tp::simd
