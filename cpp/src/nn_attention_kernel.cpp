// Fused scaled dot-product attention for one head, and its double-precision oracle.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "tensorpad/gemm.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/vmath.hpp"

namespace tp::kernels {

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();
// Query rows and key rows per tile: a 64x64 score tile plus a 64xDv accumulator stay in L1/L2.
constexpr int64_t kTileQ = 64;
constexpr int64_t kTileK = 64;

// The logit of (i, j) after scaling, the additive mask and the causal mask.
inline float masked(const AttentionArgs& a, float s, int64_t i, int64_t j) {
  if (a.causal && j > i) return kNegInf;
  s *= a.scale;
  if (a.mask) s += a.mask[i * a.rsm + j * a.csm];
  return s;
}

// Weights requested: the (sq,sk) matrix exists anyway, so compute it whole, softmax rows, then O = P V.
void attention_with_weights(const AttentionArgs& a) {
  float* P = a.weights;
  sgemm(a.sq, a.sk, a.d, a.q, a.rsq, 1, a.k, 1, a.rsk, P, a.sk, false);
  for (int64_t i = 0; i < a.sq; ++i) {
    float* row = P + i * a.sk;
    float mx = kNegInf;
    for (int64_t j = 0; j < a.sk; ++j) {
      row[j] = masked(a, row[j], i, j);
      mx = std::max(mx, row[j]);
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

}  // namespace

void attention_f32(const AttentionArgs& a) {
  TP_ASSERT(a.sq >= 0 && a.sk >= 0 && a.d >= 0 && a.dv >= 0);
  if (a.sq == 0 || a.dv == 0) return;
  if (a.weights) return attention_with_weights(a);

  std::vector<float> S(kTileQ * kTileK);      // scores, then probabilities, of one tile
  std::vector<float> acc(kTileQ * a.dv);      // unnormalised output rows of the query tile
  std::vector<float> m(kTileQ), l(kTileQ);    // running row max and row sum of exp(s - m)
  for (int64_t i0 = 0; i0 < a.sq; i0 += kTileQ) {
    const int64_t bq = std::min(kTileQ, a.sq - i0);
    std::fill(m.begin(), m.end(), kNegInf);
    std::fill(l.begin(), l.end(), 0.0f);
    std::fill(acc.begin(), acc.end(), 0.0f);
    // Causal: keys past the tile's last query are masked for every row, so they are never visited.
    const int64_t kend = a.causal ? std::min(a.sk, i0 + bq) : a.sk;
    for (int64_t j0 = 0; j0 < kend; j0 += kTileK) {
      const int64_t bk = std::min(kTileK, kend - j0);
      // S = Q_tile K_tileᵀ: K's rows are read as columns through the strides, not transposed.
      sgemm(bq, bk, a.d, a.q + i0 * a.rsq, a.rsq, 1, a.k + j0 * a.rsk, 1, a.rsk, S.data(), kTileK, false);
      for (int64_t r = 0; r < bq; ++r) {
        const int64_t i = i0 + r;
        float* s = S.data() + r * kTileK;
        float mx = m[r];
        for (int64_t c = 0; c < bk; ++c) {
          s[c] = masked(a, s[c], i, j0 + c);
          mx = std::max(mx, s[c]);
        }
        if (mx == kNegInf) {  // nothing visible yet in this row: contributes nothing
          std::fill(s, s + bk, 0.0f);
          continue;
        }
        // Online softmax: rescale what was accumulated under the old max to the new one.
        const float alpha = std::exp(m[r] - mx);  // exp(-inf) = 0 on the first visible tile
        for (int64_t c = 0; c < bk; ++c) s[c] -= mx;
        exp_f32(s, s, bk);  // vectorised; exp(-inf) = 0 for masked entries
        float sum = 0.0f;
        for (int64_t c = 0; c < bk; ++c) sum += s[c];
        l[r] = l[r] * alpha + sum;
        m[r] = mx;
        if (alpha != 1.0f) {
          float* o = acc.data() + r * a.dv;
          for (int64_t c = 0; c < a.dv; ++c) o[c] *= alpha;
        }
      }
      // acc += P_tile V_tile
      sgemm(bq, a.dv, bk, S.data(), kTileK, 1, a.v + j0 * a.rsv, a.rsv, 1, acc.data(), a.dv, true);
    }
    for (int64_t r = 0; r < bq; ++r) {
      float* out = a.o + (i0 + r) * a.rso;
      const float* o = acc.data() + r * a.dv;
      const float inv = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;  // a fully masked row reads nothing
      for (int64_t c = 0; c < a.dv; ++c) out[c] = o[c] * inv;
    }
  }
}

void attention_ref(const AttentionArgs& a) {
  std::vector<double> p(a.sk);
  for (int64_t i = 0; i < a.sq; ++i) {
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < a.sk; ++j) {
      double s = 0;
      for (int64_t t = 0; t < a.d; ++t) s += double(a.q[i * a.rsq + t]) * a.k[j * a.rsk + t];
      s *= a.scale;
      if (a.mask) s += a.mask[i * a.rsm + j * a.csm];
      if (a.causal && j > i) s = -std::numeric_limits<double>::infinity();
      p[j] = s;
      mx = std::max(mx, s);
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
