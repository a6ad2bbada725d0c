// Packed, cache-blocked f32 GEMM (the BLIS loop nest) with register-blocked f32x4 micro-kernels.
// A is (m,k), B is (k,n), C is (m,n).
//
//   for jc over n by NC:            B panel  kc x nc  packed once per (jc, pc), lives in L2
//     for pc over k by KC:
//       for ic over m by MC:        A block  mc x kc  packed once per (jc, pc, ic), lives in L2
//         for ir over mc by MR:     A micro-panel MR x kc stays in L1 across the jr loop
//           for jr over nc by NR:   micro-kernel: MR x NR accumulators in registers, k-loop of kc
//
// The jr loop is innermost so consecutive micro-kernels walk C along its rows (sequential, prefetched)
// and stream B micro-panels from L2; measured on WASM/x86-64 this beats the classic ir-innermost order
// by 3-8% once C no longer fits in L2.
// Packing reads any strides (so transposes cost nothing extra) and zero-pads the last strip of A
// and of B up to MR / NR: edge tiles run the same micro-kernel and only their store is partial.
#include "tensorpad/gemm.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "tensorpad/error.hpp"
#include "tensorpad/simd.hpp"

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

thread_local Scratch scratch_a, scratch_b;

// Packs the mc x kc block of A into strips of MR rows: strip s holds A(s*MR + r, p) at [p*MR + r],
// rows past mc are zero.
template <int MR>
void pack_a(int64_t mc, int64_t kc, const float* A, int64_t rsa, int64_t csa, float* out) {
  for (int64_t i0 = 0; i0 < mc; i0 += MR, out += MR * kc) {
    const int rows = int(std::min<int64_t>(MR, mc - i0));
    const float* a = A + i0 * rsa;
    if (rows == MR && rsa == 1) {
      // Transposed A: each p is MR contiguous floats.
      for (int64_t p = 0; p < kc; ++p)
        for (int r = 0; r < MR; ++r) out[p * MR + r] = a[p * csa + r];
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
    // Row by row, reading along p (contiguous when A is row-major); rows past mc are zero.
    for (int r = 0; r < MR; ++r) {
      const float* ar = a + r * rsa;
      for (int64_t p = p0; p < kc; ++p) out[p * MR + r] = r < rows ? ar[p * csa] : 0.0f;
    }
  }
}

// Packs the kc x nc panel of B into strips of NR columns: strip s holds B(p, s*NR + c) at [p*NR + c],
// columns past nc are zero.
template <int NR>
void pack_b(int64_t kc, int64_t nc, const float* B, int64_t rsb, int64_t csb, float* out) {
  const int64_t full = nc / NR;  // strips without padding
  int64_t s0 = 0;
  if (csb == 1) {
    // Row-major B: walk each row of the panel once, front to back, scattering NR-float pieces to
    // the strips (reading the strips one by one would stride down B and thrash L1 for n = 2^k).
    for (int64_t p = 0; p < kc; ++p) {
      const float* b = B + p * rsb;
      float* o = out + p * NR;
      for (int64_t s = 0; s < full; ++s, b += NR, o += NR * kc)
        for (int v = 0; v < NR; v += 4) simd::store(o + v, simd::load(b + v));
    }
    s0 = full;
  }
  for (int64_t s = s0; s * NR < nc; ++s) {
    const int cols = int(std::min<int64_t>(NR, nc - s * NR));
    const float* b = B + s * NR * csb;
    float* o = out + s * NR * kc;
    if (csb == 1 || rsb > csb) {
      for (int64_t p = 0; p < kc; ++p)
        for (int c = 0; c < NR; ++c) o[p * NR + c] = c < cols ? b[p * rsb + c * csb] : 0.0f;
    } else {
      // Column-major B (e.g. a transposed weight): read each column along p.
      for (int c = 0; c < NR; ++c) {
        const float* bc = b + c * csb;
        for (int64_t p = 0; p < kc; ++p) o[p * NR + c] = c < cols ? bc[p * rsb] : 0.0f;
      }
    }
  }
}

// C[0:mr, 0:nr] (+)= a @ b for one packed MR-strip of A and NR-strip of B, all kc steps.
// Only the accumulators live across the k-loop: MR*NR/4 vector registers, plus NR/4 for B and one
// broadcast of A (WASM engines on x86-64 have 16 xmm registers).
template <int MR, int NR>
void micro_kernel(int64_t kc, const float* __restrict a, const float* __restrict b, float* C,
                  int64_t rsc, bool add, int mr, int nr) {
  constexpr int NV = NR / 4;
  f32x4 acc[MR][NV];
  for (int r = 0; r < MR; ++r)
    for (int v = 0; v < NV; ++v) acc[r][v] = simd::zero();
  for (int64_t p = 0; p < kc; ++p) {
    f32x4 bv[NV];
    for (int v = 0; v < NV; ++v) bv[v] = simd::load(b + 4 * v);
    for (int r = 0; r < MR; ++r) {
      const f32x4 ar = simd::load_splat(a + r);
      for (int v = 0; v < NV; ++v) acc[r][v] = simd::add(acc[r][v], simd::mul(ar, bv[v]));
    }
    a += MR;
    b += NR;
  }
  if (mr == MR && nr == NR) {
    for (int r = 0; r < MR; ++r) {
      float* c = C + r * rsc;
      for (int v = 0; v < NV; ++v)
        simd::store(c + 4 * v, add ? simd::add(simd::load(c + 4 * v), acc[r][v]) : acc[r][v]);
    }
  } else {
    // Edge tile: the padded lanes hold zeros times padding; store only the mr x nr corner.
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

// Splits `total` into the fewest blocks of at most `block`, of near-equal size rounded up to `align`,
// so a 300-deep k is two blocks of 152 and 148 rather than 256 and 44.
int64_t balanced_block(int64_t total, int64_t block, int64_t align) {
  const int64_t blocks = (total + block - 1) / block;
  const int64_t size = (total + blocks - 1) / blocks;
  return (size + align - 1) / align * align;
}

template <int MR, int NR, int KC, int MC, int NC>
void sgemm_packed(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
                  const float* B, int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate,
                  int64_t kc_max, int64_t mc_max, int64_t nc_max) {
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

  float* bp = scratch_b.get(size_t(kc_blk * nc_blk));
  float* ap = scratch_a.get(size_t(kc_blk * mc_blk));
  for (int64_t jc = 0; jc < n; jc += nc_blk) {
    const int64_t nc = std::min(nc_blk, n - jc);
    for (int64_t pc = 0; pc < k; pc += kc_blk) {
      const int64_t kc = std::min(kc_blk, k - pc);
      const bool add = accumulate || pc > 0;
      pack_b<NR>(kc, nc, B + pc * rsb + jc * csb, rsb, csb, bp);
      for (int64_t ic = 0; ic < m; ic += mc_blk) {
        const int64_t mc = std::min(mc_blk, m - ic);
        pack_a<MR>(mc, kc, A + ic * rsa + pc * csa, rsa, csa, ap);
        for (int64_t ir = 0; ir < mc; ir += MR) {
          const int mr = int(std::min<int64_t>(MR, mc - ir));
          for (int64_t jr = 0; jr < nc; jr += NR) {
            const int nr = int(std::min<int64_t>(NR, nc - jr));
            micro_kernel<MR, NR>(kc, ap + ir * kc, bp + jr * kc, C + (ic + ir) * rsc + jc + jr, rsc,
                                 add, mr, nr);
          }
        }
      }
    }
  }
}

#if defined(__wasm_simd128__)
#define TP_SIMD_SUFFIX "__wasmsimd"
#else
#define TP_SIMD_SUFFIX "__scalar"
#endif
#define TP_GEMM_VARIANT(mr, nr, kc, mc, nc) \
  { "f32_gemm_" #mr "x" #nr TP_SIMD_SUFFIX, mr, nr, &sgemm_packed<mr, nr, kc, mc, nc> }

// The first entry is sgemm; the others are kept for tuning and for the edge tests.
const detail::SgemmVariant variants[] = {
    TP_GEMM_VARIANT(4, 8, 384, 128, 512),
    TP_GEMM_VARIANT(2, 16, 384, 128, 512),
    TP_GEMM_VARIANT(6, 8, 384, 126, 512),
    TP_GEMM_VARIANT(5, 8, 384, 125, 512),
    TP_GEMM_VARIANT(4, 12, 384, 128, 504),
    TP_GEMM_VARIANT(3, 16, 384, 126, 512),
    TP_GEMM_VARIANT(4, 16, 384, 128, 512),
    TP_GEMM_VARIANT(8, 8, 384, 128, 512),
};

}  // namespace

void sgemm(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const float* B,
           int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate) {
  variants[0].run(m, n, k, A, rsa, csa, B, rsb, csb, C, rsc, accumulate, 0, 0, 0);
}

namespace detail {
int sgemm_variant_count() { return int(sizeof(variants) / sizeof(variants[0])); }
const SgemmVariant& sgemm_variant(int i) {
  TP_ASSERT(i >= 0 && i < sgemm_variant_count());
  return variants[i];
}
}  // namespace detail

}  // namespace tp::kernels
