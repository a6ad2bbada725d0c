// Bindings of the LLM blocks (nn.hpp, quant.hpp) for wasm/js/nn.js: tp.nn, tp.linalg rotations,
// tp.quant, tp.lora, tp.synth. No math here. Handle 0 means "not given"; NaN means "use the default".
// Quantized tensors live in their own handle table (int8 storage stays in the heap for matmulInt8).
#include <cmath>

#include "handles.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/quant.hpp"
#include "tensorpad/random.hpp"

using emscripten::val;
using tp::Tensor;
using tpw::get;
using tpw::guard;
using tpw::put;

namespace {

int h(Tensor t) { return put(std::move(t)); }
std::optional<Tensor> opt(int id) { return id ? std::optional<Tensor>(get(id)) : std::nullopt; }

// ---- quantized tensors ----
tpw::Table<tp::quant::QTensor> g_quantized;
const tp::quant::QTensor& qget(int id) {
  const tp::quant::QTensor* q = g_quantized.find(id);
  if (!q) throw tp::Error("quant: this quantized tensor was disposed (use after dispose)");
  return *q;
}

using tpw::Args;
using R = tpw::Result;

// ---- nn ----
// (q, k, v, mask, scale, causal, weights, enableGqa) -> [output, weights or 0]
double sdpa(const Args& a) {
  tp::nn::AttentionOptions o;
  o.causal = a.b(5);
  o.enable_gqa = a.b(7);
  o.mask = a.opt(3);
  if (!std::isnan(a.d(4))) o.scale = float(a.d(4));
  o.return_weights = a.b(6);
  tp::nn::AttentionResult r = tp::nn::scaled_dot_product_attention(a.t(0), a.t(1), a.t(2), o);
  const double out = h(r.output);
  return tpw::list(std::vector<double>{out, r.weights ? double(h(*r.weights)) : 0.0});
}
// (x, wq, wk, wv, wo, heads, kvHeads, causal)
double mha(const Args& a) {
  tp::nn::MultiHeadOptions o;
  o.heads = a.i(5);
  o.kv_heads = a.i(6);  // 0: as many as heads
  o.causal = a.b(7);
  return h(tp::nn::multi_head_attention(a.t(0), a.t(1), a.t(2), a.t(3), a.t(4), o));
}
float eps_or(double eps, float fallback) { return std::isnan(eps) ? fallback : float(eps); }
double layer_norm(const Args& a) {
  return h(tp::nn::layer_norm(a.t(0), a.opt(1), a.opt(2), eps_or(a.d(3), 1e-5f)));
}
double rms_norm(const Args& a) { return h(tp::nn::rms_norm(a.t(0), a.opt(1), eps_or(a.d(2), 1e-6f))); }
double relu(const Args& a) { return h(tp::nn::relu(a.t(0))); }
double silu(const Args& a) { return h(tp::nn::silu(a.t(0))); }
int gelu(int x, std::string approximate) { return guard([&] { return h(tp::nn::gelu(get(x), approximate)); }); }
double rope_matrix(const Args& a) { return h(tp::nn::rope_matrix(a.d(0), a.i64(1), a.d(2))); }
double apply_rope(const Args& a) { return h(tp::nn::apply_rope(a.t(0), a.doubles(1), a.d(2))); }

// ---- linalg rotations ----
double hadamard(const Args& a) { return h(tp::linalg::hadamard(a.i64(0))); }
double fwht(const Args& a) { return h(tp::linalg::fwht(a.t(0), a.i64(1))); }
// (n, seed, seeded)
double random_orthogonal(const Args& a) {
  const uint64_t s = a.b(2) ? uint64_t(a.d(1)) : tp::global_rng().next_u64();
  return h(tp::linalg::random_orthogonal(a.i64(0), s));
}
double block_diag(const Args& a) { return h(tp::linalg::block_diag(a.tensors(0))); }

// ---- quant ----
double fake_quant(const Args& a) { return h(tp::quant::fake_quant(a.t(0), a.i(1), a.b(2))); }
double rel_error(const Args& a) { return tp::quant::rel_error(a.t(0), a.t(1)); }
double quantize(const Args& a) { return g_quantized.put(tp::quant::quantize(a.t(0), a.i(1), a.b(2))); }
double q_release(const Args& a) {
  g_quantized.release(a.i(0));
  return 0;
}
double q_live(const Args&) { return g_quantized.live(); }
// Bytes held by the live quantized tensors (levels and scales), for tp.memory().
double q_live_bytes(const Args&) {
  double n = 0;
  g_quantized.each([&](int, const tp::quant::QTensor& q) { n += double(q.q.size()) + 4.0 * double(q.scale.size()); });
  return n;
}
double q_shape(const Args& a) {
  return tpw::list(qget(a.i(0)).shape);
}
val q_levels(int id) {
  return guard([&] {
    const auto& q = qget(id);
    return val(emscripten::typed_memory_view(q.q.size(), q.q.data())).call<val>("slice");
  });
}
double q_scale(const Args& a) { return h(qget(a.i(0)).scale_tensor()); }
double q_dequantize(const Args& a) { return h(qget(a.i(0)).dequantize()); }
double matmul_int8(const Args& a) { return h(tp::quant::matmul_int8(qget(a.i(0)), qget(a.i(1)))); }

// ---- lora, synth ----
double lora_params(const Args& a) { return double(tp::lora::params(a.i64(0), a.i64(1), a.i64(2))); }
// (w, a, b, alpha, r): NaN alpha or r is the default
double lora_merge(const Args& a) {
  std::optional<double> al = std::isnan(a.d(3)) ? std::nullopt : std::optional<double>(a.d(3));
  std::optional<int64_t> rr = std::isnan(a.d(4)) ? std::nullopt : std::optional<int64_t>(a.i64(4));
  return h(tp::lora::merge(a.t(0), a.t(1), a.t(2), al, rr));
}
// (tokens, dim, outliers, outlierScale, seed)
double synth_activations(const Args& a) {
  tp::synth::ActivationOptions o;
  o.tokens = a.i64(0);
  o.dim = a.i64(1);
  o.outliers = a.i64(2);
  o.outlier_scale = float(a.d(3));
  o.seed = uint64_t(a.d(4));
  return h(tp::synth::activations(o));
}

// Arguments in the order JS passes them.
const tpw::OpRow kRows[] = {
    {"nnAttention", R::List, sdpa},
    {"nnMultiHeadAttention", R::Number, mha},
    {"nnLayerNorm", R::Number, layer_norm},
    {"nnRmsNorm", R::Number, rms_norm},
    {"nnRelu", R::Number, relu},
    {"nnSilu", R::Number, silu},
    {"nnRopeMatrix", R::Number, rope_matrix},
    {"nnApplyRope", R::Number, apply_rope},
    {"linalgHadamard", R::Number, hadamard},
    {"linalgFwht", R::Number, fwht},
    {"linalgRandomOrthogonal", R::Number, random_orthogonal},
    {"linalgBlockDiag", R::Number, block_diag},
    {"quantFakeQuant", R::Number, fake_quant},
    {"quantRelError", R::Number, rel_error},
    {"quantQuantize", R::Number, quantize},
    {"quantRelease", R::Number, q_release},
    {"quantLive", R::Number, q_live},
    {"quantLiveBytes", R::Number, q_live_bytes},
    {"quantShape", R::List, q_shape},
    {"quantScale", R::Number, q_scale},
    {"quantDequantize", R::Number, q_dequantize},
    {"quantMatmulInt8", R::Number, matmul_int8},
    {"loraParams", R::Number, lora_params},
    {"loraMerge", R::Number, lora_merge},
    {"synthActivations", R::Number, synth_activations},
};
const tpw::OpRows kAdded(kRows);

}  // namespace

// A string argument, a typed-array result: embind functions of their own.
EMSCRIPTEN_BINDINGS(tensorpad_nn) {
  using emscripten::function;
  function("nnGelu", &gelu);
  function("quantLevels", &q_levels);
}
