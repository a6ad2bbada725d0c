// Embind bindings of the LLM blocks (nn.hpp, quant.hpp) for wasm/js/nn.js: tp.nn, tp.linalg rotations,
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

// ---- nn ----
val sdpa(int q, int k, int v, int mask, double scale, bool causal, bool weights, bool enable_gqa) {
  return guard([&] {
    tp::nn::AttentionOptions o;
    o.causal = causal;
    o.enable_gqa = enable_gqa;
    o.mask = opt(mask);
    if (!std::isnan(scale)) o.scale = float(scale);
    o.return_weights = weights;
    tp::nn::AttentionResult r = tp::nn::scaled_dot_product_attention(get(q), get(k), get(v), o);
    val out = val::array();
    out.set(0, h(r.output));
    out.set(1, r.weights ? h(*r.weights) : 0);
    return out;
  });
}
int mha(int x, int wq, int wk, int wv, int wo, int heads, int kv_heads, bool causal) {
  return guard([&] {
    tp::nn::MultiHeadOptions o;
    o.heads = heads;
    o.kv_heads = kv_heads;  // 0: as many as heads
    o.causal = causal;
    return h(tp::nn::multi_head_attention(get(x), get(wq), get(wk), get(wv), get(wo), o));
  });
}
int layer_norm(int x, int w, int b, double eps) {
  return guard([&] { return h(tp::nn::layer_norm(get(x), opt(w), opt(b), std::isnan(eps) ? 1e-5f : float(eps))); });
}
int rms_norm(int x, int w, double eps) {
  return guard([&] { return h(tp::nn::rms_norm(get(x), opt(w), std::isnan(eps) ? 1e-6f : float(eps))); });
}
int relu(int x) { return guard([&] { return h(tp::nn::relu(get(x))); }); }
int silu(int x) { return guard([&] { return h(tp::nn::silu(get(x))); }); }
int gelu(int x, std::string approximate) { return guard([&] { return h(tp::nn::gelu(get(x), approximate)); }); }
int rope_matrix(double pos, double dim, double theta) {
  return guard([&] { return h(tp::nn::rope_matrix(pos, int64_t(dim), theta)); });
}
int apply_rope(int x, val positions, double theta) {
  return guard([&] { return h(tp::nn::apply_rope(get(x), emscripten::vecFromJSArray<double>(positions), theta)); });
}

// ---- linalg rotations ----
int hadamard(double n) { return guard([&] { return h(tp::linalg::hadamard(int64_t(n))); }); }
int fwht(int x, double block) { return guard([&] { return h(tp::linalg::fwht(get(x), int64_t(block))); }); }
int random_orthogonal(double n, double seed, bool seeded) {
  return guard([&] {
    const uint64_t s = seeded ? uint64_t(seed) : tp::global_rng().next_u64();
    return h(tp::linalg::random_orthogonal(int64_t(n), s));
  });
}
int block_diag(val ids) { return guard([&] { return h(tp::linalg::block_diag(tpw::to_tensors(ids))); }); }

// ---- quant ----
int fake_quant(int x, int bits, bool per_row) { return guard([&] { return h(tp::quant::fake_quant(get(x), bits, per_row)); }); }
double rel_error(int a, int b) { return guard([&] { return tp::quant::rel_error(get(a), get(b)); }); }
int quantize(int x, int bits, bool per_row) {
  return guard([&] {
    tp::quant::QTensor q = tp::quant::quantize(get(x), bits, per_row);
    return g_quantized.put(std::move(q));
  });
}
void q_release(int id) { g_quantized.release(id); }
int q_live() { return g_quantized.live(); }
// Bytes held by the live quantized tensors (levels and scales), for tp.memory().
double q_live_bytes() {
  double n = 0;
  g_quantized.each([&](int, const tp::quant::QTensor& q) { n += double(q.q.size()) + 4.0 * double(q.scale.size()); });
  return n;
}
val q_shape(int id) { return guard([&] { return tpw::from_shape(qget(id).shape); }); }
val q_levels(int id) {
  return guard([&] {
    const auto& q = qget(id);
    return val(emscripten::typed_memory_view(q.q.size(), q.q.data())).call<val>("slice");
  });
}
int q_scale(int id) { return guard([&] { return h(qget(id).scale_tensor()); }); }
int q_dequantize(int id) { return guard([&] { return h(qget(id).dequantize()); }); }
int matmul_int8(int a, int b) { return guard([&] { return h(tp::quant::matmul_int8(qget(a), qget(b))); }); }

// ---- lora, synth ----
double lora_params(double d_out, double d_in, double r) {
  return guard([&] { return double(tp::lora::params(int64_t(d_out), int64_t(d_in), int64_t(r))); });
}
int lora_merge(int w, int a, int b, double alpha, double r) {
  return guard([&] {
    std::optional<double> al = std::isnan(alpha) ? std::nullopt : std::optional<double>(alpha);
    std::optional<int64_t> rr = std::isnan(r) ? std::nullopt : std::optional<int64_t>(int64_t(r));
    return h(tp::lora::merge(get(w), get(a), get(b), al, rr));
  });
}
int synth_activations(double tokens, double dim, double outliers, double outlier_scale, double seed) {
  return guard([&] {
    tp::synth::ActivationOptions o;
    o.tokens = int64_t(tokens);
    o.dim = int64_t(dim);
    o.outliers = int64_t(outliers);
    o.outlier_scale = float(outlier_scale);
    o.seed = uint64_t(seed);
    return h(tp::synth::activations(o));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_nn) {
  using emscripten::function;
  function("nnAttention", &sdpa);
  function("nnMultiHeadAttention", &mha);
  function("nnLayerNorm", &layer_norm);
  function("nnRmsNorm", &rms_norm);
  function("nnRelu", &relu);
  function("nnGelu", &gelu);
  function("nnSilu", &silu);
  function("nnRopeMatrix", &rope_matrix);
  function("nnApplyRope", &apply_rope);
  function("linalgHadamard", &hadamard);
  function("linalgFwht", &fwht);
  function("linalgRandomOrthogonal", &random_orthogonal);
  function("linalgBlockDiag", &block_diag);
  function("quantFakeQuant", &fake_quant);
  function("quantRelError", &rel_error);
  function("quantQuantize", &quantize);
  function("quantRelease", &q_release);
  function("quantLive", &q_live);
  function("quantLiveBytes", &q_live_bytes);
  function("quantShape", &q_shape);
  function("quantLevels", &q_levels);
  function("quantScale", &q_scale);
  function("quantDequantize", &q_dequantize);
  function("quantMatmulInt8", &matmul_int8);
  function("loraParams", &lora_params);
  function("loraMerge", &lora_merge);
  function("synthActivations", &synth_activations);
}
