// Tensor-level LLM blocks: validation, broadcasting over leading dims, then the raw kernels.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "tensorpad/gemm.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/ops.hpp"

namespace tp::nn {

namespace {

Shape leading(const Tensor& t) { return Shape(t.shape().begin(), t.shape().end() - 2); }

// Element offset of flat batch index b in a view whose first nb dims are the batch dims. With group > 1
// the view has batch.back() / group heads in its last batch dim, and query head h reads head h / group
// (grouped-query attention: K/V heads are shared in place, not repeated).
int64_t batch_offset(const Tensor& t, const Shape& batch, int64_t b, int64_t group = 1) {
  int64_t off = 0;
  for (int64_t d = int64_t(batch.size()) - 1; d >= 0; --d) {
    int64_t i = b % batch[d];
    if (d == int64_t(batch.size()) - 1) i /= group;
    off += i * t.strides()[d];
    b /= batch[d];
  }
  return off;
}

// How many query heads share one head of K (or V) along dim -3: Hq / Hkv when the head counts differ
// and neither is 1 (a 1 broadcasts, which already is multi-query attention), else 1. Only with
// enable_gqa, like torch: a silent grouping of, say, a batch dim would hide a shape mistake.
int64_t kv_group(const char* op, const Tensor& q, const Tensor& t, const char* what, bool enable_gqa) {
  if (q.dim() < 3 || t.dim() < 3) return 1;
  const int64_t hq = q.size(-3), hkv = t.size(-3);
  if (hq == hkv || hq <= 1 || hkv <= 1) return 1;  // 0 heads: broadcasting decides
  if (!enable_gqa)
    fail(op, "dim -3 of Q ", q.shape(), " and of ", what, " ", t.shape(), " (", hq, " vs ", hkv,
         ") do not broadcast; if they are attention heads, pass enableGqa: true for grouped-query attention");
  if (hq % hkv != 0)
    fail(op, "query heads ", hq, " not divisible by ", what, " heads ", hkv, " (Q ", q.shape(),
         ", ", what, " ", t.shape(), ")");
  return hq / hkv;
}

// Contiguous rows: the kernels read rows at a stride but columns at stride 1.
Tensor rows_ready(const Tensor& t) { return t.strides().back() == 1 ? t : t.contiguous(); }

// x as a contiguous (rows, d) buffer for the row kernels.
Tensor last_dim_rows(const char* op, const Tensor& x) {
  if (x.dim() < 1) fail(op, "expects at least a 1-d tensor, got a 0-d tensor");
  return x.contiguous();
}

void check_vector(const char* op, const char* what, const Tensor& v, int64_t d) {
  if (v.dim() != 1 || v.size(0) != d)
    fail(op, what, " must have shape [", d, "] (the last dim of x), got ", v.shape());
}

}  // namespace

AttentionResult scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                             const AttentionOptions& opts) {
  // Q is [..., Hq, Sq, D], K is [..., Hkv, Sk, D], V is [..., Hkv, Sk, Dv], out is [..., Hq, Sq, Dv]
  // (Hkv = Hq, 1, or a divisor of Hq; leading dims broadcast).
  const char* op = "nn.scaledDotProductAttention";
  if (q.dim() < 2 || k.dim() < 2 || v.dim() < 2)
    fail(op, "Q, K, V must be at least 2-d [..., S, D], got ", q.shape(), ", ",
         k.shape(), ", ", v.shape());
  const int64_t sq = q.size(-2), d = q.size(-1), sk = k.size(-2), dv = v.size(-1);
  if (k.size(-1) != d)
    fail(op, "Q ", q.shape(), " and K ", k.shape(), " differ in the last dim (", d,
         " != ", k.size(-1), ")");
  if (v.size(-2) != sk)
    fail(op, "K ", k.shape(), " and V ", v.shape(), " differ in the key count (", sk,
         " != ", v.size(-2), ")");
  // Grouped-query attention: for broadcasting, a K/V head dim counts as Hq; it is read at h / group.
  const bool same_heads = k.dim() >= 3 && v.dim() >= 3 && k.size(-3) == v.size(-3);
  const int64_t gk = kv_group(op, q, k, same_heads ? "key/value" : "key", opts.enable_gqa);
  const int64_t gv = kv_group(op, q, v, same_heads ? "key/value" : "value", opts.enable_gqa);
  auto grouped_leading = [](const Tensor& t, int64_t group) {
    Shape s = leading(t);
    if (group > 1) s.back() *= group;
    return s;
  };
  Shape batch = broadcast_shapes(op, broadcast_shapes(op, leading(q), grouped_leading(k, gk)),
                                 grouped_leading(v, gv));
  float scale = d > 0 ? float(1.0 / std::sqrt(double(d))) : 1.0f;
  if (opts.scale) {
    if (!std::isfinite(*opts.scale)) fail(op, "scale must be finite, got ", *opts.scale);
    scale = *opts.scale;
  }
  Tensor mask;
  if (opts.mask) {
    const Tensor& m = *opts.mask;
    Shape full = batch;
    full.push_back(sq);
    full.push_back(sk);
    // The mask may carry batch dims of its own (e.g. one mask per sequence): they join the batch.
    if (m.dim() > int64_t(full.size())) {
      Shape mlead(m.shape().begin(), m.shape().end() - 2);
      batch = broadcast_shapes(op, batch, mlead);
      full = batch;
      full.push_back(sq);
      full.push_back(sk);
    }
    const Shape merged = broadcast_shapes(op, full, m.shape());
    if (merged != full)
      fail(op, "mask ", m.shape(), " does not broadcast to the scores ", full);
    mask = expand(m, full);
  }
  // Views of Q, K, V over the whole batch (strides 0 where they broadcast); grouped K/V keep their
  // Hkv heads in the last batch dim.
  auto with_batch = [&](const Tensor& t, int64_t a, int64_t b, int64_t group) {
    Shape s = batch;
    if (group > 1) s.back() /= group;
    s.push_back(a);
    s.push_back(b);
    return expand(rows_ready(t), s);
  };
  const Tensor qe = with_batch(q, sq, d, 1), ke = with_batch(k, sk, d, gk), ve = with_batch(v, sk, dv, gv);
  Shape oshape = batch;
  oshape.push_back(sq);
  oshape.push_back(dv);
  Tensor out = Tensor::empty(oshape);
  std::optional<Tensor> weights;
  if (opts.return_weights) {
    Shape wshape = batch;
    wshape.push_back(sq);
    wshape.push_back(sk);
    weights = Tensor::empty(wshape);
  }
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  // Consecutive query heads that read the same K head and the same V head (GQA groups, or all heads
  // when K/V broadcast over heads) go to the kernel together, which reads each K/V tile once for them.
  // K's runs have length hq (broadcast) or gk, V's hq or gv: a run of their gcd never crosses either.
  int64_t share = 1;
  if (!batch.empty()) {
    const int64_t hq = batch.back(), last = int64_t(batch.size()) - 1;
    const int64_t run_k = ke.strides()[last] == 0 ? hq : gk, run_v = ve.strides()[last] == 0 ? hq : gv;
    share = std::max<int64_t>(1, std::gcd(run_k, run_v));
  }
  for (int64_t b = 0; b < nb; b += share) {
    kernels::AttentionArgs a;
    a.sq = sq, a.sk = sk, a.d = d, a.dv = dv;
    a.q = qe.data() + batch_offset(qe, batch, b), a.rsq = qe.strides()[batch.size()];
    a.k = ke.data() + batch_offset(ke, batch, b, gk), a.rsk = ke.strides()[batch.size()];
    a.v = ve.data() + batch_offset(ve, batch, b, gv), a.rsv = ve.strides()[batch.size()];
    a.o = out.data() + b * sq * dv, a.rso = dv;
    a.scale = scale;
    a.causal = opts.causal;
    if (opts.mask) {
      a.mask = mask.data() + batch_offset(mask, batch, b);
      a.rsm = mask.strides()[batch.size()];
      a.csm = mask.strides()[batch.size() + 1];
    }
    if (weights) a.weights = weights->data() + b * sq * sk;
    a.heads = share;
    if (share > 1) {
      const size_t last = batch.size() - 1;
      a.hsq = qe.strides()[last], a.hso = sq * dv, a.hsw = sq * sk;
      if (opts.mask) a.hsm = mask.strides()[last];
    }
    kernels::attention_f32(a);
  }
  return {out, weights};
}

Tensor multi_head_attention(const Tensor& x, const Tensor& wq, const Tensor& wk, const Tensor& wv,
                            const Tensor& wo, const MultiHeadOptions& opts) {
  const char* op = "nn.multiHeadAttention";
  if (x.dim() < 2) fail(op, "X must be [..., n, dModel], got ", x.shape());
  const int64_t dm = x.size(-1), h = opts.heads;
  for (const Tensor* w : {&wq, &wk, &wv, &wo})
    if (w->dim() != 2) fail(op, "weights must be 2-d, got ", w->shape());
  if (wq.size(0) != dm || wk.size(0) != dm || wv.size(0) != dm)
    fail(op, "Wq, Wk, Wv must have ", dm, " rows (X's last dim), got ", wq.shape(), ", ",
         wk.shape(), ", ", wv.shape());
  if (h < 1) fail(op, "heads must be >= 1, got ", h);
  const int64_t kv = opts.kv_heads ? opts.kv_heads : h;
  if (kv < 1) fail(op, "kvHeads must be >= 1, got ", kv);
  if (h % kv != 0) fail(op, "heads ", h, " not divisible by kvHeads ", kv);
  if (kv == h) {  // the plain multi-head case keeps its messages
    if (wq.size(1) != wk.size(1))
      fail(op, "Wq ", wq.shape(), " and Wk ", wk.shape(), " must have the same width");
    if (wq.size(1) % h != 0 || wv.size(1) % h != 0)
      fail(op, "heads = ", h, " must divide the projection widths ", wq.size(1), " and ", wv.size(1));
  } else {
    if (wq.size(1) % h != 0) fail(op, "heads = ", h, " must divide Wq's width ", wq.size(1));
    if (wk.size(1) != kv * (wq.size(1) / h))
      fail(op, "Wk ", wk.shape(), " must have kvHeads*dh = ", kv, "*", wq.size(1) / h, " = ",
           kv * (wq.size(1) / h), " columns (dh from Wq ", wq.shape(), " and heads ", h, ")");
    if (wv.size(1) % kv != 0) fail(op, "kvHeads = ", kv, " must divide Wv's width ", wv.size(1));
  }
  const int64_t dh = wq.size(1) / h, dhv = wv.size(1) / kv;
  if (wo.size(0) != h * dhv)
    fail(op, "Wo ", wo.shape(), " must have ", h * dhv, " rows (the concatenated heads)");
  // [..., n, heads*width] -> [..., n, heads, width] -> [..., heads, n, width]: a view, the kernel reads
  // rows at a stride.
  auto split = [&](const Tensor& t, int64_t heads, int64_t width) {
    Shape s = t.shape();
    s.back() = heads;
    s.push_back(width);
    return transpose(reshape(t, s), -3, -2);
  };
  const Tensor Q = split(matmul(x, wq), h, dh), K = split(matmul(x, wk), kv, dh),
               V = split(matmul(x, wv), kv, dhv);
  AttentionOptions ao;
  ao.causal = opts.causal;
  // K, V have kv heads: grouped-query attention when kv < h (each K/V head serves h/kv query heads).
  ao.enable_gqa = kv != h;
  const Tensor C = scaled_dot_product_attention(Q, K, V, ao).output;  // [..., h, n, dhv]
  Shape cat_shape(x.shape().begin(), x.shape().end() - 1);
  cat_shape.push_back(h * dhv);
  const Tensor Ccat = reshape(transpose(C, -3, -2).contiguous(), cat_shape);
  return matmul(Ccat, wo);
}

Tensor layer_norm(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  float eps) {
  const char* op = "nn.layerNorm";
  const Tensor xc = last_dim_rows(op, x);
  const int64_t d = x.size(-1);
  if (!(eps >= 0) || !std::isfinite(eps)) fail(op, "eps must be finite and >= 0, got ", eps);
  Tensor w, b;
  if (weight) {
    check_vector(op, "weight", *weight, d);
    w = weight->contiguous();
  }
  if (bias) {
    check_vector(op, "bias", *bias, d);
    b = bias->contiguous();
  }
  Tensor y = Tensor::empty(x.shape());
  if (d > 0)
    kernels::layer_norm_f32(x.numel() / d, d, xc.data(), weight ? w.data() : nullptr,
                            bias ? b.data() : nullptr, eps, y.data());
  return y;
}

Tensor rms_norm(const Tensor& x, const std::optional<Tensor>& weight, float eps) {
  const char* op = "nn.rmsNorm";
  const Tensor xc = last_dim_rows(op, x);
  const int64_t d = x.size(-1);
  if (!(eps >= 0) || !std::isfinite(eps)) fail(op, "eps must be finite and >= 0, got ", eps);
  Tensor w;
  if (weight) {
    check_vector(op, "weight", *weight, d);
    w = weight->contiguous();
  }
  Tensor y = Tensor::empty(x.shape());
  if (d > 0) kernels::rms_norm_f32(x.numel() / d, d, xc.data(), weight ? w.data() : nullptr, eps, y.data());
  return y;
}

namespace {
template <class Kernel>
Tensor pointwise(const Tensor& x, Kernel kernel) {
  const Tensor xc = x.contiguous();
  Tensor y = Tensor::empty(x.shape());
  kernel(x.numel(), xc.data(), y.data());
  return y;
}
}  // namespace

Tensor relu(const Tensor& x) { return pointwise(x, kernels::relu_f32); }
Tensor silu(const Tensor& x) { return pointwise(x, kernels::silu_f32); }
Tensor gelu(const Tensor& x, const std::string& approximate) {
  if (approximate == "none" || approximate.empty()) return pointwise(x, kernels::gelu_erf_f32);
  if (approximate == "tanh") return pointwise(x, kernels::gelu_tanh_f32);
  fail("nn.gelu", "approximate must be 'none' (erf) or 'tanh', got '", approximate, "'");
}

namespace {
void check_rope(const char* op, int64_t dim, double theta) {
  if (dim <= 0 || dim % 2 != 0) fail(op, "dim must be even and positive (pairs of coordinates rotate), got ", dim);
  if (!(theta > 0) || !std::isfinite(theta)) fail(op, "theta must be finite and positive, got ", theta);
}
}  // namespace

Tensor rope_matrix(double pos, int64_t dim, double theta) {
  check_rope("nn.ropeMatrix", dim, theta);
  if (!std::isfinite(pos)) fail("nn.ropeMatrix", "pos must be finite, got ", pos);
  Tensor R = Tensor::empty({dim, dim});
  kernels::rope_matrix_f32(pos, dim, theta, R.data());
  return R;
}

Tensor apply_rope(const Tensor& x, const std::vector<double>& positions, double theta) {
  const char* op = "nn.applyRope";
  if (x.dim() < 1) fail(op, "x must be [..., n, dim] or [dim], got a 0-d tensor");
  const int64_t dim = x.size(-1);
  check_rope(op, dim, theta);
  const int64_t n = x.dim() >= 2 ? x.size(-2) : 1;
  if (int64_t(positions.size()) != n)
    fail(op, "positions has ", positions.size(), " entries but x ", x.shape(), " has ", n,
         " rows along dim -2");
  const Tensor xc = x.contiguous();
  const int64_t rows = x.numel() / dim;
  std::vector<double> pos(rows);
  for (int64_t r = 0; r < rows; ++r) pos[r] = positions[r % n];
  Tensor y = Tensor::empty(x.shape());
  kernels::apply_rope_f32(rows, dim, xc.data(), pos.data(), theta, y.data());
  return y;
}

}  // namespace tp::nn
