// Packed, cache-blocked f32 GEMM (the BLIS loop nest) with register-blocked f32x4 micro-kernels.
// A is (m,k), B is (k,n), C is (m,n).
//
//   for pc over k by KC:
//     for ig over m by MG:          A group  mg x kc  (up to 4 MB; all of m when m*kc*4 <= 4 MB), packed
//                                   once per (pc, ig) in mc-blocks and reused by every column panel
//       for jc over n by NC:        B panel  kc x nc  packed once per (pc, ig, jc), <= 384 KB to stay in L2
//         for ic over mg by MC:     A block  mc x kc  of the packed group
//           for ir over mc by MR:   A micro-panel MR x kc stays in L1 across the jr loop
//             for jr over nc by NR: micro-kernel: MR x NR accumulators in registers, k-loop of kc
//
// The jr loop is innermost so consecutive micro-kernels walk C along its rows (sequential, prefetched)
// and stream B micro-panels from L2; measured on WASM/x86-64 this beats the classic ir-innermost order
// by 3-8% once C no longer fits in L2 (on AMD EPYC Zen 3, issue 24, the two orders measured alike; again
// for the broadcast and the rotating 4x8 at 1024^3, B strip in L1 and A block from L2: speed relative to
// sgemm in the same round, medians of 16 rounds, 0.94-1.04, at load 20 on 2 cores: no winner).
// pc is outermost so A is packed once, not once per column panel (6 times at n = 3072, nc = 512: 3.3% of
// the time of 512x1024x3072 under V8 --cpu-prof, now 0.5%); every element of C still sums its k blocks
// in pc order, so the bits are those of any other loop order.
// Packing reads any strides (so transposes cost nothing extra) and zero-pads the last strip of A
// and of B up to MR / NR: edge tiles run the same micro-kernel and only their store is partial.
// B may also be 16-bit floats (bfloat16 / float16, a model's weights as stored): packing converts them,
// so the micro-kernels, the blocking and therefore every bit of C are those of sgemm on the widened B.
#include "tensorpad/gemm.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "for_size.hpp"
#include "gemm_packed.hpp"
#include "half_simd.hpp"
#include "out_of_line.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/half.hpp"
#include "tensorpad/simd.hpp"
#include "work_pool.hpp"

namespace tp::kernels {

void sgemm_ref(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
               const float* B, int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int64_t p = 0; p < k; ++p) s += A[i * rsa + p * csa] * B[p * rsb + j * csb];
      C[i * rsc + j] = accumulate ? C[i * rsc + j] + s : s;
    }
  }
}

namespace {

using simd::f32x4;

// A 64-byte aligned scratch buffer that only grows; one per thread so calls never allocate
// once warmed up.
class Scratch {
 public:
  float* get(size_t count) {
    if (count > cap_) {
      cap_ = count;
      raw_.reset(new float[count + 16]);
      const auto addr = reinterpret_cast<uintptr_t>(raw_.get());
      ptr_ = reinterpret_cast<float*>((addr + 63) & ~uintptr_t(63));
    }
    return ptr_;
  }

 private:
  std::unique_ptr<float[]> raw_;
  float* ptr_ = nullptr;
  size_t cap_ = 0;
};

thread_local Scratch scratch_a, scratch_b, scratch_h;

// Packs the mc x kc block of A into strips of MR rows: strip s holds A(s*MR + r, p) at [p*MR + r],
// rows past mc are zero.
template <int MR>
void pack_a(int64_t mc, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* out) {
  for (int64_t i0 = 0; i0 < mc; i0 += MR, out += MR * kc) {
    const int rows = int(std::min<int64_t>(MR, mc - i0));
    const float* a = A + i0 * rsa;
    if (rows == MR && rsa == 1) {
      // Transposed A: each p is MR contiguous floats.
      for (int64_t p = 0; p < kc; ++p) {
        if constexpr (MR % 4 == 0) {
          for (int r = 0; r < MR; r += 4) simd::store(out + p * MR + r, simd::load(a + p * csa + r));
        } else {
          for (int r = 0; r < MR; ++r) out[p * MR + r] = a[p * csa + r];
        }
      }
      continue;
    }
    int64_t p0 = 0;
    if constexpr (MR % 4 == 0) {
      if (rows == MR && csa == 1) {
        // Row-major A: 4 rows x 4 steps of p at a time, transposed in registers.
        for (; p0 + 4 <= kc; p0 += 4) {
          for (int r = 0; r < MR; r += 4) {
            const float* ar = a + r * rsa + p0;
            simd::f32x4 v0 = simd::load(ar), v1 = simd::load(ar + rsa), v2 = simd::load(ar + 2 * rsa),
                        v3 = simd::load(ar + 3 * rsa);
            simd::transpose4(v0, v1, v2, v3);
            float* o = out + p0 * MR + r;
            simd::store(o, v0);
            simd::store(o + MR, v1);
            simd::store(o + 2 * MR, v2);
            simd::store(o + 3 * MR, v3);
          }
        }
      }
    }
    // Row by row, reading along p (contiguous when A is row-major); rows past mc are zero. Scalar, as
    // pack_b_f32's strided loops.
    for (int r = 0; r < MR; ++r) {
      const float* ar = a + r * rsa;
TP_SCALAR_LOOP
      for (int64_t p = p0; p < kc; ++p) out[p * MR + r] = r < rows ? ar[p * csa] : 0.0f;
    }
  }
}

// Rewrites a block packed by pack_a<4> (groups of 4 floats, one per step of p of a strip) in place so that
// each group a = (a0, a1, a2, a3) is followed by its half rotation (a2, a3, a0, a1): 8 floats per step, for
// the rotating micro-kernel. Walks from the last group down: group g moves from [4g, 4g+4) to [8g, 8g+8),
// which never overwrites a group not yet read.
void pack_a_add_half_rotation(int64_t groups, float* packed) {
  for (int64_t g = groups - 1; g >= 0; --g) {
    const f32x4 a = simd::load(packed + 4 * g);
    simd::store(packed + 8 * g, a);
    simd::store(packed + 8 * g + 4, simd::shuffle<2, 3, 0, 1>(a, a));
  }
}

// Packs the kc x nc panel of B into strips of NR columns: strip s holds B(p, s*NR + c) at [p*NR + c],
// columns past nc are zero.
template <int NR>
void pack_b_f32(int64_t kc, int64_t nc, const float* B, int64_t rsb, int64_t csb, float* out) {
  const int64_t full = nc / NR;  // strips without padding
  int64_t s0 = 0;
  if (csb == 1) {
    // Row-major B: PB rows of the panel at a time, front to back, each strip getting PB x NR floats
    // (whole cache lines) per visit. Scattering one row's NR-float pieces to all strips wrote half lines
    // kc*NR*4 bytes apart, all in one L1 set when kc*NR is a multiple of 1024 (kc = 384): at 512x1024x3072
    // packing B took 3.4-4.0% of the time under V8 --cpu-prof, now 2.1-2.2%.
    constexpr int64_t PB = 8;
    for (int64_t p0 = 0; p0 < kc; p0 += PB) {
      const int64_t pn = std::min(PB, kc - p0);
      for (int64_t s = 0; s < full; ++s) {
        const float* b = B + p0 * rsb + s * NR;
        float* o = out + s * NR * kc + p0 * NR;
        for (int64_t p = 0; p < pn; ++p, b += rsb, o += NR)
          for (int v = 0; v < NR; v += 4) simd::store(o + v, simd::load(b + v));
      }
    }
    s0 = full;
  } else if (rsb == 1) {
    // Column-major B (a transposed operand, e.g. K in Q K^T): 4 columns x 4 steps of p at a time,
    // transposed in registers.
    static_assert(NR % 4 == 0, "NR is a multiple of the vector width");
    for (int64_t s = 0; s < full; ++s) {
      const float* b = B + s * NR * csb;
      float* o = out + s * NR * kc;
      int64_t p = 0;
      for (; p + 4 <= kc; p += 4) {
        for (int c = 0; c < NR; c += 4) {
          const float* bc = b + c * csb + p;
          simd::f32x4 v0 = simd::load(bc), v1 = simd::load(bc + csb), v2 = simd::load(bc + 2 * csb),
                      v3 = simd::load(bc + 3 * csb);
          simd::transpose4(v0, v1, v2, v3);
          simd::store(o + p * NR + c, v0);
          simd::store(o + (p + 1) * NR + c, v1);
          simd::store(o + (p + 2) * NR + c, v2);
          simd::store(o + (p + 3) * NR + c, v3);
        }
      }
      // The strided loops here and below stay scalar: vectorized, their lanes' loads and stores went one
      // extract_lane at a time (no faster), and they were most of the function's 9.5 KB.
TP_SCALAR_LOOP
      for (; p < kc; ++p)
        for (int c = 0; c < NR; ++c) o[p * NR + c] = b[c * csb + p];
    }
    s0 = full;
  }
  for (int64_t s = s0; s * NR < nc; ++s) {
    const int cols = int(std::min<int64_t>(NR, nc - s * NR));
    const float* b = B + s * NR * csb;
    float* o = out + s * NR * kc;
    if (csb == 1 || rsb > csb) {
TP_SCALAR_LOOP
      for (int64_t p = 0; p < kc; ++p)
        for (int c = 0; c < NR; ++c) o[p * NR + c] = c < cols ? b[p * rsb + c * csb] : 0.0f;
    } else {
      // Column-major B (e.g. a transposed weight): read each column along p.
      for (int c = 0; c < NR; ++c) {
        const float* bc = b + c * csb;
TP_SCALAR_LOOP
        for (int64_t p = 0; p < kc; ++p) o[p * NR + c] = c < cols ? bc[p * rsb] : 0.0f;
      }
    }
  }
}

struct HalfOps;

// The B operand as packing reads it: B(p, j) = data[p*rs + j*cs], float32, or 16-bit floats when half
// is set (the 16-bit code is reached only through it, so a module without sgemm_half links none of it).
struct BOperand {
  const void* data;
  int64_t rs, cs;
  const HalfOps* half = nullptr;
  Half kind = Half::BF16;

  // The same operand seen from element (p, j).
  BOperand at(int64_t p, int64_t j) const {
    const int64_t off = p * rs + j * cs;
    BOperand r = *this;
    r.data = half ? static_cast<const void*>(static_cast<const uint16_t*>(data) + off)
                  : static_cast<const void*>(static_cast<const float*>(data) + off);
    return r;
  }
  const float* f32() const { return static_cast<const float*>(data); }
  const uint16_t* u16() const { return static_cast<const uint16_t*>(data); }
};

// What sgemm_half does differently from sgemm: pack B (for sgemm's tile), stream rows of B, dot a column.
struct HalfOps {
  void (*pack)(int64_t kc, int64_t nc, const uint16_t* B, int64_t rsb, int64_t csb, Half kind, float* out);
  void (*rows)(int64_t n, int64_t k, const float* x, int64_t incx, const uint16_t* B, int64_t ldb, Half kind,
               float* y);
  float (*dot)(int64_t k, const uint16_t* u, Half kind, const float* v, const float* vs, bool finite);
  const float* (*scaled)(int64_t k, const float* x);
  // A float16 B known to hold no inf or NaN (sgemm_half's b_finite): dot_half skips its check. In this table,
  // not in BOperand: a field there grew each tile's packed path (+95 bytes per tile in gemm.cpp's object; the
  // web cores -23 and -3 bytes gzipped with it here).
  bool finite;
};

// pack_b_f32 for 16-bit B, widening on the way: the same layout, the same values as pack_b_f32 would
// write for the widened B. Converting here costs one pass over each B panel, which every row block of A
// then reuses.
template <int NR>
void pack_b_half(int64_t kc, int64_t nc, const uint16_t* B, int64_t rsb, int64_t csb, Half kind, float* out) {
  static_assert(NR % 4 == 0, "NR is a multiple of the vector width");
  const int64_t full = nc / NR;
  int64_t s0 = 0;
  if (csb == 1) {
    // Row-major B: each row of the panel once, 8 values per load.
    for (int64_t p = 0; p < kc; ++p) {
      const uint16_t* b = B + p * rsb;
      float* o = out + p * NR;
      for (int64_t s = 0; s < full; ++s, b += NR, o += NR * kc) {
        int v = 0;
        for (; v + 8 <= NR; v += 8) {
          simd::f32x4 lo, hi;
          tp::detail::widen8(kind, b + v, lo, hi);
          simd::store(o + v, lo);
          simd::store(o + v + 4, hi);
        }
        for (; v < NR; ++v) o[v] = half::to_f32(kind, b[v]);
      }
    }
    s0 = full;
  } else if (rsb == 1) {
    // Column-major B (a linear layer's weight W (n,k) read as W^T): 4 columns x 8 steps of p at a
    // time, transposed in registers while still 16-bit (two rounds of interleaves: 8 shuffles), so that
    // each vector holds two steps of the 4 columns, then widened (bfloat16: 1 shuffle per 4 values). Widening
    // each column first and transposing two 4x4 blocks of floats took 16 shuffles to transpose; bfloat16
    // packing 24 shuffles per 32 values, now 16. sgemm_half (3072x1024)^T bf16 from 16 such weights (96 MB),
    // CPU A/B of 9 alternated rounds: m = 16 1.10, m = 64 1.05, m = 512 1.00 (float16 1.00). The packing is
    // 1.4-3% of a 512- or 1024-token forward: there within noise (model-ab.mjs CPU A/B 1.004 at 512 tokens,
    // 1.009 at 1024). Web cores +29 / +24 bytes gzipped.
    // Tried, not kept (Zen 5, 2026-12-03): (1) packing 3 k blocks of B in one call, each column read 1026 deep
    // instead of 342 (macro_kernel reading block pc's rows): the forward unchanged (model-ab.mjs CPU A/B 1.003
    // at 512 tokens, 1.007 at 1024) and float32 B 1.07-1.15x slower (the group's A left L2). (2) One load per
    // 64-byte line of the panel's columns before converting (a native experiment on 96 MB of weights halved
    // the packing time): WASM bfloat16 m = 16 1.05, float16 0.95-0.99, +181 bytes gzipped. (3) The loop below kept
    // rolled (one widen8): -18 bytes gzipped, float16 at m = 16 0.93-0.96.
    for (int64_t s = 0; s < full; ++s) {
      const uint16_t* b = B + s * NR * csb;
      float* o = out + s * NR * kc;
      int64_t p = 0;
      for (; p + 8 <= kc; p += 8) {
        for (int c = 0; c < NR; c += 4) {
          const uint16_t* bc = b + c * csb + p;
          float* oc = o + p * NR + c;
#if defined(__wasm_simd128__)
          // r_c = column c's 8 steps; t01 = r0, r1 interleaved (steps 0-3, then 4-7), t23 likewise; q[i] =
          // steps 2i and 2i + 1 of the four columns.
          const v128_t r0 = wasm_v128_load(bc), r1 = wasm_v128_load(bc + csb);
          const v128_t r2 = wasm_v128_load(bc + 2 * csb), r3 = wasm_v128_load(bc + 3 * csb);
          const v128_t t01l = wasm_i16x8_shuffle(r0, r1, 0, 8, 1, 9, 2, 10, 3, 11);
          const v128_t t01h = wasm_i16x8_shuffle(r0, r1, 4, 12, 5, 13, 6, 14, 7, 15);
          const v128_t t23l = wasm_i16x8_shuffle(r2, r3, 0, 8, 1, 9, 2, 10, 3, 11);
          const v128_t t23h = wasm_i16x8_shuffle(r2, r3, 4, 12, 5, 13, 6, 14, 7, 15);
          const v128_t q[4] = {wasm_i32x4_shuffle(t01l, t23l, 0, 4, 1, 5), wasm_i32x4_shuffle(t01l, t23l, 2, 6, 3, 7),
                               wasm_i32x4_shuffle(t01h, t23h, 0, 4, 1, 5), wasm_i32x4_shuffle(t01h, t23h, 2, 6, 3, 7)};
          for (int i = 0; i < 4; ++i) {
            simd::f32x4 lo, hi;
            tp::detail::widen8(kind, q[i], lo, hi);
            simd::store(oc + 2 * i * NR, lo);
            simd::store(oc + (2 * i + 1) * NR, hi);
          }
#else
          simd::f32x4 l0, l1, l2, l3, h0, h1, h2, h3;
          tp::detail::widen8(kind, bc, l0, h0);
          tp::detail::widen8(kind, bc + csb, l1, h1);
          tp::detail::widen8(kind, bc + 2 * csb, l2, h2);
          tp::detail::widen8(kind, bc + 3 * csb, l3, h3);
          simd::transpose4(l0, l1, l2, l3);
          simd::transpose4(h0, h1, h2, h3);
          simd::store(oc, l0);
          simd::store(oc + NR, l1);
          simd::store(oc + 2 * NR, l2);
          simd::store(oc + 3 * NR, l3);
          simd::store(oc + 4 * NR, h0);
          simd::store(oc + 5 * NR, h1);
          simd::store(oc + 6 * NR, h2);
          simd::store(oc + 7 * NR, h3);
#endif
        }
      }
      // Scalar, as pack_b_f32's strided loops.
TP_SCALAR_LOOP
      for (; p < kc; ++p)
        for (int c = 0; c < NR; ++c) o[p * NR + c] = half::to_f32(kind, b[c * csb + p]);
    }
    s0 = full;
  }
  // Any other strides, and the last (zero-padded) strip.
  for (int64_t s = s0; s * NR < nc; ++s) {
    const int cols = int(std::min<int64_t>(NR, nc - s * NR));
    const uint16_t* b = B + s * NR * csb;
    float* o = out + s * NR * kc;
TP_SCALAR_LOOP
    for (int64_t p = 0; p < kc; ++p)
      for (int c = 0; c < NR; ++c) o[p * NR + c] = c < cols ? half::to_f32(kind, b[p * rsb + c * csb]) : 0.0f;
  }
}

template <int NR>
void pack_b(int64_t kc, int64_t nc, const BOperand& B, float* out) {
  if (B.half)
    B.half->pack(kc, nc, B.u16(), B.rs, B.cs, B.kind, out);
  else
    pack_b_f32<NR>(kc, nc, B.f32(), B.rs, B.cs, out);
}

// C[0:mr, 0:nr] (+)= a @ b for one packed MR-strip of A and NR-strip of B, all kc steps, broadcasting each
// value of A: sgemm's tile (4x8) and the table's broadcast tiles.
// Why 4x8: V8 (TurboFan) hoists all the loads of an iteration to its top and keeps xmm15 as scratch,
// so MR*NR/4 accumulators + NR/4 B vectors + MR broadcasts + 1 product must fit in 15 registers.
// 4x8 (8 + 2 + 4 + 1) and 2x16 are the largest tiles that do not spill; 6x8, 5x8, 4x12 and 3x16 spill
// and measured 5-15% slower. Without FMA every tile is bound by 2 FP ops per 8 flops on x86's FP ports,
// the same bound as the 12-chain peak benchmark.
// On AMD EPYC (Zen 3; issue 24) sgemm runs at 0.69-0.73 of that peak (best CPU-time trials, load 15-20) and no
// other tile of the table, nor 4x8 with two steps of p per trip, measured better. 93% of its time is in this
// kernel (V8 --cpu-prof); the kernel alone on cached operands (gemm.mjs "kernel alone") reaches 0.76-0.82. FP
// latency is not the limit: 8 independent chains of one 3-cycle add per step are more than the 2 add ports need.
// V8 emits a step as 2 vmovdqu + 4 vbroadcastss + 8 vmulps + 8 vaddps plus loop counter, pointer bumps and stack
// check (~29 instructions), and vbroadcastss appears to take an FP pipe on Zen 3 (as the experiment below
// suggests): 20 FP-pipe operations per step for 16 multiplies and adds, a ceiling of 0.80. Packing A pre-
// broadcast (4 copies of each element, loaded with v128.load) lifted the kernel alone to 0.86-0.94, but in the
// whole GEMM its 4x larger A strips (22 KB at kc = 342, evicted by the streaming B strips) lost 2-20% at every
// blocking tried (kc 128-384, nc 128-1024, jr- or ir-innermost), so it is not kept; micro_kernel_rot (in the
// table, raced by gemm.mjs) takes the middle road: 2 copies of A, 2 shuffles per step.
// Every tile and unrolling sums each element of C over p in the same order within the same KC blocks, so
// they all give the same bits (tested): a tile could be chosen per machine without changing a result.
template <int MR, int NR, int KU>
void micro_kernel(int64_t kc, const float* __restrict a, const float* __restrict b, float* C,
                  int64_t rsc, bool add, int mr, int nr) {
  constexpr int NV = NR / 4;
  f32x4 acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = simd::zero();
  // One step of p: acc += a[0:MR] (outer) b[0:NR].
  auto step = [&](const float* ap, const float* bp) {
    f32x4 bv[NV];
    for (int v = 0; v < NV; ++v) bv[v] = simd::load(bp + 4 * v);
    for (int r = 0; r < MR; ++r) {
      const f32x4 ar = simd::load_splat(ap + r);
      for (int v = 0; v < NV; ++v) acc[r][v] = simd::add(acc[r][v], simd::mul(ar, bv[v]));
    }
  };
  // KU steps per trip of the loop: fewer loop overheads (V8 adds a stack check to every trip), the same
  // additions in the same order, so every KU gives the same bits.
  int64_t p = 0;
  for (; p + KU <= kc; p += KU, a += KU * MR, b += KU * NR)
    for (int u = 0; u < KU; ++u) step(a + u * MR, b + u * NR);
  for (; p < kc; ++p, a += MR, b += NR) step(a, b);
  if (mr == MR && nr == NR) {
    for (int r = 0; r < MR; ++r) {
      float* c = C + r * rsc;
      for (int v = 0; v < NV; ++v)
        simd::store(c + 4 * v, add ? simd::add(simd::load(c + 4 * v), acc[r][v]) : acc[r][v]);
    }
  } else {
    // Edge tile: rows and columns past mr x nr were computed from the zero padding; store only the
    // mr x nr corner.
    alignas(16) float tile[MR * NR];
    for (int r = 0; r < MR; ++r)
      for (int v = 0; v < NV; ++v) simd::store(tile + r * NR + 4 * v, acc[r][v]);
    for (int r = 0; r < mr; ++r) {
      float* c = C + r * rsc;
      const float* t = tile + r * NR;
      for (int j = 0; j < nr; ++j) c[j] = add ? c[j] + t[j] : t[j];
    }
  }
}

// The same product as micro_kernel<4, NR, KU>, without broadcasts: C[0:mr, 0:nr] (+)= a @ b for one A strip
// packed by pack_a_add_half_rotation (per step: a = A(0:4, p) and its half rotation a2 = A((2,3,0,1), p))
// and one NR-strip of B.
// Why: on AMD Zen 3 each v128.load32_splat (vbroadcastss) of micro_kernel takes an FP pipe besides the 8
// multiplies and 8 adds of a step: 20 FP-pipe operations for 16, a ceiling of 0.80 of the peak. Here each
// 4x4 block of C is held in 4 "diagonal" accumulators: lane l of d0..d3 sums C(l, l), C(l+2, l), C(l, l+1)
// and C(l+2, l+1) (indices mod 4), from a x b, a2 x b, a x rot1(b) and a2 x rot1(b): the four products cover
// the 16 (row, column) pairs. A step is then 2 A loads, NR/4 B loads, NR/4 rotations (pshufd) and the
// 2*NR/4*4 multiplies and adds: 18 FP-pipe operations for 16 at NR = 8 (ceiling 0.89), with the A strip twice
// pack_a's size (pre-broadcast A, 4x, lost in the whole GEMM: see micro_kernel). Registers at NR = 8: 8
// accumulators + a, a2, 2 b, 2 rot1(b) + 1 product = 15, V8's budget.
// Every lane sums its element of C over p in order from zero, exactly as micro_kernel does: the same bits.
// Measured (AMD EPYC x2, Node 20, load 11-17, best of 21-25 CPU-time trials against the peak's best): alone
// 0.85-0.91 of the peak against 0.73-0.81 for the broadcast 4x8, so the FP-pipe count was the kernel's limit;
// in the whole product (1024^3, 512x1024x3072) both 0.69-0.73, medians within noise, at every blocking tried
// (kc 256-1024, mc 64-128, nc 256-512): there the kernel slows as the streamed B panel grows (alone with 16 B
// strips 0.90, 64 strips 0.85, 128 strips 0.82) on a machine whose caches other processes share. It is not
// sgemm's tile until a run on an idle machine shows the product gaining: it would add ~200 bytes gzipped to
// the core (the diagonal-to-row shuffles), more than the core-size ceiling leaves. gemm.mjs races it.
// On AMD family 0x1A (Zen 5; measured 2026-12-02) it loses: the whole product at 1024^3 0.89 [0.86-0.94]
// of the broadcast 4x8's speed (CPU time, fine-grained interleave, load 18), which there runs at 0.87-0.91 of
// the peak: vbroadcastss from memory seems to cost no FP pipe on that core, so the rotations only add work.
template <int NR, int KU>
void micro_kernel_rot(int64_t kc, const float* __restrict a, const float* __restrict b, float* C, int64_t rsc,
                      bool add, int mr, int nr) {
  constexpr int NV = NR / 4;
  f32x4 d[NV][4];
  for (int v = 0; v < NV; ++v)
    for (int s = 0; s < 4; ++s) d[v][s] = simd::zero();
  auto step = [&](const float* ap, const float* bp) {
    const f32x4 a0 = simd::load(ap), a2 = simd::load(ap + 4);
    for (int v = 0; v < NV; ++v) {
      const f32x4 b0 = simd::load(bp + 4 * v), b1 = simd::shuffle<1, 2, 3, 0>(b0, b0);
      d[v][0] = simd::add(d[v][0], simd::mul(a0, b0));
      d[v][1] = simd::add(d[v][1], simd::mul(a2, b0));
      d[v][2] = simd::add(d[v][2], simd::mul(a0, b1));
      d[v][3] = simd::add(d[v][3], simd::mul(a2, b1));
    }
  };
  int64_t p = 0;
  for (; p + KU <= kc; p += KU, a += KU * 8, b += KU * NR)
    for (int u = 0; u < KU; ++u) step(a + u * 8, b + u * NR);
  for (; p < kc; ++p, a += 8, b += NR) step(a, b);
  // Back from diagonals to rows, per 4x4 block: d0 = (C00 C11 C22 C33), d1 = (C20 C31 C02 C13),
  // d2 = (C01 C12 C23 C30), d3 = (C21 C32 C03 C10).
  f32x4 row[4][NV];
  for (int v = 0; v < NV; ++v) {
    const f32x4 u = simd::shuffle<0, 4, 2, 6>(d[v][0], d[v][2]);  // C00 C01 C22 C23
    const f32x4 w = simd::shuffle<2, 6, 0, 4>(d[v][1], d[v][3]);  // C02 C03 C20 C21
    const f32x4 x = simd::shuffle<1, 5, 3, 7>(d[v][0], d[v][2]);  // C11 C12 C33 C30
    const f32x4 y = simd::shuffle<7, 3, 5, 1>(d[v][1], d[v][3]);  // C10 C13 C32 C31
    row[0][v] = simd::shuffle<0, 1, 4, 5>(u, w);
    row[1][v] = simd::shuffle<4, 0, 1, 5>(x, y);
    row[2][v] = simd::shuffle<6, 7, 2, 3>(u, w);
    row[3][v] = simd::shuffle<3, 7, 6, 2>(x, y);
  }
  if (mr == 4 && nr == NR) {
    for (int r = 0; r < 4; ++r) {
      float* c = C + r * rsc;
      for (int v = 0; v < NV; ++v)
        simd::store(c + 4 * v, add ? simd::add(simd::load(c + 4 * v), row[r][v]) : row[r][v]);
    }
  } else {
    alignas(16) float tile[4 * NR];
    for (int r = 0; r < 4; ++r)
      for (int v = 0; v < NV; ++v) simd::store(tile + r * NR + 4 * v, row[r][v]);
    for (int r = 0; r < mr; ++r) {
      float* c = C + r * rsc;
      const float* t = tile + r * NR;
      for (int j = 0; j < nr; ++j) c[j] = add ? c[j] + t[j] : t[j];
    }
  }
}

// A register tile: its shape, how A is packed for it, its micro-kernel.
template <int MR_, int NR_, int KU>
struct BroadcastTile {
  static constexpr int MR = MR_, NR = NR_;
  static constexpr int kACopies = 1;  // packed A holds mc x kc floats
  static void pack(int64_t mc, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* out) {
    pack_a<MR>(mc, kc, A, rsa, csa, out);
  }
  static void kernel(int64_t kc, const float* a, const float* b, float* C, int64_t rsc, bool add, int mr, int nr) {
    micro_kernel<MR, NR, KU>(kc, a, b, C, rsc, add, mr, nr);
  }
};

template <int NR_, int KU>
struct RotatingTile {
  static constexpr int MR = 4, NR = NR_;
  static constexpr int kACopies = 2;  // each step's 4 values of A and their half rotation
  static void pack(int64_t mc, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* out) {
    pack_a<4>(mc, kc, A, rsa, csa, out);
    pack_a_add_half_rotation((mc + 3) / 4 * kc, out);
  }
  static void kernel(int64_t kc, const float* a, const float* b, float* C, int64_t rsc, bool add, int mr, int nr) {
    micro_kernel_rot<NR, KU>(kc, a, b, C, rsc, add, mr, nr);
  }
};

// Splits `total` into the fewest blocks of at most `block`, of near-equal size rounded up to `align`,
// so an 800-deep k is three blocks of 267, 267 and 266 rather than 384, 384 and 32.
int64_t balanced_block(int64_t total, int64_t block, int64_t align) {
  const int64_t blocks = (total + block - 1) / block;
  const int64_t size = (total + blocks - 1) / blocks;
  return (size + align - 1) / align * align;
}

// One packed block: C[0:mc, 0:nc] (+)= (packed A, mc x kc) @ (packed B, kc x nc), tile by tile. B's strips
// lie kb x NR floats apart (kb >= kc): a B packed deeper than this product, read for its first kc steps.
template <class Tile>
void macro_kernel(int64_t mc, int64_t nc, int64_t kc, const float* ap, const float* bp, int64_t kb, float* C,
                  int64_t rsc, bool add) {
  constexpr int MR = Tile::MR, NR = Tile::NR;
  for (int64_t ir = 0; ir < mc; ir += MR) {
    const int mr = int(std::min<int64_t>(MR, mc - ir));
    for (int64_t jr = 0; jr < nc; jr += NR) {
      const int nr = int(std::min<int64_t>(NR, nc - jr));
      Tile::kernel(kc, ap + ir * kc * Tile::kACopies, bp + jr * kb, C + ir * rsc + jr, rsc, add, mr, nr);
    }
  }
}

template <class Tile, int KC, int MC, int NC>
void sgemm_packed(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
                  const BOperand& B, float* C, int64_t rsc, bool accumulate,
                  int64_t kc_max, int64_t mc_max, int64_t nc_max) {
  constexpr int MR = Tile::MR, NR = Tile::NR;
  static_assert(NR % 4 == 0 && MC % MR == 0 && NC % NR == 0, "blocking must tile the register tile");
  TP_ASSERT(m >= 0 && n >= 0 && k >= 0);
  if (m == 0 || n == 0) return;
  if (k == 0) {
    // An empty sum: C = 0, or C unchanged when accumulating.
    if (!accumulate)
      for (int64_t i = 0; i < m; ++i) std::fill(C + i * rsc, C + i * rsc + n, 0.0f);
    return;
  }
  kc_max = kc_max > 0 ? kc_max : KC;
  mc_max = mc_max > 0 ? (mc_max + MR - 1) / MR * MR : MC;
  nc_max = nc_max > 0 ? (nc_max + NR - 1) / NR * NR : NC;
  const int64_t kc_blk = balanced_block(k, kc_max, 1);
  const int64_t mc_blk = balanced_block(m, mc_max, MR);
  const int64_t nc_blk = std::min(nc_max, (n + NR - 1) / NR * NR);

  // A group: as many mc-blocks of A as fit in kAGroupFloats, packed once per k block and reused by every
  // column panel, so A is packed once (not once per nc columns: 12 times for n = 3072 at nc = 256).
  constexpr int64_t kAGroupFloats = int64_t(1) << 20;  // 4 MB; m = 1024 at kc = 384 takes 1.5 MB
  const int64_t mg_blk = std::max(mc_blk, kAGroupFloats / (kc_blk * Tile::kACopies) / mc_blk * mc_blk);
  const int64_t a_floats = std::min(mg_blk, (m + MR - 1) / MR * MR) * kc_blk * Tile::kACopies;
  float* bp = scratch_b.get(size_t(kc_blk * nc_blk));
  float* ap = scratch_a.get(size_t(a_floats));
  for (int64_t pc = 0; pc < k; pc += kc_blk) {
    const int64_t kc = std::min(kc_blk, k - pc);
    const bool add = accumulate || pc > 0;
    for (int64_t ig = 0; ig < m; ig += mg_blk) {
      const int64_t mg = std::min(mg_blk, m - ig);
      // Out of line (out_of_line.hpp): one call per block, so V8's optimized code takes over after the
      // first few (a reader's first 512x1024 @ 1024x3072: 246 ms inline, ~100 ms so).
      for (int64_t ic = 0; ic < mg; ic += mc_blk)
        tp::detail::call_out_of_line<&Tile::pack>(std::min(mc_blk, mg - ic), kc, A + (ig + ic) * rsa + pc * csa,
                                                  rsa, csa, ap + ic * kc * Tile::kACopies);
      for (int64_t jc = 0; jc < n; jc += nc_blk) {
        const int64_t nc = std::min(nc_blk, n - jc);
        tp::detail::call_out_of_line<&pack_b<NR>>(kc, nc, B.at(pc, jc), bp);
        for (int64_t ic = 0; ic < mg; ic += mc_blk)
          tp::detail::call_out_of_line<&macro_kernel<Tile>>(std::min(mc_blk, mg - ic), nc, kc,
                                                                      ap + ic * kc * Tile::kACopies, bp, kc,
                                                                      C + (ig + ic) * rsc + jc, rsc, add);
      }
    }
  }
}

#if defined(__wasm_simd128__)
#define TP_SIMD_SUFFIX "__wasmsimd"
#else
#define TP_SIMD_SUFFIX "__scalar"
#endif
// The table's entry point: sgemm_packed with a float32 B.
template <class Tile, int KC, int MC, int NC>
void sgemm_variant_run(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const float* B,
                       int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate, int64_t kc_max,
                       int64_t mc_max, int64_t nc_max) {
  sgemm_packed<Tile, KC, MC, NC>(m, n, k, A, rsa, csa, BOperand{B, rsb, csb}, C, rsc, accumulate, kc_max, mc_max,
                                 nc_max);
}
// The table's floor probe: the micro-kernel on packed operands that never leave the caches, so the gap
// between its GFLOPS and sgemm's is what packing and memory cost, and its gap to the peak is the kernel's.
template <class Tile>
float kernel_alone(int64_t reps, int64_t kc, int64_t strips) {
  constexpr int MR = Tile::MR, NR = Tile::NR;
  std::vector<float> a(size_t(MR * kc * Tile::kACopies), 0.5f), b(size_t(NR * kc * strips), 0.25f),
      c(size_t(MR * NR * strips));
  for (int64_t r = 0; r < reps; ++r)
    for (int64_t s = 0; s < strips; ++s)
      Tile::kernel(kc, a.data(), b.data() + s * NR * kc, c.data() + s * NR, NR * strips, r > 0, MR, NR);
  return c[0];
}
#define TP_GEMM_VARIANT(name, tile, kc, mc, nc) \
  { "f32_gemm_" name TP_SIMD_SUFFIX, tile::MR, tile::NR, &sgemm_variant_run<tile, kc, mc, nc>, &kernel_alone<tile> }

// The first entry is sgemm's tile (keep the two in step); the others stay for tuning and edge tests.
using Rot4x8 = RotatingTile<8, 1>;
using Bc4x8 = BroadcastTile<4, 8, 1>;
using Bc4x8k2 = BroadcastTile<4, 8, 2>;
using Bc2x16 = BroadcastTile<2, 16, 1>;
using Bc6x8 = BroadcastTile<6, 8, 1>;
using Bc5x8 = BroadcastTile<5, 8, 1>;
using Bc4x12 = BroadcastTile<4, 12, 1>;
using Bc3x16 = BroadcastTile<3, 16, 1>;
using Bc4x16 = BroadcastTile<4, 16, 1>;
using Bc8x8 = BroadcastTile<8, 8, 1>;
using Rot4x4 = RotatingTile<4, 1>;
// sgemm's cache blocking, which the table's tiles share (mc and nc rounded down to their tile).
// KC = 384: the k block, part of the result's bits (each element of C sums its k blocks one after another;
// gemm_packed.hpp's kMaxDepth); the A micro-panel (4 x kc, 6 KB) and the B strip it meets (kc x 8, 12 KB) stay
// in a 32 KB L1. NC = 256: the jr loop streams the whole kc x nc B panel past every A micro-panel, so the
// panel must stay in L2: 384 KB at most (350 KB at k = 1024, kc 342) fits a 512 KB L2 (Zen 3) beside C's rows,
// where nc = 512 (768 KB, 700 KB at kc 342) did not. A narrower panel only reloads each A micro-panel into L1
// once per 32 strips instead of 64. Not measurable on the machine at hand when it was set, which reports
// AMD family 0x1A (Zen 5: 48 KB L1D, 1 MB L2, where both panels fit): nc 256 against 512, CPU time, fine-
// grained interleave at load 18-22, 0.99 [0.94-1.06] at 1024^3, 1.01 [0.97-1.07] at 512x3072 @ 3072x1024^T,
// 1.00 [0.90-1.13] at 512x1024 @ 1024x15360^T; GEMM/peak there 0.87-0.91 with either. MC = 128 does not
// matter in this loop order (each A micro-panel is read once per panel; mc 64 measured like 128).
// tests/bench/gemm.mjs races other blockings given in TP_GEMM_ALT.
constexpr int kKC = 384, kMC = 128, kNC = 256;
constexpr detail::SgemmVariant variants[] = {
    TP_GEMM_VARIANT("4x8_k1", Bc4x8, kKC, kMC, kNC),
    TP_GEMM_VARIANT("4x8r_k1", Rot4x8, kKC, kMC, kNC),
    TP_GEMM_VARIANT("4x8_k2", Bc4x8k2, kKC, kMC, kNC),
    TP_GEMM_VARIANT("2x16_k1", Bc2x16, kKC, kMC, kNC),
    TP_GEMM_VARIANT("6x8_k1", Bc6x8, kKC, 126, kNC),
    TP_GEMM_VARIANT("5x8_k1", Bc5x8, kKC, 125, kNC),
    TP_GEMM_VARIANT("4x12_k1", Bc4x12, kKC, kMC, 252),
    TP_GEMM_VARIANT("3x16_k1", Bc3x16, kKC, 126, kNC),
    TP_GEMM_VARIANT("4x16_k1", Bc4x16, kKC, kMC, kNC),
    TP_GEMM_VARIANT("8x8_k1", Bc8x8, kKC, kMC, kNC),
    TP_GEMM_VARIANT("4x4r_k1", Rot4x4, kKC, kMC, kNC),
};

// Matrix-vector products (m == 1 or n == 1) skip packing: they read each element of the matrix once,
// so packing would double the memory traffic, and a 4x8 tile would be 3/4 or 7/8 padding.

// y[0:len] += sum over p of x[p*incx] * M[p*ld + 0:len] (rows of M contiguous), in p order, so a
// y zeroed first is summed exactly like sgemm_ref, and two calls over p = [0, q) and [q, k) give the
// bits of one call over [0, k).
void gemv_rows(int64_t len, int64_t k, const float* x, int64_t incx, const float* M, int64_t ld,
               float* y) {
  constexpr int64_t JB = 1024;  // a y block of 4 KB stays in L1 while four rows of M stream by
  for (int64_t j0 = 0; j0 < len; j0 += JB) {
    const int64_t jn = std::min(JB, len - j0);
    float* yb = y + j0;
    int64_t p = 0;
    for (; p + 4 <= k; p += 4) {
      const float s0 = x[p * incx], s1 = x[(p + 1) * incx], s2 = x[(p + 2) * incx], s3 = x[(p + 3) * incx];
      const f32x4 x0 = simd::splat(s0), x1 = simd::splat(s1), x2 = simd::splat(s2), x3 = simd::splat(s3);
      const float* m0 = M + p * ld + j0;
      const float *m1 = m0 + ld, *m2 = m1 + ld, *m3 = m2 + ld;
      int64_t j = 0;
      for (; j + 4 <= jn; j += 4) {
        f32x4 acc = simd::load(yb + j);
        acc = simd::add(acc, simd::mul(x0, simd::load(m0 + j)));
        acc = simd::add(acc, simd::mul(x1, simd::load(m1 + j)));
        acc = simd::add(acc, simd::mul(x2, simd::load(m2 + j)));
        acc = simd::add(acc, simd::mul(x3, simd::load(m3 + j)));
        simd::store(yb + j, acc);
      }
      for (; j < jn; ++j) yb[j] = (((yb[j] + s0 * m0[j]) + s1 * m1[j]) + s2 * m2[j]) + s3 * m3[j];
    }
    for (; p < k; ++p) {
      const float s0 = x[p * incx];
      const f32x4 x0 = simd::splat(s0);
      const float* m0 = M + p * ld + j0;
      int64_t j = 0;
      for (; j + 4 <= jn; j += 4) simd::store(yb + j, simd::add(simd::load(yb + j), simd::mul(x0, simd::load(m0 + j))));
      for (; j < jn; ++j) yb[j] += s0 * m0[j];
    }
  }
}

// dot(u[0:k], v[0:k]) for contiguous u and v, with four vector accumulators.
float dot(int64_t k, const float* u, const float* v) {
  f32x4 a0 = simd::zero(), a1 = simd::zero(), a2 = simd::zero(), a3 = simd::zero();
  int64_t p = 0;
  for (; p + 16 <= k; p += 16) {
    a0 = simd::add(a0, simd::mul(simd::load(u + p), simd::load(v + p)));
    a1 = simd::add(a1, simd::mul(simd::load(u + p + 4), simd::load(v + p + 4)));
    a2 = simd::add(a2, simd::mul(simd::load(u + p + 8), simd::load(v + p + 8)));
    a3 = simd::add(a3, simd::mul(simd::load(u + p + 12), simd::load(v + p + 12)));
  }
  for (; p + 4 <= k; p += 4) a0 = simd::add(a0, simd::mul(simd::load(u + p), simd::load(v + p)));
  float s = simd::hsum(simd::add(simd::add(a0, a1), simd::add(a2, a3)));
  for (; p < k; ++p) s += u[p] * v[p];
  return s;
}

// dot for a 16-bit u, widened in registers: the same additions in the same order as dot on the widened
// u, so the same bits. For float16, vs (from scaled_for_f16, or null) is v * 2^112, each whole 16-block
// reordered, and lets the loop skip the exponent fix: u is widened to u * 2^-112 (exact), and each product
// u * 2^-112 * vs is the real number u * v, so it rounds to the same bits, while the loop spends no multiply
// on the conversion and no branch on inf or NaN: those are looked for once, after the loop, in the running
// maximum of u's 15 bits below the sign, and if there is one the column starts again without vs.
// The float16 loop widens with f16x4_to_f32_scaled, the even and the odd weights of each 8 apart (a multiply-add
// and a mask per 4 weights, no shift, no interleave), so its vectors hold the block offsets {0,2,4,6} {1,3,5,7}
// {8,10,12,14} {9,11,13,15}, the order scaled_for_f16 gives vs. dot's accumulator lane l of a_i sums the
// products of offset 4i + l over the blocks in block order; here each lane of b0-b3 sums one of those sixteen
// offsets, in the same order, so after the loop four shuffles put the sixteen sums in dot's lanes and the rest
// (tails, final sum) is dot's.
// Why float16 stays below 0.9 of float32 when W is cache-resident (issue 23; AMD EPYC Zen 5, Node 20, the
// ratio of CPU times in one process, calls alternated): per 16 weights V8 emits float32's loop as 8 loads +
// 8 multiply/add (and unrolls it twice), bfloat16's as 6 loads + 4 shuffles + 8, float16's as 6 loads + 8 to
// widen + 4 to look for inf/NaN + 8: 0.70-0.83 of float32 on 1024x96 to 3072x1024 W (bfloat16-style widening,
// wrong values but the same loop otherwise, would give 0.83-0.97). In the same runs the earlier
// widening (2 shifts, a mask, 2 interleaves per 8) 0.65-0.76, so this one is 1.06-1.09x faster; shifts and
// shuffles were the limit, not the count of operations: the high halves of a load and of a load one weight back
// (a shift and a mask per 4, no interleave) gained nothing. Also not kept: unrolling to 32 weights (0.85x: LLVM
// interleaves the two blocks and V8 spills), a loop over pointers (same speed), i32x4.load16x4_s + shift + mask,
// the low half by i16x8.mul, the check by max_s and max_u of the raw bits (same speed), two columns sharing x's
// loads (0.61-0.64, earlier). WASM SIMD has no float16 conversion instruction; the mask stays (float16's sign-
// magnitude needs it), and so does the check (2^-112 makes inf and NaN finite) unless the caller knows there
// is none: finite (sgemm_half's b_finite; a model's F16 weights, scanned once at load by f16_all_finite) runs a
// second copy of the loop without the running maximum, the same sums. gemv-half.mjs --quick --f16-finite, m = 1,
// 3 runs alternated with main's module (Zen 5, load 4-7), median f16/f32 CPU ratio: 0.73-0.77 -> 0.85-0.90 on
// 1024x1024 to 3072x1024 W, 0.69 -> 0.78 on the L2-resident 1024x96, 1.31 -> 1.43 on the lm_head from DRAM.
// Only the loop is copied: a whole second dot_half (a template on the flag) grew the web core by 487 bytes
// gzipped, this by ~175 with f16_all_finite. The 16-wide loop stays the limit without the check (0.78 of
// float32 in L2): widening is 8 of the ~22 operations left per 16 weights.
// Where it matters most, W is not cache-resident: generate's decode step reads every layer's weight from DRAM
// (1.2 GB in 16 bits), where float32 is bound by memory and float16 by this loop (gemv-half.mjs's lm_head row).
float dot_half(int64_t k, const uint16_t* u, Half kind, const float* v, const float* vs, bool finite) {
  f32x4 a0 = simd::zero(), a1 = simd::zero(), a2 = simd::zero(), a3 = simd::zero();
  int64_t p = 0;
#if defined(__wasm_simd128__)
  if (vs) {
    const v128_t low15 = wasm_i16x8_const_splat(0x7fff);
    v128_t top = wasm_i16x8_const_splat(0);
    using tp::detail::f16x4_to_f32_scaled;
    // b0-b3 hold the products of the block offsets {0,2,4,6} {1,3,5,7} {8,10,12,14} {9,11,13,15}.
    f32x4 b0 = simd::zero(), b1 = simd::zero(), b2 = simd::zero(), b3 = simd::zero();
    auto block = [&](v128_t h0, v128_t h1) {
      b0 = simd::add(b0, simd::mul(f16x4_to_f32_scaled(h0, false), simd::load(vs + p)));
      b1 = simd::add(b1, simd::mul(f16x4_to_f32_scaled(h0, true), simd::load(vs + p + 4)));
      b2 = simd::add(b2, simd::mul(f16x4_to_f32_scaled(h1, false), simd::load(vs + p + 8)));
      b3 = simd::add(b3, simd::mul(f16x4_to_f32_scaled(h1, true), simd::load(vs + p + 12)));
    };
    if (finite) {
      for (; p + 16 <= k; p += 16) block(wasm_v128_load(u + p), wasm_v128_load(u + p + 8));
    } else {
      for (; p + 16 <= k; p += 16) {
        const v128_t h0 = wasm_v128_load(u + p), h1 = wasm_v128_load(u + p + 8);
        top = wasm_i16x8_max(top, wasm_i16x8_max(wasm_v128_and(h0, low15), wasm_v128_and(h1, low15)));
        block(h0, h1);
      }
    }
    if (wasm_v128_any_true(wasm_i16x8_gt(top, wasm_i16x8_const_splat(0x7bff)))) {
      p = 0;
      vs = nullptr;
    } else {  // dot's lanes: a0 = offsets 0-3 = b0 and b1 interleaved, ...
      a0 = wasm_i32x4_shuffle(b0, b1, 0, 4, 1, 5);
      a1 = wasm_i32x4_shuffle(b0, b1, 2, 6, 3, 7);
      a2 = wasm_i32x4_shuffle(b2, b3, 0, 4, 1, 5);
      a3 = wasm_i32x4_shuffle(b2, b3, 2, 6, 3, 7);
    }
  }
#else
  (void)finite;
#endif
  if (!vs) {
    for (; p + 16 <= k; p += 16) {
      f32x4 u0, u1, u2, u3;
      tp::detail::widen8(kind, u + p, u0, u1);
      tp::detail::widen8(kind, u + p + 8, u2, u3);
      a0 = simd::add(a0, simd::mul(u0, simd::load(v + p)));
      a1 = simd::add(a1, simd::mul(u1, simd::load(v + p + 4)));
      a2 = simd::add(a2, simd::mul(u2, simd::load(v + p + 8)));
      a3 = simd::add(a3, simd::mul(u3, simd::load(v + p + 12)));
    }
  }
  // The tails: u (times 2^-112 with vs: exact, inf and NaN kept; times 1 without) times vs or v.
  const float scale = vs ? 0x1p-112f : 1.0f;
  const float* x = vs ? vs : v;
  for (; p + 4 <= k; p += 4) {
    alignas(16) float w[4];
    for (int i = 0; i < 4; ++i) w[i] = half::to_f32(kind, u[p + i]) * scale;
    a0 = simd::add(a0, simd::mul(simd::load(w), simd::load(x + p)));
  }
  float s = simd::hsum(simd::add(simd::add(a0, a1), simd::add(a2, a3)));
  for (; p < k; ++p) s += half::to_f32(kind, u[p]) * scale * x[p];
  return s;
}

// x gathered into contiguous scratch when its stride is not 1.
const float* contiguous(int64_t k, const float* x, int64_t incx, Scratch& scratch) {
  if (incx == 1) return x;
  float* out = scratch.get(size_t(k));
  TP_SCALAR_LOOP for (int64_t p = 0; p < k; ++p) out[p] = x[p * incx];
  return out;
}

// x * 2^112 in scratch for dot_half's float16 loop, each whole 16-block in the order of its weight vectors
// (even offsets of the first 8, odd, even of the next 8, odd: see dot_half), the tail in place; or null when
// some |x[p]| >= 2^16 (or inf, NaN) would overflow. Once per product and O(k): compiled for size (at -O3 it
// took 130 bytes more), out of line so that LTO does not inline it back into try_gemv at -O3.
#if defined(__clang__)
__attribute__((minsize, noinline))
#endif
const float* scaled_for_f16(int64_t k, const float* x) {
#if defined(__wasm_simd128__)
  float* xs = scratch_h.get(size_t(k));
  for (int64_t p = 0; p < k; ++p) {
    if (!(std::fabs(x[p]) < 0x1p16f)) return nullptr;
    xs[p] = x[p] * 0x1p112f;
  }
  for (int64_t p = 0; p + 8 <= k / 16 * 16; p += 8) {  // each 8 of the 16-blocks: the even offsets, then the odd
    const f32x4 lo = simd::load(xs + p), hi = simd::load(xs + p + 4);
    simd::store(xs + p, wasm_i32x4_shuffle(lo, hi, 0, 2, 4, 6));
    simd::store(xs + p + 4, wasm_i32x4_shuffle(lo, hi, 1, 3, 5, 7));
  }
  return xs;
#else
  (void)k, (void)x;
  return nullptr;  // the scalar widening has no multiply to save
#endif
}

// C(i, j) for i < len at C[i*incc] gets y[i] (or += when accumulating).
void write_vector(int64_t len, const float* y, float* C, int64_t incc, bool accumulate) {
  for (int64_t i = 0; i < len; ++i) C[i * incc] = accumulate ? C[i * incc] + y[i] : y[i];
}

// The m == 1 product with a 16-bit row-major B (x @ B, B (k,n)): rows of B widened a block at a time
// into scratch, then gemv_rows on the block. y[j] still sums over p in order, so the bits are those of
// the f32 path on the widened B.
void gemv_rows_half(int64_t n, int64_t k, const float* x, int64_t incx, const uint16_t* B, int64_t ldb, Half kind,
                    float* y) {
  constexpr int64_t JB = 1024, PB = 16;  // a 16 x 1024 block of B widened: 64 KB
  float* wide = scratch_h.get(size_t(PB * JB));
  for (int64_t j0 = 0; j0 < n; j0 += JB) {
    const int64_t jn = std::min(JB, n - j0);
    for (int64_t p0 = 0; p0 < k; p0 += PB) {
      const int64_t pn = std::min(PB, k - p0);
      for (int64_t p = 0; p < pn; ++p) widen_half(kind, B + (p0 + p) * ldb + j0, wide + p * jn, jn);
      gemv_rows(jn, pn, x + p0 * incx, incx, wide, jn, y + j0);
    }
  }
}

// The matrix-vector paths; which one runs depends on the shape and strides alone, so a 16-bit B takes
// the path a float32 B with the same strides takes, and both give the same bits.
enum class Gemv { None, RowsOfB, DotPerColumn, DotPerRow, ColumnsOfA };

Gemv gemv_path(int64_t m, int64_t n, int64_t rsa, int64_t csa, int64_t rsb, int64_t csb) {
  if (m == 1 && csb == 1) return Gemv::RowsOfB;       // x @ B with B row-major: stream B's rows
  if (m == 1 && rsb == 1) return Gemv::DotPerColumn;  // x @ W^T with W (n,k) row-major: one dot per column
  if (n == 1 && csa == 1) return Gemv::DotPerRow;     // A @ x with A row-major: one dot per row
  if (n == 1 && rsa == 1) return Gemv::ColumnsOfA;    // A @ x with A column-major: stream A's columns
  return Gemv::None;
}

// Runs a matrix-vector path; false when the shape or strides are not one of them.
bool try_gemv(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const BOperand& B,
              float* C, int64_t rsc, bool accumulate) {
  const int64_t rsb = B.rs, csb = B.cs;
  switch (gemv_path(m, n, rsa, csa, rsb, csb)) {
    case Gemv::None:
      return false;
    case Gemv::RowsOfB: {
      float* y = scratch_b.get(size_t(n));
      std::fill(y, y + n, 0.0f);
      if (B.half)
        B.half->rows(n, k, A, csa, B.u16(), rsb, B.kind, y);
      else
        gemv_rows(n, k, A, csa, B.f32(), rsb, y);
      write_vector(n, y, C, 1, accumulate);
      return true;
    }
    case Gemv::DotPerColumn: {
      // A linear layer's one row (lm_head on the last token: 151,936 columns, 300 MB of BF16 read):
      // whole columns per thread, each dot the same whatever the split.
      const float* x = contiguous(k, A, csa, scratch_a);
      const float* xs = B.half && B.kind == Half::F16 ? B.half->scaled(k, x) : nullptr;
      const int parts = parts_for(2.0 * double(n) * double(k), n / 64);
      tp::detail::run_parts(parts, [=, &B](int t) {
        for (int64_t j = n * t / parts; j < n * (t + 1) / parts; ++j) {
          const float s = B.half ? B.half->dot(k, B.u16() + j * csb, B.kind, x, xs, B.half->finite)
                                 : dot(k, B.f32() + j * csb, x);
          C[j] = accumulate ? C[j] + s : s;
        }
      });
      return true;
    }
    case Gemv::DotPerRow:
    case Gemv::ColumnsOfA: {
      // x = B's only column, gathered (and widened) into contiguous scratch.
      float* x = scratch_h.get(size_t(k));
      TP_SCALAR_LOOP for (int64_t p = 0; p < k; ++p) x[p] = B.half ? half::to_f32(B.kind, B.u16()[p * rsb]) : B.f32()[p * rsb];
      if (csa == 1) {
        for (int64_t i = 0; i < m; ++i) {
          const float s = dot(k, A + i * rsa, x);
          C[i * rsc] = accumulate ? C[i * rsc] + s : s;
        }
      } else {
        float* y = scratch_a.get(size_t(m));
        std::fill(y, y + m, 0.0f);
        gemv_rows(m, k, x, 1, A, csa, y);
        write_vector(m, y, C, rsc, accumulate);
      }
      return true;
    }
  }
  return false;
}

std::atomic<int> g_threads{1};
std::atomic<int64_t> g_min_flops{int64_t(1) << 24};

// sgemm's register tile. Called directly, not through the table: the module then links only this tile
// (the table, used by tests and benchmarks alone, is dropped by wasm-ld with the other tiles).
using SgemmTile = Bc4x8;
constexpr int kTileMR = SgemmTile::MR, kTileNR = SgemmTile::NR;
constexpr auto tile = &sgemm_packed<SgemmTile, kKC, kMC, kNC>;
static_assert(variants[0].run == &sgemm_variant_run<SgemmTile, kKC, kMC, kNC>, "sgemm runs variants()[0]");

// The whole product for sgemm and sgemm_half: the matrix-vector paths, or the packed tile, split into
// column blocks (row blocks when n is narrow), one per thread. Every element still sums over the same k
// blocks in the same order, so results do not depend on the split.
void gemm_any(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const BOperand& B,
              float* C, int64_t rsc, bool accumulate) {
  TP_ASSERT(m >= 0 && n >= 0 && k >= 0);
  if (m > 0 && n > 0 && k > 0 && (m == 1 || n == 1) && try_gemv(m, n, k, A, rsa, csa, B, C, rsc, accumulate))
    return;
  const int threads = g_threads;
  if (threads > 1 && 2.0 * double(m) * double(n) * double(k) >= double(g_min_flops)) {
    if (n >= 64 * threads) {
      const int64_t cols = (n + threads - 1) / threads;
      const int64_t chunk = (cols + kTileNR - 1) / kTileNR * kTileNR;  // whole tiles
      tp::detail::run_parts(threads, [=, &B](int t) {
        const int64_t j0 = std::min(n, t * chunk), j1 = std::min(n, j0 + chunk);
        if (j0 < j1) tile(m, j1 - j0, k, A, rsa, csa, B.at(0, j0), C + j0, rsc, accumulate, 0, 0, 0);
      });
      return;
    }
    if (m >= 16 * threads) {
      const int64_t rows = (m + threads - 1) / threads, chunk = (rows + kTileMR - 1) / kTileMR * kTileMR;
      tp::detail::run_parts(threads, [=, &B](int t) {
        const int64_t i0 = std::min(m, t * chunk), i1 = std::min(m, i0 + chunk);
        if (i0 < i1) tile(i1 - i0, n, k, A + i0 * rsa, rsa, csa, B, C + i0 * rsc, rsc, accumulate, 0, 0, 0);
      });
      return;
    }
  }
  tile(m, n, k, A, rsa, csa, B, C, rsc, accumulate, 0, 0, 0);
}

}  // namespace

namespace packed {

static_assert(kMaxDepth == kKC, "sgemm's KC");
int64_t a_floats(int64_t m, int64_t k) { return (m + kTileMR - 1) / kTileMR * kTileMR * k * SgemmTile::kACopies; }
int64_t b_floats(int64_t k, int64_t n) { return (n + kTileNR - 1) / kTileNR * kTileNR * k; }

void pack_a(int64_t m, int64_t k, const float* A, int64_t rsa, int64_t csa, float* out) {
  tp::detail::call_out_of_line<&SgemmTile::pack>(m, k, A, rsa, csa, out);
}

void pack_b(int64_t k, int64_t n, const float* B, int64_t rsb, int64_t csb, float* out) {
  tp::detail::call_out_of_line<&pack_b_f32<kTileNR>>(k, n, B, rsb, csb, out);
}

void multiply(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* C, int64_t rsc, bool add,
              int64_t kb) {
  kb = kb > 0 ? kb : k;
  TP_ASSERT(m >= 0 && n >= 0 && k > 0 && k <= kMaxDepth && kb >= k);
  tp::detail::call_out_of_line<&macro_kernel<SgemmTile>>(m, n, k, a, b, kb, C, rsc, add);
}

}  // namespace packed

void set_sgemm_threads(int threads, int64_t min_flops) {
  g_threads = std::max(1, threads);
  g_min_flops = std::max<int64_t>(0, min_flops);
}

int sgemm_threads() { return g_threads; }

int parts_for(double work, int64_t units) {
  const int threads = g_threads;
  if (threads < 2 || units < 2 || work < double(g_min_flops) / 256) return 1;
  return int(std::min<int64_t>(threads, units));
}

void sgemm(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const float* B,
           int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate) {
  gemm_any(m, n, k, A, rsa, csa, BOperand{B, rsb, csb}, C, rsc, accumulate);
}

void sgemm_half(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const uint16_t* B,
                int64_t rsb, int64_t csb, Half kind, float* C, int64_t rsc, bool accumulate, bool b_finite) {
  static constexpr HalfOps ops{&pack_b_half<kTileNR>, &gemv_rows_half, &dot_half, &scaled_for_f16, false};
  static constexpr HalfOps ops_finite{&pack_b_half<kTileNR>, &gemv_rows_half, &dot_half, &scaled_for_f16, true};
  gemm_any(m, n, k, A, rsa, csa, BOperand{B, rsb, csb, b_finite && kind == Half::F16 ? &ops_finite : &ops, kind}, C,
           rsc, accumulate);
}

// Once per weight at load, so compiled for size like scaled_for_f16.
TP_FOR_SIZE bool f16_all_finite(int64_t n, const uint16_t* h) {
  int64_t i = 0;
#if defined(__wasm_simd128__)
  const v128_t low15 = wasm_i16x8_const_splat(0x7fff);
  v128_t top = wasm_i16x8_const_splat(0);  // the largest 15 bits below the sign, as in dot_half
  for (; i + 8 <= n; i += 8) top = wasm_i16x8_max(top, wasm_v128_and(wasm_v128_load(h + i), low15));
  if (wasm_v128_any_true(wasm_i16x8_gt(top, wasm_i16x8_const_splat(0x7bff)))) return false;
#endif
  for (; i < n; ++i)
    if ((h[i] & 0x7fff) > 0x7bff) return false;
  return true;
}

void sgemm_half_ref(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const uint16_t* B,
                    int64_t rsb, int64_t csb, Half kind, float* C, int64_t rsc, bool accumulate) {
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float s = 0.0f;
      for (int64_t p = 0; p < k; ++p) s += A[i * rsa + p * csa] * half::to_f32(kind, B[p * rsb + j * csb]);
      C[i * rsc + j] = accumulate ? C[i * rsc + j] + s : s;
    }
  }
}

void widen_half(Half kind, const uint16_t* src, float* dst, int64_t count) {
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    simd::f32x4 lo, hi;
    tp::detail::widen8(kind, src + i, lo, hi);
    simd::store(dst + i, lo);
    simd::store(dst + i + 4, hi);
  }
  for (; i < count; ++i) dst[i] = half::to_f32(kind, src[i]);
}

namespace detail {
int sgemm_variant_count() { return int(sizeof(variants) / sizeof(variants[0])); }
const SgemmVariant& sgemm_variant(int i) {
  TP_ASSERT(i >= 0 && i < sgemm_variant_count());
  return variants[i];
}
}  // namespace detail

}  // namespace tp::kernels
