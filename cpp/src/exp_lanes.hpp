// exp's range reduction and polynomial on 4 lanes (Cephes expf), shared by exp_f32 and the kernels that
// inline its steps (attention's softmax), so both give the same bits.
#pragma once
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>

#include "tensorpad/vmath.hpp"

namespace tp::kernels {

// Sets k = nearest(c·log2 e) and returns e^r for r = c − k·ln2 (in [-ln2/2, ln2/2]): exp(c) = e^r · 2^k, the
// scaling by 2^k left to the caller. Meaningful for c in [kMinArg, kMaxArg]: exp_f32 clamps x first;
// attention's exp_nonpositive passes x <= 0 as it is and clears the lanes below kMinArg afterwards.
inline v128_t exp_reduced_lanes(v128_t c, v128_t& k) {
  using namespace expf_cephes;
  k = wasm_f32x4_nearest(wasm_f32x4_mul(c, wasm_f32x4_splat(kLog2e)));
  const v128_t r = wasm_f32x4_sub(wasm_f32x4_sub(c, wasm_f32x4_mul(k, wasm_f32x4_splat(kLn2Hi))),
                                  wasm_f32x4_mul(k, wasm_f32x4_splat(kLn2Lo)));
  v128_t p = wasm_f32x4_splat(kP0);
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP1));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP2));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP3));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP4));
  p = wasm_f32x4_add(wasm_f32x4_mul(p, r), wasm_f32x4_splat(kP5));
  return wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_mul(wasm_f32x4_mul(p, r), r), r), wasm_f32x4_splat(1.0f));
}

}  // namespace tp::kernels
#endif
