// tp::model: config parsing, weight validation, and the forward's invariants on tiny random models
// (a chunked forward over a KV cache equals the one-shot forward, GQA equals repeated K/V heads, BF16
// weights equal their F32 values, RoPE in the half-split layout). The numpy reference forward of
// tests/fixtures/models is compared in tests/js/model.test.mjs.
#include <doctest/doctest.h>

#include <cmath>
#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "../../cpp/src/work_pool.hpp"
#include "helpers.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/model.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/random.hpp"

using namespace tp;
using namespace tpt;
using model::Config;
using model::Model;

namespace {

std::string config_json(const std::string& arch, int64_t heads, int64_t kv, bool tied, const std::string& extra = "") {
  return R"({"architectures": [")" + arch + R"("], "vocab_size": 37, "hidden_size": 16, "intermediate_size": 24,
    "num_hidden_layers": 2, "num_attention_heads": )" + std::to_string(heads) +
         R"(, "num_key_value_heads": )" + std::to_string(kv) + R"(, "head_dim": 8, "rms_norm_eps": 1e-6,
    "rope_theta": 10000.0, "tie_word_embeddings": )" + (tied ? "true" : "false") + extra + "}";
}

// Fills every expected tensor with seeded normals (norm weights around 1), stored as dtype.
// values(name) may override a tensor's float values.
void fill(Model& m, uint64_t seed, io::DType dtype = io::DType::F32,
          const std::function<std::vector<float>(const std::string&, std::vector<float>)>& edit = {}) {
  Rng rng(seed);
  for (const auto& s : model::expected_weights(m.config())) {
    Tensor t = randn(s.shape, rng);
    std::vector<float> v(t.data(), t.data() + t.numel());
    const bool norm = s.name.find("norm") != std::string::npos;
    for (float& x : v) x = norm ? 1.0f + 0.1f * x : 0.3f * x;
    if (edit) v = edit(s.name, v);
    uint8_t* dst = m.allocate(s.name, dtype, s.shape);
    REQUIRE(dst != nullptr);
    io::from_float32(dtype, v.data(), int64_t(v.size()), dst);
    m.mark_loaded(s.name);
  }
  m.check_complete();
}

using tpt::error_of;

}  // namespace

TEST_CASE("model: config.json is read in both RoPE spellings, and an unsupported architecture is named") {
  Config a = model::parse_config(config_json("LlamaForCausalLM", 4, 2, false,
                                             R"(, "rope_scaling": {"rope_type": "linear", "factor": 2.0})"));
  CHECK(a.rope_type == "linear");
  CHECK(a.rope_factor == 2.0);
  CHECK(a.kv_heads == 2);
  Config b = model::parse_config(R"({"architectures": ["Qwen3ForCausalLM"], "vocab_size": 10, "hidden_size": 8,
    "intermediate_size": 8, "num_hidden_layers": 1, "num_attention_heads": 2,
    "rope_parameters": {"rope_type": "default", "rope_theta": 1000000.0}})");
  CHECK(b.rope_theta == 1000000.0);
  CHECK(b.head_dim == 4);
  CHECK(b.kv_heads == 2);
  CHECK(b.qk_norm);
  Config q2 = model::parse_config(config_json("Qwen2ForCausalLM", 4, 2, true));
  CHECK(q2.qkv_bias);
  CHECK(q2.head_dim == 4);  // Qwen2 derives head_dim = hidden / heads
  CHECK(error_of([] { model::parse_config(config_json("GPT2LMHeadModel", 4, 2, false)); })
            .find("architecture 'GPT2LMHeadModel' is not supported") != std::string::npos);
  CHECK(error_of([] { model::parse_config(R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 10})"); })
            .find("no \"hidden_size\"") != std::string::npos);
  CHECK(error_of([] { model::parse_config(config_json("LlamaForCausalLM", 4, 3, false)); })
            .find("not a multiple of num_key_value_heads 3") != std::string::npos);
  CHECK(error_of([] {
          model::parse_config(config_json("LlamaForCausalLM", 4, 2, false, R"(, "rope_scaling": {"rope_type": "yarn"})"));
        }).find("RoPE type 'yarn'") != std::string::npos);
}

TEST_CASE("model: unknown, misshapen, duplicate and missing tensors are refused by name") {
  Model m(model::parse_config(config_json("Qwen3ForCausalLM", 4, 2, true)));
  CHECK(error_of([&] { m.allocate("model.layers.0.mlp.gate.weight", io::DType::F32, {24, 16}); })
            .find("has no tensor 'model.layers.0.mlp.gate.weight'") != std::string::npos);
  CHECK(error_of([&] { m.allocate("model.layers.1.self_attn.k_proj.weight", io::DType::BF16, {32, 16}); })
            .find("has shape [32, 16], config.json implies [16, 16]") != std::string::npos);
  CHECK(error_of([&] { m.allocate("model.norm.weight", io::DType::I32, {16}); }).find("stored as I32") != std::string::npos);
  CHECK(m.allocate("lm_head.weight", io::DType::F32, {37, 16}) == nullptr);  // tied: ignored, as transformers does
  CHECK(m.allocate("model.norm.weight", io::DType::F32, {16}) != nullptr);
  m.mark_loaded("model.norm.weight");
  CHECK(error_of([&] { m.allocate("model.norm.weight", io::DType::F32, {16}); }).find("appears twice") != std::string::npos);
  CHECK(error_of([&] { m.check_complete(); }).find("tensors missing from the checkpoint: 'model.embed_tokens.weight'") !=
        std::string::npos);
}

TEST_CASE("model: capture patterns match names, '*' within one dot-separated part and '**' across parts") {
  CHECK(model::capture_matches("layers.*.attn.k", "layers.12.attn.k"));
  CHECK_FALSE(model::capture_matches("layers.*.attn.k", "layers.12.attn.q"));
  CHECK_FALSE(model::capture_matches("layers.*", "layers.1.input"));
  CHECK(model::capture_matches("layers.**", "layers.1.input"));
  CHECK(model::capture_matches("**", "embed"));
  CHECK(model::capture_matches("embed", "embed"));
  CHECK_FALSE(model::capture_matches("embed", "embedx"));
}

TEST_CASE("model: a forward in chunks over a KV cache gives the one-shot forward's logits, and generate is its argmax") {
  for (const char* arch : {"Qwen3ForCausalLM", "Qwen2ForCausalLM", "LlamaForCausalLM"}) {
    CAPTURE(arch);
    Model m(model::parse_config(config_json(arch, 4, 2, false)));
    fill(m, 7);
    const std::vector<int64_t> ids = {3, 14, 15, 9, 2, 6, 5};
    model::ForwardOptions all;
    all.logits = model::ForwardOptions::Logits::All;
    const Tensor whole = *m.forward(ids, all).logits;
    model::KVCache kv = m.make_cache(16);
    const Tensor a = *m.forward({3, 14, 15}, all, &kv).logits;
    const Tensor b = *m.forward({9, 2, 6, 5}, all, &kv).logits;  // 4 new queries after 3 cached positions
    CHECK(kv.length == 7);
    check_close(a, narrow(whole, 0, 0, 3), 1e-5, 1e-4);
    check_close(b, narrow(whole, 0, 3, 4), 1e-5, 1e-4);
    // Greedy: each new id is the argmax of a full forward over everything so far.
    const std::vector<int64_t> gen = m.generate({3, 14, 15}, 4);
    std::vector<int64_t> seq = {3, 14, 15};
    for (int64_t n = 0; n < 4; ++n) {
      const Tensor l = *m.forward(seq, {}).logits;
      seq.push_back(std::max_element(l.data(), l.data() + l.numel()) - l.data());
    }
    CHECK(std::vector<int64_t>(seq.begin() + 3, seq.end()) == gen);
  }
}

TEST_CASE("model: GQA gives query head h the K/V head h / (heads / kvHeads), as transformers' repeat_kv") {
  // A model with 2 K/V heads equals the model with 4 whose K/V projections repeat each head twice in place.
  const std::string gqa_json = config_json("LlamaForCausalLM", 4, 2, true), mha_json = config_json("LlamaForCausalLM", 4, 4, true);
  Model gqa(model::parse_config(gqa_json));
  fill(gqa, 11);
  Model mha(model::parse_config(mha_json));
  fill(mha, 11, io::DType::F32, [&](const std::string& name, std::vector<float> v) {
    if (name.find("k_proj") == std::string::npos && name.find("v_proj") == std::string::npos) {
      const Tensor w = gqa.weight_f32(name);
      return std::vector<float>(w.data(), w.data() + w.numel());
    }
    const Tensor w = gqa.weight_f32(name);  // [2*8, 16] → [4*8, 16]: head r of 4 is head r/2 of 2
    std::vector<float> out;
    for (int64_t r = 0; r < 4; ++r) out.insert(out.end(), w.data() + (r / 2) * 8 * 16, w.data() + (r / 2 + 1) * 8 * 16);
    return out;
  });
  const std::vector<int64_t> ids = {1, 2, 3, 4, 5};
  check_close(*gqa.forward(ids).logits, *mha.forward(ids).logits, 1e-5, 1e-4);
}

TEST_CASE("model: BF16 weights give the forward of the same values held as F32") {
  Model bf(model::parse_config(config_json("Qwen3ForCausalLM", 4, 2, false)));
  fill(bf, 5, io::DType::BF16);
  Model f32(model::parse_config(config_json("Qwen3ForCausalLM", 4, 2, false)));
  fill(f32, 5, io::DType::F32, [&](const std::string& name, std::vector<float>) {
    const Tensor w = bf.weight_f32(name);  // the BF16 values, exactly
    return std::vector<float>(w.data(), w.data() + w.numel());
  });
  CHECK(bf.bytes() < f32.bytes());
  model::ForwardOptions all;
  all.logits = model::ForwardOptions::Logits::All;
  check_close(*bf.forward({0, 36, 4}, all).logits, *f32.forward({0, 36, 4}, all).logits, 1e-6, 1e-5);
}

TEST_CASE("model: F16 weights are flagged finite exactly when they hold no inf or NaN, and linear keeps IEEE results") {
  // mark_loaded scans each F16 weight once (Weight::finite), and linear passes the flag to sgemm_half,
  // whose m = 1 path then skips its own inf/NaN check. One weight gets a +inf and a NaN inside the 16-wide
  // loop (p < 16 of in = 24), where an unchecked path would turn them into finite values; every 2-D weight's
  // one-token product must have the bits of sgemm on its widened values, inf and NaN included.
  const std::string bad = "model.layers.0.mlp.down_proj.weight";  // [16, 24]
  Model m(model::parse_config(config_json("Qwen3ForCausalLM", 4, 2, false)));
  fill(m, 9, io::DType::F16, [&](const std::string& name, std::vector<float> v) {
    if (name == bad) {
      v[3 * 24 + 5] = std::numeric_limits<float>::infinity();
      v[7 * 24 + 0] = std::numeric_limits<float>::quiet_NaN();
    }
    return v;
  });
  int64_t two_d = 0;
  Rng rng(4);
  for (const auto& s : model::expected_weights(m.config())) {
    const model::Weight& w = m.weight(s.name);
    CAPTURE(s.name);
    CHECK(w.dtype == io::DType::F16);
    CHECK(w.finite == (s.name != bad));
    if (w.shape.size() != 2) continue;
    ++two_d;
    const int64_t out = w.shape[0], in = w.shape[1];
    const Tensor xt = randn({in}, rng);
    const Tensor wide = m.weight_f32(s.name);
    std::vector<float> y(static_cast<size_t>(out)), ref(static_cast<size_t>(out));
    m.linear(xt.data(), 1, s.name, "", y.data(), false);
    kernels::sgemm(1, out, in, xt.data(), in, 1, wide.data(), 1, in, ref.data(), out, false);
    CHECK(std::memcmp(y.data(), ref.data(), y.size() * sizeof(float)) == 0);
    if (s.name == bad) {
      CHECK(std::isnan(y[7]));
      CHECK(!std::isfinite(y[3]));
      CHECK(std::isfinite(y[0]));
    }
  }
  CHECK(two_d == 2 * 7 + 2);  // 7 projections per layer, embed_tokens and lm_head
}

TEST_CASE("model: captures have the documented shapes; q and k are RoPE-rotated in the half-split layout") {
  Model m(model::parse_config(config_json("LlamaForCausalLM", 4, 2, false)));
  fill(m, 3);
  model::ForwardOptions o;
  o.capture = {"embed", "layers.*.input", "layers.0.attn.*", "layers.1.mlp.**", "norm"};
  o.logits = model::ForwardOptions::Logits::None;
  const std::vector<int64_t> ids = {5, 6, 7, 8, 9, 10};
  auto r = m.forward(ids, o);
  CHECK_FALSE(r.logits.has_value());
  std::map<std::string, Tensor> c(r.captures.begin(), r.captures.end());
  CHECK(c.size() == 10);
  CHECK(c.at("embed").shape() == Shape{6, 16});
  CHECK(c.at("layers.1.input").shape() == Shape{6, 16});
  CHECK(c.at("layers.0.attn.q").shape() == Shape{4, 6, 8});
  CHECK(c.at("layers.0.attn.k").shape() == Shape{2, 6, 8});
  CHECK(c.at("layers.0.attn.v").shape() == Shape{2, 6, 8});
  CHECK(c.at("layers.0.attn.weights").shape() == Shape{4, 6, 6});
  CHECK(c.at("layers.1.mlp.input").shape() == Shape{6, 16});
  CHECK(c.at("layers.1.mlp.act").shape() == Shape{6, 24});
  CHECK(c.at("norm").shape() == Shape{6, 16});
  // Attention weights: causal rows of probabilities.
  const Tensor& w = c.at("layers.0.attn.weights");
  for (int64_t h = 0; h < 4; ++h)
    for (int64_t i = 0; i < 6; ++i) {
      double s = 0;
      for (int64_t j = 0; j < 6; ++j) {
        const float p = w.data()[(h * 6 + i) * 6 + j];
        if (j > i) CHECK(p == 0.0f);
        s += p;
      }
      CHECK(s == doctest::Approx(1.0).epsilon(1e-5));
    }
  // q before RoPE from the layer's input, then transformers' rotation: out = q cos + rotate_half(q) sin.
  const Tensor x = c.at("layers.0.input");
  const Tensor h = matmul(nn::rms_norm(x, m.weight_f32("model.layers.0.input_layernorm.weight"), 1e-6f),
                          transpose(m.weight_f32("model.layers.0.self_attn.q_proj.weight"), 0, 1));  // [6, 32]
  const Tensor& q = c.at("layers.0.attn.q");
  for (int64_t head = 0; head < 4; ++head)
    for (int64_t t = 0; t < 6; ++t)
      for (int64_t j = 0; j < 4; ++j) {
        const double a = double(t) * std::pow(10000.0, -2.0 * double(j) / 8.0);
        const double x1 = h.data()[t * 32 + head * 8 + j], x2 = h.data()[t * 32 + head * 8 + j + 4];
        CHECK(q.data()[(head * 6 + t) * 8 + j] == doctest::Approx(x1 * std::cos(a) - x2 * std::sin(a)).epsilon(1e-4).scale(1e-4));
        CHECK(q.data()[(head * 6 + t) * 8 + j + 4] == doctest::Approx(x2 * std::cos(a) + x1 * std::sin(a)).epsilon(1e-4).scale(1e-4));
      }
}

TEST_CASE("model: token ids outside the vocabulary and an overfull KV cache are errors") {
  Model m(model::parse_config(config_json("LlamaForCausalLM", 4, 2, true)));
  fill(m, 1);
  CHECK(error_of([&] { m.forward({1, 37}); }).find("token id 37 at position 1 is outside the vocabulary [0, 37)") != std::string::npos);
  CHECK(error_of([&] { m.forward({}); }).find("at least one token") != std::string::npos);
  model::KVCache kv = m.make_cache(3);
  CHECK(error_of([&] { m.forward({1, 2, 3, 4}, {}, &kv); }).find("holds 3 positions") != std::string::npos);
  CHECK(error_of([&] { m.forward({1, 2}, {}, nullptr, [](int64_t done, int64_t) { return done < 2; }); })
            .find("cancelled after step 2 of 4") != std::string::npos);
}

namespace {

// Bits of a tensor, to compare two forwards exactly.
std::vector<uint32_t> bits_of(const Tensor& t) {
  std::vector<uint32_t> b(size_t(t.numel()));
  std::memcpy(b.data(), t.data(), b.size() * sizeof(uint32_t));
  return b;
}

// 40 token ids: enough rows for the GEMM's own split (16 rows a thread).
std::vector<int64_t> ids40() {
  std::vector<int64_t> ids;
  for (int64_t t = 0; t < 40; ++t) ids.push_back((t * 37 + 3) % 300);
  return ids;
}

// One prefill and one cached chunk, every capture and the logits ('all', then 'last' for lm_head's
// matrix-vector path), on the current thread count.
std::vector<std::vector<uint32_t>> forward_bits(const Model& m) {
  std::vector<std::vector<uint32_t>> out;
  model::ForwardOptions all;
  all.logits = model::ForwardOptions::Logits::All;
  all.capture = {"**"};
  for (const auto& [name, t] : m.forward(ids40(), all).captures) out.push_back(bits_of(t));
  model::KVCache kv = m.make_cache(48);
  const std::vector<int64_t> ids = ids40();
  out.push_back(bits_of(*m.forward(ids, all, &kv).logits));
  out.push_back(bits_of(*m.forward({2, 7, 1, 8, 28}, all, &kv).logits));  // several queries after a past
  out.push_back(bits_of(*m.forward({18}, {}, &kv).logits));                 // one query, lm_head on one row
  return out;
}

}  // namespace

TEST_CASE("model: the forward gives the same bits on 1 and 2 threads, and its profile shows which ops split") {
  // Qwen3 (q/k norm), GQA, a vocabulary wide enough for lm_head's one-row product to split.
  std::string json = config_json("Qwen3ForCausalLM", 4, 2, false);
  json.replace(json.find("\"vocab_size\": 37"), 16, "\"vocab_size\": 300");
  Model m(model::parse_config(json));
  fill(m, 21, io::DType::BF16);
  kernels::set_sgemm_threads(1);
  const auto one = forward_bits(m);
  kernels::set_sgemm_threads(2, 0);  // every op splits, however small
  const auto two = forward_bits(m);
  model::ForwardOptions o;
  const auto profile = m.forward(ids40(), o).profile;
  kernels::set_sgemm_threads(1);
  REQUIRE(one.size() == two.size());
  for (size_t i = 0; i < one.size(); ++i) {
    CAPTURE(i);
    CHECK(one[i] == two[i]);
  }
  // Each op once per layer, in the order reached (o_proj and down_proj add into the residual stream: no
  // residual op of its own); every op's helper split ran.
  std::map<std::string, int64_t> calls;
  for (const auto& t : profile) calls[t.op] = t.calls;
  CHECK(profile.front().op == std::string("embed"));
  CHECK(profile.back().op == std::string("lm_head"));
  CHECK(calls.at("qkv_proj") == 2);
  CHECK(calls.at("attention") == 2);
  CHECK(calls.at("o_proj") == 2);
  CHECK(calls.at("down_proj") == 2);
  CHECK(calls.count("residual") == 0);
  CHECK(calls.count("kv_cache") == 0);
#if TP_HAS_THREADS  // natively; the single-thread WASM build runs the parts in order
  for (const auto& t : profile) {
    const std::string op = t.op;
    CAPTURE(op);
    if (op != "captures") CHECK(t.helper_ms > 0.0);
  }
#endif
}
