// Symmetric quantization kernels: scales, fake quantization, int8 storage and the int8 matmul.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tensorpad/quant.hpp"
#include "tensorpad/simd_int.hpp"

namespace tp::kernels {

void absmax_scales(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, float* scales) {
  const float qmax = float(quant_qmax(bits));
  float all = 0.0f;
  for (int64_t r = 0; r < rows; ++r) {
    float mx = 0.0f;
    for (int64_t c = 0; c < cols; ++c) mx = std::max(mx, std::fabs(x[r * cols + c]));
    if (per_row) scales[r] = mx / qmax;
    all = std::max(all, mx);
  }
  if (!per_row) scales[0] = all / qmax;
}

namespace {
// round half to even (the default rounding mode; torch.round and numpy.round agree), then clamp.
inline float quant_level(float x, float s, float lo, float hi) {
  return std::min(std::max(std::nearbyint(x / s), lo), hi);
}
}  // namespace

void fake_quant_f32(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, float* y) {
  std::vector<float> scales(per_row ? rows : 1);
  absmax_scales(rows, cols, x, bits, per_row, scales.data());
  const float hi = float(quant_qmax(bits)), lo = -hi - 1.0f;
  for (int64_t r = 0; r < rows; ++r) {
    const float s = scales[per_row ? r : 0];
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      y[i] = s > 0.0f ? quant_level(x[i], s, lo, hi) * s : 0.0f;
    }
  }
}

double rel_error_f32(int64_t n, const float* approx, const float* exact) {
  double num = 0, den = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = double(approx[i]) - exact[i];
    num += d * d;
    den += double(exact[i]) * exact[i];
  }
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

void quantize_i8(int64_t rows, int64_t cols, const float* x, int bits, bool per_row, int8_t* q,
                 float* scales) {
  TP_ASSERT(bits >= 2 && bits <= 8);
  absmax_scales(rows, cols, x, bits, per_row, scales);
  const float hi = float(quant_qmax(bits)), lo = -hi - 1.0f;
  for (int64_t r = 0; r < rows; ++r) {
    const float s = scales[per_row ? r : 0];
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      q[i] = s > 0.0f ? int8_t(quant_level(x[i], s, lo, hi)) : int8_t(0);
    }
  }
}

void matmul_i8_ref(int64_t m, int64_t n, int64_t k, const int8_t* A, const int8_t* B, int32_t* C) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int32_t s = 0;
      for (int64_t p = 0; p < k; ++p) s += int32_t(A[i * k + p]) * int32_t(B[j * k + p]);
      C[i * n + j] = s;
    }
}

namespace {

constexpr int kMR = 4;    // rows of A per register tile
constexpr int kNR = 2;    // rows of B per register tile: 8 i32x4 accumulators + 4 + 1 operands
constexpr int64_t kNC = 128;  // rows of B per cache block (128 x 1024 int16 = 256 KiB, an L2's worth)

// Packs rows [0, rows) of int8 X (rows, k) into strips of g rows, sign-extended to int16 and interleaved
// by 8 steps of k: strip s holds X(s*g + r, 8c + e) at [s*g*kp + c*8*g + r*8 + e], so one k-chunk of a
// whole strip is g consecutive i16x8 and the micro-kernel walks each operand with one pointer (the
// row-major layout needed a separate address per row, 6 extra instructions per chunk in V8's code).
// k is padded to kp (a multiple of 8) and rows to a multiple of g, both with zeros. g is a run-time
// argument and the tail goes through the same 16-wide widening: one small function in the core.
void pack_i16(int g, int64_t rows, int64_t k, const int8_t* X, int64_t kp, int16_t* out) {
  const int64_t strips = (rows + g - 1) / g;
  for (int64_t s = 0; s < strips; ++s) {
    for (int r = 0; r < g; ++r) {
      const int64_t row = s * g + r;
      int16_t* o = out + s * g * kp + r * 8;  // chunk c of this row starts at o + c*8*g
      const int8_t* x = X + row * k;
      for (int64_t p = 0; p < kp; p += 16) {
        alignas(16) int8_t tail[16] = {};
        const int8_t* src = x + p;
        if (row >= rows || p + 16 > k) {  // a padding row, or the last k-chunks: zero-filled copy
          if (row < rows) std::copy(x + p, x + k, tail);
          src = tail;
        }
        int16_t spare[8];  // the second chunk when kp ends 8 past p
        simd::widen_i8x16_split(src, o + (p / 8) * 8 * g, p + 8 < kp ? o + (p / 8 + 1) * 8 * g : spare);
      }
    }
  }
}

// c[a][b] = dot(A row a, B row b) over kp int16 for a kMR x kNR tile of packed strips.
inline void tile_dot(int64_t kp, const int16_t* __restrict A, const int16_t* __restrict B,
                     int32_t c[kMR][kNR]) {
  using namespace tp::simd;
  i32x4 acc[kMR][kNR];
  for (int a = 0; a < kMR; ++a)
    for (int b = 0; b < kNR; ++b) acc[a][b] = zero_i32x4();
  for (int64_t p = 0; p < kp; p += 8, A += 8 * kMR, B += 8 * kNR) {
    i16x8 va[kMR];
    for (int a = 0; a < kMR; ++a) va[a] = load_i16x8(A + 8 * a);
    for (int b = 0; b < kNR; ++b) {
      const i16x8 vb = load_i16x8(B + 8 * b);
      for (int a = 0; a < kMR; ++a) acc[a][b] = dot_acc_i16x8(acc[a][b], va[a], vb);
    }
  }
  for (int a = 0; a < kMR; ++a)
    for (int b = 0; b < kNR; ++b) c[a][b] = hsum_i32x4(acc[a][b]);
}

// Runs the blocked product and hands every finished tile to store(i0, j0, c, rows, cols).
template <class Store>
void matmul_i8_blocked(int64_t m, int64_t n, int64_t k, const int8_t* A, const int8_t* B, Store store) {
  TP_ASSERT(k < (int64_t(1) << 31) / (128 * 128));
  const int64_t kp = (k + 7) / 8 * 8;
  std::vector<int16_t> a16(size_t((m + kMR - 1) / kMR * kMR * kp));
  pack_i16(kMR, m, k, A, kp, a16.data());
  // One block of B at a time, packed into a buffer that stays in L2 while every A strip streams past it.
  std::vector<int16_t> b16(size_t(std::min<int64_t>(kNC, (n + kNR - 1) / kNR * kNR) * kp));
  int32_t c[kMR][kNR];
  for (int64_t jc = 0; jc < n; jc += kNC) {
    const int64_t jend = std::min(n, jc + kNC);
    pack_i16(kNR, jend - jc, k, B + jc * k, kp, b16.data());
    for (int64_t i0 = 0; i0 < m; i0 += kMR) {
      for (int64_t j0 = jc; j0 < jend; j0 += kNR) {
        tile_dot(kp, a16.data() + i0 * kp, b16.data() + (j0 - jc) * kp, c);
        store(i0, j0, c, std::min<int64_t>(kMR, m - i0), std::min<int64_t>(kNR, n - j0));
      }
    }
  }
}

}  // namespace

void matmul_i8(int64_t m, int64_t n, int64_t k, const int8_t* A, const int8_t* B, int32_t* C) {
  matmul_i8_blocked(m, n, k, A, B, [&](int64_t i0, int64_t j0, int32_t (*c)[kNR], int64_t mr, int64_t nr) {
    for (int64_t a = 0; a < mr; ++a)
      for (int64_t b = 0; b < nr; ++b) C[(i0 + a) * n + j0 + b] = c[a][b];
  });
}

void matmul_i8_dequant(int64_t m, int64_t n, int64_t k, const int8_t* A, const float* sa, bool a_per_row,
                       const int8_t* B, const float* sb, bool b_per_row, float* out) {
  matmul_i8_blocked(m, n, k, A, B, [&](int64_t i0, int64_t j0, int32_t (*c)[kNR], int64_t mr, int64_t nr) {
    for (int64_t a = 0; a < mr; ++a) {
      const float s = sa[a_per_row ? i0 + a : 0];
      for (int64_t b = 0; b < nr; ++b) out[(i0 + a) * n + j0 + b] = float(c[a][b]) * (s * sb[b_per_row ? j0 + b : 0]);
    }
  });
}

}  // namespace tp::kernels
