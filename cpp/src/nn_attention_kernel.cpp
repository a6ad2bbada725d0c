// Fused scaled dot-product attention for one head or a group of query heads sharing K/V, and its
// double-precision oracle.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "gemm_packed.hpp"
#include "exp_lanes.hpp"
#include "out_of_line.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/simd.hpp"
#include "tensorpad/vmath.hpp"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace tp::kernels {

namespace {

using simd::f32x4;

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Query rows and key rows per tile: a 64x128 score tile plus a 64xDv accumulator per head stay in L2.
// 128 keys rather than 64: half the softmax rescales per row and PV products twice as deep ([16,1024,128]
// causal attention 179 -> 176 ms CPU in Node, under load).
constexpr int64_t kTileQ = kAttentionTileRows;
constexpr int64_t kTileK = 128;

// Causal attention's diagonal key tile, taken in runs of kDiagRows query rows: a run whose last row sees
// `seen` of the tile's bk keys multiplies only those, rounded up to 8 (whole 8-column register tiles of
// sgemm's kernel, and whole 4-lane groups of exp_shifted_sum and row_max, so that each row's sums take the
// lanes they took over the whole tile: the keys dropped are masked for every row of the run, their
// probabilities 0, and a sum that starts at +0 is unchanged by adding ±0, so the bits are those of the whole
// tile). 16 rows: on a 64 x 64 diagonal block 2560 scores (and as many multiply-adds per head dimension in
// Q Kᵀ and P V) instead of 4096, of which 2080 are visible; V is packed once per run's depth. At least 8
// keys (or bk): when q0 falls inside a tile, a run may see none of it, and 8 masked keys then add nothing.
// Runs start at multiples of kDiagRows, which sgemm's tile rows (4) divide: each starts a strip of packed Q.
constexpr int64_t kDiagRows = 16;
inline int64_t diagonal_cols(int64_t seen, int64_t bk) {
  return std::min(bk, std::max<int64_t>(8, (seen + 7) / 8 * 8));
}

// The larger of a running max and a score, NaN once either is NaN: std::max(m, NaN) keeps m, and a row
// (or a 64-key tile) of NaN scores then read as fully masked, giving 0 where torch gives NaN.
template <class T>
inline T max_keeping_nan(T m, T s) {
  return (s > m || s != s) ? s : m;
}

// The logit of (i, j) after scaling, the additive mask and the causal mask.
inline float masked(const AttentionArgs& a, float s, int64_t i, int64_t j) {
  if (a.causal && j > a.q0 + i) return kNegInf;
  s *= a.scale;
  if (a.mask) s += a.mask[i * a.rsm + j * a.csm];
  return s;
}

// Weights requested: the (sq,sk) matrix exists anyway, so compute it whole, softmax rows, then O = P V.
// Its time is in sgemm and exp_f32; the glue compiles for size (core-size budget), as io_dtype's rare types.
__attribute__((minsize, noinline)) void attention_with_weights(const AttentionArgs& a) {
  float* P = a.weights;
  sgemm(a.sq, a.sk, a.d, a.q, a.rsq, 1, a.k, 1, a.rsk, P, a.sk, false);
  for (int64_t i = 0; i < a.sq; ++i) {
    float* row = P + i * a.sk;
    float mx = kNegInf;
    for (int64_t j = 0; j < a.sk; ++j) {
      row[j] = masked(a, row[j], i, j);
      mx = max_keeping_nan(mx, row[j]);
    }
    if (mx == kNegInf) {  // every key masked: no distribution to form, the row reads nothing
      std::fill(row, row + a.sk, 0.0f);
      continue;
    }
    // Subtract the row max only for numerical stability: exp never overflows, the largest term is 1.
    for (int64_t j = 0; j < a.sk; ++j) row[j] -= mx;
    exp_f32(row, row, a.sk);  // vectorised; exp(-inf) = 0 for masked entries
    double sum = 0;
    for (int64_t j = 0; j < a.sk; ++j) sum += row[j];
    const float inv = float(1.0 / sum);
    for (int64_t j = 0; j < a.sk; ++j) row[j] *= inv;
  }
  sgemm(a.sq, a.dv, a.sk, P, a.sk, 1, a.v, a.rsv, 1, a.o, a.rso, false);
}

// Head g of a group that shares K/V: its own Q, O, mask and weights, the same K and V.
AttentionArgs head(const AttentionArgs& a, int64_t g) {
  AttentionArgs h = a;
  h.heads = 1;
  h.q += g * a.hsq;
  h.o += g * a.hso;
  if (a.mask) h.mask += g * a.hsm;
  if (a.weights) h.weights += g * a.hsw;
  return h;
}

#if defined(__wasm_simd128__)
// exp(x) lane by lane as exp_f32 computes it, for the x a softmax row feeds it (a score minus the row max:
// <= 0, -inf or NaN), in fewer operations, each lane giving exp_f32's bits:
// - no clamp to [kMinArg, kMaxArg]: x <= 0, and below kMinArg (-inf included) the lane is cleared at the end
//   whatever the reduction made of it (exp_f32 clamps, then flushes those lanes to 0 too). The clamp was
//   f32x4.max, which V8 lowers to ~8 x86 instructions for its NaN and ±0 rules;
// - 2^k for the integer-valued k in [-126, 0] from the low bits of k + (1.5·2^23 + 127): that sum is exact
//   and its bits are 0x4B400000 + k + 127, so shifting them left by 23 leaves (k + 127) << 23, the float
//   2^k, as exp_f32's trunc_sat(k) + 127 does (i32x4.trunc_sat takes ~8 instructions in V8, the add 1);
// - one scaling by 2^k (k >= -126: 2^k is a normal float, and e·2^k gives the bits of exp_f32's two).
inline v128_t exp_nonpositive(v128_t v) {
  const v128_t mina = wasm_f32x4_splat(expf_cephes::kMinArg);
  v128_t k;
  v128_t e = exp_reduced_lanes(v, k);
  const v128_t pow2k = wasm_i32x4_shl(wasm_f32x4_add(k, wasm_f32x4_splat(12583039.0f)), 23);
  e = wasm_v128_andnot(wasm_f32x4_mul(e, pow2k), wasm_f32x4_lt(v, mina));  // 0 below kMinArg
  return wasm_v128_bitselect(v, e, wasm_f32x4_ne(v, v));                   // NaN stays NaN
}
#endif

// s[c] = exp(s[c]·sc − mx) for c < n, in place; returns their sum (4 lane sums, then the tail). One pass
// in WASM; the native build runs the passes it fuses (scale and shift, exp_f32, sum), its reference,
// with the same roundings in the same order: the same bits.
float exp_shifted_sum(float* s, int64_t n, float sc, float mx) {
  const f32x4 scv = simd::splat(sc), mxv = simd::splat(mx);
  f32x4 sv = simd::zero();
  int64_t c = 0;
#if defined(__wasm_simd128__)
  for (; c + 4 <= n; c += 4) {
    const f32x4 e = exp_nonpositive(simd::sub(simd::mul(simd::load(s + c), scv), mxv));
    simd::store(s + c, e);
    sv = simd::add(sv, e);
  }
  float sum = simd::hsum(sv);
  for (; c < n; ++c) {
    s[c] = s[c] * sc - mx;
    exp_f32(s + c, s + c, 1);
    sum += s[c];
  }
#else
  for (; c + 4 <= n; c += 4) simd::store(s + c, simd::sub(simd::mul(simd::load(s + c), scv), mxv));
  for (; c < n; ++c) s[c] = s[c] * sc - mx;
  exp_f32(s, s, n);
  for (c = 0; c + 4 <= n; c += 4) sv = simd::add(sv, simd::load(s + c));
  float sum = simd::hsum(sv);
  for (; c < n; ++c) sum += s[c];
#endif
  return sum;
}

// The max of s[0:n], NaN once any is NaN (as max_keeping_nan). In WASM the lanes take f32x4.pmax (one
// maxps in V8; f32x4.max, which keeps NaN, is ~8 instructions) and a NaN flag, since pmax may skip a NaN.
// pmax may keep -0 where max gives +0 on equal zeros: the row max is only subtracted from scores, and
// exp(±0) = 1, so the probabilities are the same bits.
float row_max(const float* s, int64_t n) {
  int64_t c = 0;
#if defined(__wasm_simd128__)
  v128_t mv = wasm_f32x4_splat(kNegInf), nan = wasm_i32x4_splat(0);
  for (; c + 4 <= n; c += 4) {
    const v128_t x = wasm_v128_load(s + c);
    mv = wasm_f32x4_pmax(mv, x);
    nan = wasm_v128_or(nan, wasm_f32x4_ne(x, x));
  }
  if (wasm_v128_any_true(nan)) return std::numeric_limits<float>::quiet_NaN();
  const f32x4 m4 = mv;
#else
  f32x4 m4 = simd::splat(kNegInf);
  for (; c + 4 <= n; c += 4) m4 = simd::max(m4, simd::load(s + c));
#endif
  float mx = max_keeping_nan(max_keeping_nan(simd::lane<0>(m4), simd::lane<1>(m4)),
                             max_keeping_nan(simd::lane<2>(m4), simd::lane<3>(m4)));
  for (; c < n; ++c) mx = max_keeping_nan(mx, s[c]);
  return mx;
}

// Rows i0..i0+bq-1 of one head against keys j0..j0+bk-1, online softmax: S holds the tile's Q Kᵀ on
// entry and its unnormalised probabilities on exit; each row's running max m, sum l and accumulated
// output acc are rescaled to the new max, so that acc += S V then finishes the step.
// Under the causal mask a row sees keys j <= q0 + i, a prefix of the tile. Without an additive mask and
// with a positive scale (the model's case), the max is taken on the raw scores and scaled once
// (rounding is monotonic: the same float as the max of the scaled scores), and scaling, shifting, exp and
// the sum are one pass (exp_shifted_sum); otherwise the scores are scaled and masked first. The scalar
// form is masked() and attention_ref's row.
void online_softmax_tile(const AttentionArgs& a, float* S, int64_t i0, int64_t bq, int64_t j0, int64_t bk,
                         float* m, float* l, float* acc) {
  const bool raw = !a.mask && a.scale > 0.0f;
  const f32x4 scale = simd::splat(a.scale);
  for (int64_t r = 0; r < bq; ++r) {
    const int64_t i = i0 + r;
    float* s = S + r * kTileK;
    const int64_t visible = a.causal ? std::clamp<int64_t>(a.q0 + i - j0 + 1, 0, bk) : bk;
    int64_t c = visible;
    for (; c < bk; ++c) s[c] = kNegInf;
    float mx;
    if (raw) {
      mx = row_max(s, visible) * a.scale;
    } else {
      for (c = 0; c + 4 <= visible; c += 4) simd::store(s + c, simd::mul(simd::load(s + c), scale));
      for (; c < visible; ++c) s[c] *= a.scale;
      if (a.mask) {
        const float* mk = a.mask + i * a.rsm + j0 * a.csm;
        for (c = 0; c < visible; ++c) s[c] += mk[c * a.csm];
      }
      mx = row_max(s, bk);
    }
    mx = max_keeping_nan(m[r], mx);
    if (mx == kNegInf) {  // nothing visible yet in this row: contributes nothing
      std::fill(s, s + bk, 0.0f);
      continue;
    }
    // Rescale what was accumulated under the old max to the new one.
    const float alpha = std::exp(m[r] - mx);  // exp(-inf) = 0 on the first visible tile
    // exp(-inf) = 0 for masked entries.
    l[r] = l[r] * alpha + exp_shifted_sum(s, bk, raw ? a.scale : 1.0f, mx);
    m[r] = mx;
    if (alpha != 1.0f) {
      float* o = acc + r * a.dv;
      const f32x4 av = simd::splat(alpha);
      for (c = 0; c + 4 <= a.dv; c += 4) simd::store(o + c, simd::mul(simd::load(o + c), av));
      for (; c < a.dv; ++c) o[c] *= alpha;
    }
  }
}

}  // namespace

// The tiled path (no weights asked): per query tile and head, Q packed once (packed::, sgemm's packing
// and tile) for every key tile; each key tile's K and V packed once for every query tile and every head of
// the group. Calling sgemm per tile product instead packed the Q tile once per key tile and K and V once per
// head: at Qwen3-0.6B's shape (d = 128, 2 heads a group) attention ran at 0.38 of the projections' GFLOPS.
// K and V packed once per query tile (and V again for each diagonal run) were 1.4% of a 1024-token forward's
// samples (pack_b_f32, V8 --cpu-prof, 4 layers). Packed once per call, causal GQA attention (16 heads over 8,
// T x 128, the forward's [T, heads, 128] layout) takes 0.96 of the CPU time at T = 1024, 0.98 at 512 (medians of
// 8 alternated runs, AMD Zen 5, load 6-8; 0.98 and 0.99 over 16 at load 2.5), for the packed copy: sk x (d + dv)
// floats, a group's share of the KV cache. In the profile pack_b_f32 went from 0.70% to 0.09% of the samples.
void attention_f32(const AttentionArgs& a) {
  TP_ASSERT(a.sq >= 0 && a.sk >= 0 && a.d >= 0 && a.dv >= 0 && a.heads >= 1);
  if (a.sq == 0 || a.dv == 0) return;
  if (a.weights) {  // each head's (sq,sk) matrix is written anyway: sharing K/V tiles would save little
    for (int64_t g = 0; g < a.heads; ++g) attention_with_weights(head(a, g));
    return;
  }

  const int64_t G = a.heads;
  // Q Kᵀ from packed operands needs its depth d within one k block of sgemm; deeper heads (none of the
  // models we run) take sgemm per tile.
  const bool prepacked = a.d > 0 && a.d <= packed::kMaxDepth;
  const int64_t qp_size = prepacked ? packed::a_floats(kTileQ, a.d) : 0;
  std::vector<float> S(kTileQ * kTileK);            // scores, then probabilities, of one tile
  std::vector<float> acc(G * kTileQ * a.dv);        // unnormalised output rows of the query tile, per head
  std::vector<float> m(G * kTileQ), l(G * kTileQ);  // running row max and row sum of exp(s - m), per head
  // Causal, keys past the last query are never visited. Key tile t is packed whole (its keys below kmax) on its
  // first visit: K as a B of kTileK columns (a product of fewer columns reads its first strips), V to the tile's
  // depth (a shallower product reads each strip's first rows, packed::multiply's kb). Not zeroed: a decode step
  // (one query row, sk keys) writes each tile once, and zeroing would double that.
  const int64_t kmax = a.causal ? std::min(a.sk, a.q0 + a.sq) : a.sk, tiles = (kmax + kTileK - 1) / kTileK;
  const int64_t kp_size = prepacked ? packed::b_floats(a.d, kTileK) : 0, vp_size = packed::b_floats(kTileK, a.dv);
  std::unique_ptr<float[]> kp(new float[size_t(tiles * kp_size)]), vp(new float[size_t(tiles * vp_size)]);
  std::vector<float> qp(size_t(G * qp_size)), sp(size_t(packed::a_floats(kTileQ, kTileK)));
  int64_t packed_tiles = 0;  // tiles [0, packed_tiles) are packed: every query tile visits tiles from 0 up
  for (int64_t i0 = 0; i0 < a.sq; i0 += kTileQ) {
    const int64_t bq = std::min(kTileQ, a.sq - i0);
    std::fill(m.begin(), m.end(), kNegInf);
    std::fill(l.begin(), l.end(), 0.0f);
    std::fill(acc.begin(), acc.end(), 0.0f);
    if (prepacked)
      for (int64_t g = 0; g < G; ++g) packed::pack_a(bq, a.d, head(a, g).q + i0 * a.rsq, a.rsq, 1, qp.data() + g * qp_size);
    // Causal: keys past the tile's last query are masked for every row, so they are never visited.
    const int64_t kend = a.causal ? std::min(a.sk, a.q0 + i0 + bq) : a.sk;
    for (int64_t j0 = 0; j0 < kend; j0 += kTileK) {
      const int64_t bk = std::min(kTileK, kend - j0);
      const float* kt = a.k + j0 * a.rsk;
      const int64_t t = j0 / kTileK, depth = std::min(kTileK, kmax - j0);  // depth: keys packed
      float* kpt = kp.get() + t * kp_size;
      float* vpt = vp.get() + t * vp_size;
      if (t == packed_tiles) {
        // K's rows are read as Kᵀ's columns through the strides, not transposed first.
        if (prepacked) packed::pack_b(a.d, depth, kt, 1, a.rsk, kpt);
        packed::pack_b(depth, a.dv, a.v + j0 * a.rsv, a.rsv, 1, vpt);
        ++packed_tiles;
      }
      // Causal, a run of kDiagRows rows sees only the tile's first `cols` keys (diagonal_cols): those alone
      // are multiplied, the rest of its rows' scores would be masked.
      for (int64_t r0 = 0; r0 < bq; r0 += kDiagRows) {
        const int64_t r1 = std::min(bq, r0 + kDiagRows), rows = r1 - r0;
        const int64_t cols = a.causal ? diagonal_cols(a.q0 + i0 + r1 - j0, bk) : bk;
        // Every head of the group uses this K/V tile while it is in cache (grouped-query attention).
        for (int64_t g = 0; g < G; ++g) {
          const AttentionArgs h = head(a, g);
          float* accg = acc.data() + (g * kTileQ + r0) * a.dv;
          float* Sr = S.data() + r0 * kTileK;
          if (prepacked)  // S = Q_rows K_tileᵀ; rows r0.. start a strip of the packed Q
            packed::multiply(rows, cols, a.d, qp.data() + g * qp_size + packed::a_floats(r0, a.d), kpt, Sr, kTileK,
                             false);
          else
            sgemm(rows, cols, a.d, h.q + (i0 + r0) * a.rsq, a.rsq, 1, kt, 1, a.rsk, Sr, kTileK, false);
          tp::detail::call_out_of_line<&online_softmax_tile>(h, Sr, i0 + r0, rows, j0, cols, m.data() + g * kTileQ + r0,
                                                             l.data() + g * kTileQ + r0, accg);  // out_of_line.hpp
          packed::pack_a(rows, cols, Sr, kTileK, 1, sp.data());
          packed::multiply(rows, a.dv, cols, sp.data(), vpt, accg, a.dv, true, depth);  // acc += P V[0:cols]
        }
      }
    }
    for (int64_t g = 0; g < G; ++g)
      for (int64_t r = 0; r < bq; ++r) {
        float* out = a.o + g * a.hso + (i0 + r) * a.rso;
        const float* o = acc.data() + (g * kTileQ + r) * a.dv;
        const float lr = l[g * kTileQ + r];
        const float inv = lr > 0.0f ? 1.0f / lr : 0.0f;  // a fully masked row reads nothing
        for (int64_t c = 0; c < a.dv; ++c) out[c] = o[c] * inv;
      }
  }
}

void attention_ref(const AttentionArgs& a) {
  if (a.heads > 1) {
    for (int64_t g = 0; g < a.heads; ++g) attention_ref(head(a, g));
    return;
  }
  std::vector<double> p(a.sk);
  for (int64_t i = 0; i < a.sq; ++i) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < a.sk; ++j) {
      double s = 0;
      for (int64_t t = 0; t < a.d; ++t) s += double(a.q[i * a.rsq + t]) * a.k[j * a.rsk + t];
      s *= a.scale;
      if (a.mask) s += a.mask[i * a.rsm + j * a.csm];
      if (a.causal && j > a.q0 + i) s = -std::numeric_limits<double>::infinity();
      p[j] = s;
      mx = max_keeping_nan(mx, s);
    }
    double sum = 0;
    for (int64_t j = 0; j < a.sk; ++j) {
      p[j] = mx == -std::numeric_limits<double>::infinity() ? 0.0 : std::exp(p[j] - mx);
      sum += p[j];
    }
    for (int64_t j = 0; j < a.sk; ++j) {
      p[j] = sum > 0 ? p[j] / sum : 0.0;
      if (a.weights) a.weights[i * a.sk + j] = float(p[j]);
    }
    for (int64_t c = 0; c < a.dv; ++c) {
      double o = 0;
      for (int64_t j = 0; j < a.sk; ++j) o += p[j] * a.v[j * a.rsv + c];
      a.o[i * a.rso + c] = float(o);
    }
  }
}

}  // namespace tp::kernels
