// Tensor-level rotations (Hadamard, FWHT, random orthogonal, block diagonal), LoRA and synthetic activations.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>
#include <vector>

#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/random.hpp"

namespace tp::linalg {

namespace {
bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }
}  // namespace

Tensor hadamard(int64_t n) {
  if (!is_pow2(n))
    fail("linalg.hadamard", "n must be a power of 2 (Sylvester's construction doubles the size), got ", n);
  if (n > (int64_t(1) << 14)) fail("linalg.hadamard", "n = ", n, " is too large for a dense matrix (max 16384)");
  Tensor H = Tensor::empty({n, n});
  kernels::hadamard_f32(n, H.data());
  return H;
}

Tensor fwht(const Tensor& x, int64_t block) {
  if (x.dim() < 1) fail("linalg.fwht", "x must be [..., d], got a 0-d tensor");
  const int64_t d = x.size(-1);
  if (d == 0 && block == 0) return x.clone();  // no values to transform
  if (block == 0) block = d;
  if (!is_pow2(block))
    fail("linalg.fwht", "block must be a power of 2, got ", block, block == d ? " (the last dim of x)" : "");
  if (d % block != 0) fail("linalg.fwht", "block ", block, " must divide the last dim ", d, " of ", x.shape());
  Tensor y = x.clone();
  kernels::fwht_f32(d ? y.numel() / d : 0, d, block, y.data());
  return y;
}

Tensor random_orthogonal(int64_t n, uint64_t seed) {
  if (n < 1) fail("linalg.randomOrthogonal", "n must be >= 1, got ", n);
  if (n > 4096) fail("linalg.randomOrthogonal", "n = ", n, " is too large (max 4096)");
  Rng rng(seed);
  std::vector<float> g(size_t(n * n)), r(size_t(n * n));
  rng.fill_normal(g.data(), n * n);
  Tensor Q = Tensor::empty({n, n});
  qr(g.data(), n, n, Q.data(), r.data());  // Householder QR (linalg.hpp)
  // Sign fix: QR is unique only up to the signs of R's diagonal; making them positive gives Q the Haar
  // distribution (Mezzadri 2007) and the same Q as Gram-Schmidt would.
  for (int64_t j = 0; j < n; ++j)
    if (r[size_t(j * n + j)] < 0)
      for (int64_t i = 0; i < n; ++i) Q.data()[i * n + j] = -Q.data()[i * n + j];
  return Q;
}

Tensor block_diag(const std::vector<Tensor>& mats) {
  // As torch.block_diag: a 0-d block is 1 x 1 and a 1-d block of n values one row of n.
  std::vector<std::pair<int64_t, int64_t>> sizes;
  int64_t rows = 0, cols = 0;
  for (size_t i = 0; i < mats.size(); ++i) {
    const Tensor& m = mats[i];
    if (m.dim() > 2) fail("linalg.blockDiag", "block ", i, " must have at most 2 dims, got ", m.shape());
    sizes.emplace_back(m.dim() == 2 ? m.size(0) : 1, m.dim() == 2 ? m.size(1) : m.dim() == 1 ? m.size(0) : 1);
    rows += sizes.back().first;
    cols += sizes.back().second;
  }
  Tensor out = Tensor::zeros({rows, cols});
  int64_t r0 = 0, c0 = 0;
  for (size_t b = 0; b < mats.size(); ++b) {
    const Tensor mc = mats[b].contiguous();
    const auto [r, c] = sizes[b];
    for (int64_t i = 0; i < r; ++i) std::copy(mc.data() + i * c, mc.data() + (i + 1) * c, out.data() + (r0 + i) * cols + c0);
    r0 += r;
    c0 += c;
  }
  return out;
}

}  // namespace tp::linalg

namespace tp::lora {

int64_t params(int64_t d_out, int64_t d_in, int64_t r) {
  if (d_out < 1 || d_in < 1 || r < 1)
    fail("lora.params", "dOut, dIn and r must be >= 1, got ", d_out, ", ", d_in, ", ", r);
  return r * (d_in + d_out);
}

Tensor merge(const Tensor& w, const Tensor& a, const Tensor& b, std::optional<double> alpha,
             std::optional<int64_t> r) {
  const char* op = "lora.merge";
  if (w.dim() != 2 || a.dim() != 2 || b.dim() != 2)
    fail(op, "W, A, B must be 2-d, got ", w.shape(), ", ", a.shape(), ", ",
         b.shape());
  const int64_t d_out = w.size(0), d_in = w.size(1), rank = a.size(0);
  if (a.size(1) != d_in)
    fail(op, "A ", a.shape(), " must be (r, dIn) with dIn = ", d_in, " (W is ", w.shape(), ")");
  if (b.size(0) != d_out || b.size(1) != rank)
    fail(op, "B ", b.shape(), " must be (dOut, r) = [", d_out, ", ", rank, "]");
  const int64_t rr = r ? *r : rank;
  if (rr < 1) fail(op, "r must be >= 1, got ", rr);
  const double al = alpha ? *alpha : double(rr);
  if (!std::isfinite(al)) fail(op, "alpha must be finite, got ", al);
  const float s = float(al / double(rr));
  Tensor out = w.clone();
  // out += (s B) A: scale the thin factor, not the big product.
  Tensor bs = b.clone();
  for (int64_t i = 0; i < bs.numel(); ++i) bs.data()[i] *= s;
  const Tensor ac = a.contiguous();
  kernels::sgemm(d_out, d_in, rank, bs.data(), rank, 1, ac.data(), d_in, 1, out.data(), d_in, true);
  return out;
}

}  // namespace tp::lora

namespace tp::synth {

Tensor activations(const ActivationOptions& o) {
  const char* op = "synth.activations";
  if (o.tokens < 1 || o.dim < 1) fail(op, "tokens and dim must be >= 1, got ", o.tokens, ", ", o.dim);
  if (o.outliers < 0 || o.outliers > o.dim)
    fail(op, "outliers must be in [0, dim = ", o.dim, "], got ", o.outliers);
  if (!std::isfinite(o.outlier_scale) || o.outlier_scale < 0)
    fail(op, "outlierScale must be finite and >= 0, got ", o.outlier_scale);
  const int64_t T = o.tokens, D = o.dim;
  Rng rng(o.seed);
  // Draw order is part of the definition: channel scales, then the body, then outlier choice and signs.
  std::vector<float> g(D);
  rng.fill_normal(g.data(), D);
  Tensor x = Tensor::empty({T, D});
  rng.fill_normal(x.data(), T * D);  // z[t,c]
  // Outlier channels: a partial Fisher-Yates shuffle picks `outliers` distinct channels.
  std::vector<int64_t> ch(D);
  std::iota(ch.begin(), ch.end(), 0);
  for (int64_t kk = 0; kk < o.outliers; ++kk) {
    const int64_t j = kk + int64_t(rng.next_u64() % uint64_t(D - kk));
    std::swap(ch[kk], ch[j]);
  }
  // Per channel: a multiplier of z and an offset; ordinary channels are s_c z, outliers σ m (1 + 0.1 z).
  std::vector<float> mul(D), add(D, 0.0f);
  for (int64_t c = 0; c < D; ++c) mul[c] = float(std::exp(0.3 * double(g[c])));
  for (int64_t kk = 0; kk < o.outliers; ++kk) {
    const float sign = (rng.next_u64() & 1) ? 1.0f : -1.0f;
    const float m = o.outlier_scale / (1.0f + 0.5f * float(kk));
    add[ch[kk]] = sign * m;
    mul[ch[kk]] = sign * m * 0.1f;
  }
  float* p = x.data();
  for (int64_t t = 0; t < T; ++t)
    for (int64_t c = 0; c < D; ++c) p[t * D + c] = add[c] + mul[c] * p[t * D + c];
  return x;
}

}  // namespace tp::synth
