// config.json → tp::model::Config, and the tensor names and shapes that config implies.
// Field names and defaults follow transformers' configuration_{qwen3,qwen2,llama}.py; RoPE is read from
// "rope_parameters" (v5) or "rope_theta" + "rope_scaling" (v4), whichever the file has.
#include <cmath>

#include "tensorpad/model.hpp"

namespace tp::model {

namespace {

constexpr const char* kOp = "model.config";
using Obj = ConfigObject;

bool present(const Obj& j, const char* key) { return j.kind(key) != Obj::kAbsent; }

int64_t int_field(const Obj& j, const char* key, std::optional<int64_t> fallback = {}) {
  const Obj::Kind k = j.kind(key);
  if (k == Obj::kAbsent) {
    if (fallback) return *fallback;
    fail(kOp, "config.json has no \"", key, "\"");
  }
  if (k != Obj::kInt) fail(kOp, "\"", key, "\" must be an integer, got ", j.text(key));
  const double x = j.number(key);
  if (x <= 0 || x > double(int64_t(1) << 40)) fail(kOp, "\"", key, "\" must be a positive integer, got ", x);
  return int64_t(x);
}

double num_field(const Obj& j, const char* key, double fallback) {
  const Obj::Kind k = j.kind(key);
  if (k == Obj::kAbsent) return fallback;
  if (k != Obj::kInt && k != Obj::kNumber) fail(kOp, "\"", key, "\" must be a number, got ", j.text(key));
  const double x = j.number(key);
  if (!std::isfinite(x) || x <= 0) fail(kOp, "\"", key, "\" must be a positive number, got ", x);
  return x;
}

bool bool_field(const Obj& j, const char* key, bool fallback) {
  const Obj::Kind k = j.kind(key);
  if (k == Obj::kAbsent) return fallback;
  if (k != Obj::kBool) fail(kOp, "\"", key, "\" must be true or false, got ", j.text(key));
  return j.boolean(key);
}

// RoPE: v5 puts theta and the scaling in "rope_parameters"; v4 has "rope_theta" and "rope_scaling".
void read_rope(const Obj& j, Config& c) {
  const char* where = present(j, "rope_parameters") ? "rope_parameters" : "rope_scaling";
  c.rope_theta = num_field(j, "rope_theta", 10000.0);
  if (!present(j, where)) return;
  if (j.kind(where) != Obj::kObject) fail(kOp, "\"", where, "\" must be an object, got ", j.text(where));
  const std::unique_ptr<Obj> scaling = j.object(where);
  c.rope_theta = num_field(*scaling, "rope_theta", c.rope_theta);
  const char* type_key = present(*scaling, "rope_type") ? "rope_type" : "type";
  c.rope_type = scaling->kind(type_key) == Obj::kString ? scaling->string(type_key) : "default";
  if (c.rope_type == "default") return;
  if (c.rope_type != "linear" && c.rope_type != "llama3")
    fail(kOp, "RoPE type '", c.rope_type, "' is not supported (supported: default, linear, llama3)");
  c.rope_factor = num_field(*scaling, "factor", 1.0);
  if (c.rope_type == "llama3") {
    c.low_freq_factor = num_field(*scaling, "low_freq_factor", 1.0);
    c.high_freq_factor = num_field(*scaling, "high_freq_factor", 4.0);
    c.original_max_positions = num_field(*scaling, "original_max_position_embeddings", 8192);
    if (!(c.high_freq_factor > c.low_freq_factor))
      fail(kOp, "llama3 RoPE needs high_freq_factor > low_freq_factor, got ", c.high_freq_factor, " and ", c.low_freq_factor);
  }
}

}  // namespace

// Built at each call (a config's check, not a hot path), not kept in a function-local static, whose first
// use needed a guard (__cxa_guard_acquire, with a mutex and condition variable in the pthreads core).
std::vector<std::string> supported_architectures() {
  return {"Qwen3ForCausalLM", "Qwen2ForCausalLM", "LlamaForCausalLM", "MistralForCausalLM"};
}

Config parse_config(const ConfigObject& j) {
  Config c;
  const std::vector<std::string> arch = j.kind("architectures") == Obj::kArray ? j.strings("architectures") : std::vector<std::string>();
  if (arch.empty() || arch[0].empty()) fail(kOp, "config.json has no \"architectures\" list naming the model class");
  c.architecture = arch[0];
  const std::vector<std::string> supported = supported_architectures();
  std::string all;
  for (const auto& a : supported) all += (all.empty() ? "" : ", ") + a;
  bool known = false;
  for (const auto& a : supported) known = known || a == c.architecture;
  if (!known) fail(kOp, "architecture '", c.architecture, "' is not supported (supported: ", all, ")");

  c.vocab = int_field(j, "vocab_size");
  c.hidden = int_field(j, "hidden_size");
  c.intermediate = int_field(j, "intermediate_size");
  c.layers = int_field(j, "num_hidden_layers");
  c.heads = int_field(j, "num_attention_heads");
  c.kv_heads = int_field(j, "num_key_value_heads", c.heads);
  // Qwen3 and Llama may name head_dim (Qwen3-0.6B: 128 with hidden 1024 and 16 heads); Qwen2 derives it.
  const bool own_head_dim = c.architecture != "Qwen2ForCausalLM";
  c.head_dim = own_head_dim ? int_field(j, "head_dim", int64_t{0}) : 0;
  if (c.head_dim == 0) {
    if (c.hidden % c.heads != 0)
      fail(kOp, "hidden_size ", c.hidden, " is not divisible by num_attention_heads ", c.heads, " (and no head_dim is given)");
    c.head_dim = c.hidden / c.heads;
  }
  if (c.heads % c.kv_heads != 0)
    fail(kOp, "num_attention_heads ", c.heads, " is not a multiple of num_key_value_heads ", c.kv_heads);
  if (c.head_dim % 2 != 0) fail(kOp, "head_dim ", c.head_dim, " must be even for RoPE");
  c.max_positions = int_field(j, "max_position_embeddings", int64_t(2048));
  c.rms_eps = float(num_field(j, "rms_norm_eps", 1e-6));
  read_rope(j, c);

  const std::string act_name = j.kind("hidden_act") == Obj::kString ? j.string("hidden_act") : "silu";
  if (act_name != "silu" && act_name != "swish")
    fail(kOp, "hidden_act '", act_name, "' is not supported (supported: silu, the SwiGLU MLP)");

  // Sliding windows change which keys a query sees; refuse rather than compute something else.
  const bool qwen = c.architecture == "Qwen3ForCausalLM" || c.architecture == "Qwen2ForCausalLM";
  if (qwen && bool_field(j, "use_sliding_window", false))
    fail(kOp, "use_sliding_window is true: sliding-window attention is not supported");
  if (c.architecture == "MistralForCausalLM" && present(j, "sliding_window"))
    fail(kOp, "MistralForCausalLM with a sliding_window is not supported (set it to null for full attention)");

  c.tied = bool_field(j, "tie_word_embeddings", false);
  const bool attention_bias = bool_field(j, "attention_bias", false);
  c.qk_norm = c.architecture == "Qwen3ForCausalLM";
  c.qkv_bias = c.architecture == "Qwen2ForCausalLM" || attention_bias;
  c.o_bias = c.architecture != "Qwen2ForCausalLM" && attention_bias;
  c.mlp_bias = c.architecture == "LlamaForCausalLM" && bool_field(j, "mlp_bias", false);

  if (j.kind("eos_token_id") == Obj::kInt) c.eos.push_back(int64_t(j.number("eos_token_id")));
  if (j.kind("eos_token_id") == Obj::kArray)
    for (double e : j.integers("eos_token_id")) c.eos.push_back(int64_t(e));
  return c;
}

namespace {

// A dimension by its letter: V vocab_size, H hidden_size, I intermediate_size, Q heads x head_dim,
// K kv heads x head_dim, D head_dim; with the words that explain it in a shape error.
int64_t dim_of(const Config& c, char d, std::string* why) {
  const std::string hd = " x head_dim " + std::to_string(c.head_dim);
  switch (d) {
    case 'V': *why += "vocab_size " + std::to_string(c.vocab); return c.vocab;
    case 'H': *why += "hidden_size " + std::to_string(c.hidden); return c.hidden;
    case 'I': *why += "intermediate_size " + std::to_string(c.intermediate); return c.intermediate;
    case 'Q': *why += "num_attention_heads " + std::to_string(c.heads) + hd; return c.heads * c.head_dim;
    case 'K': *why += "num_key_value_heads " + std::to_string(c.kv_heads) + hd; return c.kv_heads * c.head_dim;
    default: *why += "head_dim " + std::to_string(c.head_dim); return c.head_dim;
  }
}

void add(std::vector<WeightSpec>& w, const Config& c, std::string name, const char* dims) {
  WeightSpec s{std::move(name), {}, {}};
  for (const char* d = dims; *d; ++d) {
    if (d != dims) s.why += ", ";
    s.shape.push_back(dim_of(c, *d, &s.why));
  }
  w.push_back(std::move(s));
}

}  // namespace

std::vector<WeightSpec> expected_weights(const Config& c) {
  // Per layer: the tensor's name after "model.layers.{i}.", its dims, and when it exists.
  struct Row {
    const char* name;
    const char* dims;
    bool when;
  };
  const Row rows[] = {
      {"input_layernorm.weight", "H", true},        {"self_attn.q_proj.weight", "QH", true},
      {"self_attn.k_proj.weight", "KH", true},      {"self_attn.v_proj.weight", "KH", true},
      {"self_attn.q_proj.bias", "Q", c.qkv_bias},   {"self_attn.k_proj.bias", "K", c.qkv_bias},
      {"self_attn.v_proj.bias", "K", c.qkv_bias},   {"self_attn.q_norm.weight", "D", c.qk_norm},
      {"self_attn.k_norm.weight", "D", c.qk_norm},  {"self_attn.o_proj.weight", "HQ", true},
      {"self_attn.o_proj.bias", "H", c.o_bias},     {"post_attention_layernorm.weight", "H", true},
      {"mlp.gate_proj.weight", "IH", true},         {"mlp.up_proj.weight", "IH", true},
      {"mlp.down_proj.weight", "HI", true},         {"mlp.gate_proj.bias", "I", c.mlp_bias},
      {"mlp.up_proj.bias", "I", c.mlp_bias},        {"mlp.down_proj.bias", "H", c.mlp_bias},
  };
  std::vector<WeightSpec> w;
  add(w, c, "model.embed_tokens.weight", "VH");
  for (int64_t i = 0; i < c.layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    for (const Row& r : rows)
      if (r.when) add(w, c, p + r.name, r.dims);
  }
  add(w, c, "model.norm.weight", "H");
  if (!c.tied) add(w, c, "lm_head.weight", "VH");
  return w;
}

}  // namespace tp::model
