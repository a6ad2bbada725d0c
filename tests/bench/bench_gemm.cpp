// Benchmark-only WASM entry points (module tensorpad_bench, built under Emscripten only):
// the GEMM variants on heap buffers, and the WASM SIMD arithmetic peak built with the same flags.
// Addresses cross to JS as plain numbers (byte offsets into the module's memory).
#include <emscripten/bind.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tensorpad/gemm.hpp"
#include "tensorpad/quant.hpp"
#include "tensorpad/simd.hpp"

namespace {

using tp::kernels::detail::sgemm_variant;
using tp::kernels::detail::sgemm_variant_count;

// 64-byte aligned (aligned_alloc wants a size that is a multiple of the alignment).
uintptr_t alloc_floats(int count) {
  return reinterpret_cast<uintptr_t>(std::aligned_alloc(64, (size_t(count) * 4 + 127) / 64 * 64));
}
void free_floats(uintptr_t p) { std::free(reinterpret_cast<void*>(p)); }

std::string variant_name(int i) { return sgemm_variant(i).name; }

// C (m,n) = A @ B for reps repetitions; trans_a / trans_b read A / B as column-major storage.
// variant < 0 runs the public tp::kernels::sgemm, -2 the scalar reference.
void gemm(int variant, int m, int n, int k, uintptr_t a, uintptr_t b, uintptr_t c, bool trans_a,
          bool trans_b, int kc, int mc, int nc, int reps) {
  const auto* A = reinterpret_cast<const float*>(a);
  const auto* B = reinterpret_cast<const float*>(b);
  auto* C = reinterpret_cast<float*>(c);
  const int64_t rsa = trans_a ? 1 : k, csa = trans_a ? m : 1;
  const int64_t rsb = trans_b ? 1 : n, csb = trans_b ? k : 1;
  for (int r = 0; r < reps; ++r) {
    if (variant == -1)
      tp::kernels::sgemm(m, n, k, A, rsa, csa, B, rsb, csb, C, n, false);
    else if (variant == -2)
      tp::kernels::sgemm_ref(m, n, k, A, rsa, csa, B, rsb, csb, C, n, false);
    else
      sgemm_variant(variant).run(m, n, k, A, rsa, csa, B, rsb, csb, C, n, false, kc, mc, nc);
  }
}

// C (m,n) = A @ W^T with the weight W (n,k) stored as 16-bit floats (kind 0: bfloat16, 1: float16), as a
// linear layer reads it; reference true runs the scalar triple loop. Kind 2 is float16 passed as known
// finite (sgemm_half's b_finite, as Model::linear passes it for a weight f16_all_finite found so): the
// caller's promise, not checked here; a module before it runs kind 2 as plain float16.
void gemm_half(int kind, int m, int n, int k, uintptr_t a, uintptr_t w, uintptr_t c, bool reference, int reps) {
  const auto* A = reinterpret_cast<const float*>(a);
  const auto* W = reinterpret_cast<const uint16_t*>(w);
  auto* C = reinterpret_cast<float*>(c);
  const tp::Half h = kind == 0 ? tp::Half::BF16 : tp::Half::F16;
  const bool finite = kind == 2;
  for (int r = 0; r < reps; ++r) {
    if (reference)
      tp::kernels::sgemm_half_ref(m, n, k, A, k, 1, W, 1, k, h, C, n, false);
    else
      tp::kernels::sgemm_half(m, n, k, A, k, 1, W, 1, k, h, C, n, false, finite);
  }
}

// out (m,n) = dequantized (A int8 (m,k)) @ (B int8 (n,k))^T with per-row scales, as tp.quant.matmulInt8
// runs it (the linear-layer layout); scales are all 1 so out holds the int32 sums as floats.
void gemm_int8(int m, int n, int k, uintptr_t a, uintptr_t b, uintptr_t out, int reps) {
  const auto* A = reinterpret_cast<const int8_t*>(a);
  const auto* B = reinterpret_cast<const int8_t*>(b);
  static std::vector<float> ones;
  if (ones.size() < size_t(m > n ? m : n)) ones.assign(size_t(m > n ? m : n), 1.0f);
  for (int r = 0; r < reps; ++r)
    tp::kernels::matmul_i8_dequant(m, n, k, A, ones.data(), true, B, ones.data(), true, reinterpret_cast<float*>(out));
}

// Variant v's micro-kernel alone on cache-resident packed operands (SgemmVariant::kernel_alone):
// 2*mr*nr*kc*strips*reps flops.
float kernel_alone(int variant, int reps, int kc, int strips) {
  return sgemm_variant(variant).kernel_alone(reps, kc, strips);
}

// The arithmetic limit: 12 independent f32x4 chains of acc = acc*x + y (a multiply then an add,
// as GEMM does without FMA). 96 flops per iteration; the chains converge, so no denormals or infs.
float simd_peak(int iters, float x, float y) {
  using namespace tp::simd;
  const f32x4 vx = splat(x), vy = splat(y);
  f32x4 acc[12];
  for (int i = 0; i < 12; ++i) acc[i] = splat(float(i) * 0.01f);
  for (int it = 0; it < iters; ++it)
    for (int i = 0; i < 12; ++i) acc[i] = add(mul(acc[i], vx), vy);
  f32x4 s = acc[0];
  for (int i = 1; i < 12; ++i) s = add(s, acc[i]);
  return hsum(s);
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_bench) {
  emscripten::function("allocFloats", &alloc_floats);
  emscripten::function("freeFloats", &free_floats);
  emscripten::function("variantCount", &sgemm_variant_count);
  emscripten::function("variantName", &variant_name);
  emscripten::function("gemm", &gemm);
  emscripten::function("gemmHalf", &gemm_half);
  emscripten::function("gemmInt8", &gemm_int8);
  emscripten::function("kernelAlone", &kernel_alone);
  emscripten::function("variantTileSize", +[](int i) { return sgemm_variant(i).mr * sgemm_variant(i).nr; });
  emscripten::function("simdPeak", &simd_peak);
  emscripten::function("setThreads", +[](int threads) { tp::kernels::set_sgemm_threads(threads); });
  emscripten::function("threads", &tp::kernels::sgemm_threads);
  emscripten::function("hasPthreads", +[]() {
#if defined(__EMSCRIPTEN_PTHREADS__)
    return true;
#else
    return false;
#endif
  });
}
