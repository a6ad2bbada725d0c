// tp::model: a decoder-only transformer read from a Hugging Face checkpoint (config.json + safetensors)
// and run on the core's kernels: Qwen3ForCausalLM, Qwen2ForCausalLM, LlamaForCausalLM (and
// MistralForCausalLM without a sliding window), with the semantics of transformers' modeling_qwen3.py /
// modeling_qwen2.py / modeling_llama.py (main at 000c33f, the v5 "rope_parameters" era; the older
// rope_theta/rope_scaling spelling is read too).
//
//   Config c = parse_config(json);               // validates, names what it cannot run
//   Model m(c);                                  // weights arrive one by one, in their file dtype:
//   uint8_t* dst = m.allocate(name, dtype, shape);   // checked against the config; write nbytes there
//   m.check_complete();                          // every tensor present
//   ForwardResult r = m.forward(ids, opts);      // logits and the captured activations
//
// Layout of one layer (x is the residual stream [T, hidden]):
//   h = rms_norm(x) · input_layernorm;  q,k,v = h Wqᵀ (+bq), h Wkᵀ (+bk), h Wvᵀ (+bv)
//   Qwen3: q,k per head = rms_norm(q_head) · q_norm (k_norm)     RoPE on q,k (rotate_half layout)
//   x += attention(q, k, v; causal, GQA) Woᵀ
//   m = rms_norm(x) · post_attention_layernorm;   x += (silu(m Wgᵀ) ⊙ m Wuᵀ) Wdᵀ
// then norm and lm_head (or embed_tokens when tied).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorpad/io.hpp"
#include "tensorpad/tensor.hpp"

namespace tp::model {

struct Config {
  std::string architecture;  // one of supported_architectures()
  int64_t vocab = 0, hidden = 0, intermediate = 0, layers = 0, heads = 0, kv_heads = 0, head_dim = 0;
  int64_t max_positions = 0;  // max_position_embeddings (informative: longer inputs still run)
  float rms_eps = 1e-6f;
  double rope_theta = 10000.0;
  // RoPE frequency scaling: "default", "linear" (positions / factor) or "llama3" (Llama 3.1's banded rule).
  std::string rope_type = "default";
  double rope_factor = 1.0, low_freq_factor = 1.0, high_freq_factor = 4.0, original_max_positions = 8192;
  bool tied = false;           // lm_head reuses embed_tokens (tie_word_embeddings)
  bool qkv_bias = false;       // q/k/v_proj have biases (Qwen2 always; others by attention_bias)
  bool o_bias = false;         // o_proj has a bias (Llama/Qwen3 attention_bias)
  bool mlp_bias = false;       // Llama's mlp_bias
  bool qk_norm = false;        // Qwen3: per-head RMSNorm of q and k before RoPE
  std::vector<int64_t> eos;    // eos_token_id, one or several (may be empty)
};

std::vector<std::string> supported_architectures();

// A read-only view of one JSON object: config.json, or an object inside it. parse_config reads the
// fields through it, so the WebAssembly build reads the object JS has already parsed (wasm/bind_model.cpp)
// and carries no JSON parser of its own; native code parses the text with nlohmann (model_config_json.cpp).
class ConfigObject {
 public:
  enum Kind : uint8_t { kAbsent, kBool, kInt, kNumber, kString, kObject, kArray, kOther };  // null is kAbsent
  virtual ~ConfigObject() = default;
  virtual Kind kind(const char* key) const = 0;
  virtual double number(const char* key) const = 0;  // kInt or kNumber
  virtual bool boolean(const char* key) const = 0;
  virtual std::string string(const char* key) const = 0;
  virtual std::string text(const char* key) const = 0;  // the value as JSON text, for messages
  virtual std::unique_ptr<ConfigObject> object(const char* key) const = 0;  // kObject
  virtual std::vector<std::string> strings(const char* key) const = 0;      // a kArray's string elements
  virtual std::vector<double> integers(const char* key) const = 0;          // a kArray's integer elements
};

// Reads config.json. Throws tp::Error("model.config: ...") naming the missing field, the unsupported
// architecture / activation / RoPE type, or the inconsistent sizes.
Config parse_config(const ConfigObject& json);
Config parse_config(const std::string& json_text);  // the text, parsed with nlohmann

// One tensor a checkpoint of this config must hold, with its shape.
struct WeightSpec {
  std::string name;
  Shape shape;
  std::string why;  // where the shape comes from, e.g. "num_key_value_heads 2 x head_dim 32, hidden_size 64"
};
std::vector<WeightSpec> expected_weights(const Config& c);

// One weight in its file dtype (F32, F16 or BF16), a tensor of that dtype: never widened as a whole,
// counted in the heap's live bytes like every tensor. The one place weights are held.
struct Weight {
  io::DType dtype = io::DType::F32;
  Shape shape;
  Tensor t;
  int64_t numel = 0;
  bool loaded = false;  // every byte written (set by Model::mark_loaded)
  // F16 only: no inf or NaN among its values, scanned once by mark_loaded, so Model::linear can pass
  // sgemm_half's b_finite. Anything that writes into t after loading must recompute or clear it.
  bool finite = false;
  size_t nbytes() const { return size_t(numel) * io::dtype_size(dtype); }
  const uint8_t* data() const { return static_cast<const uint8_t*>(t.raw()); }
  uint8_t* data() { return static_cast<uint8_t*>(t.raw()); }
};

// Which activations to keep: names or patterns where '*' matches any run of characters without a dot
// ("layers.*.attn.k") and '**' any run at all ("**").
struct ForwardOptions {
  std::vector<std::string> capture;
  enum class Logits { None, Last, All } logits = Logits::Last;
};

// Where a forward's time went, one entry per op in the order first reached, summed over the layers:
// its calls, wall time, and the time helper threads spent in its parts (0 when it ran on one thread;
// about `ms` per helper when it split evenly and each helper had a core).
struct OpTime {
  const char* op;
  int64_t calls = 0;
  double ms = 0, helper_ms = 0;
};

struct ForwardResult {
  std::optional<Tensor> logits;                        // [vocab] (Last) or [T, vocab] (All)
  std::vector<std::pair<std::string, Tensor>> captures;  // in the order the forward reached them
  std::vector<OpTime> profile;
};

// Keys and values of earlier positions, per layer [capacity, kvHeads*headDim] (after k_norm and RoPE).
struct KVCache {
  int64_t capacity = 0, length = 0;
  std::vector<Tensor> k, v;
};

class Model;

// One forward pass in steps, so a caller can report progress and stop between steps: step() runs the
// embedding, then one layer per call, then the final norm and lm_head; done() after the last.
class ForwardRun {
 public:
  // ids must lie in [0, vocab); cache (may be null) supplies earlier positions and receives these.
  ForwardRun(const Model& m, std::vector<int64_t> ids, ForwardOptions opts, KVCache* cache = nullptr);
  int64_t steps() const;      // layers + 2
  int64_t done_steps() const { return step_; }
  bool done() const { return step_ == steps(); }
  void step();
  ForwardResult take();       // after done()

 private:
  void embed();
  void layer(int64_t i);
  void head();
  bool wants(const std::string& name) const;
  void keep(const std::string& name, Tensor t);
  void lap(const char* op);  // charges the time since the last lap to op (see OpTime)

  const Model& m_;
  std::vector<int64_t> ids_;
  ForwardOptions opts_;
  KVCache* cache_;
  int64_t past_ = 0, step_ = 0;
  Tensor x_;  // the residual stream [T, hidden]
  std::vector<float> cos_, sin_;  // RoPE's [T, headDim/2] table, the same for every layer
  ForwardResult out_;
  int64_t lap_ns_ = 0, lap_helper_ns_ = 0;  // when the last lap ended, and the helpers' total then
};

class Model {
 public:
  explicit Model(Config c);
  const Config& config() const { return c_; }

  // Prepares tensor `name` (dtype F32, F16 or BF16, the file's shape) and returns where its nbytes go,
  // or nullptr for a tensor the model ignores (lm_head.weight of a tied model, rotary inv_freq
  // buffers). Throws "model.load: ..." for a name the architecture does not have, a shape that disagrees
  // with config.json, an unsupported dtype, or a tensor given twice.
  uint8_t* allocate(const std::string& name, io::DType dtype, const Shape& shape);
  void mark_loaded(const std::string& name);
  // Throws naming the missing tensors (up to a few, and how many in all).
  void check_complete() const;
  // Bytes the weights hold (their tensors, and the float32 copies of the 1-d ones).
  int64_t bytes() const { return bytes_ + vec_bytes_; }
  int64_t vec_bytes() const { return vec_bytes_; }  // the part outside tensors (not in tp.memory's tensors)

  const Weight& weight(const std::string& name) const;  // throws for an unknown name
  bool has(const std::string& name) const {
    const int64_t i = find(name);
    return i >= 0 && entries_[size_t(i)].present;
  }
  std::vector<std::string> weight_names() const;
  Tensor weight_f32(const std::string& name) const;  // a float32 copy

  ForwardResult forward(const std::vector<int64_t>& ids, const ForwardOptions& opts = {},
                        KVCache* cache = nullptr,
                        const std::function<bool(int64_t done, int64_t total)>& progress = {}) const;
  KVCache make_cache(int64_t capacity) const;
  // Greedy decoding: argmax of the last logits, max_new tokens or until an eos id; returns the new ids.
  std::vector<int64_t> generate(const std::vector<int64_t>& prompt, int64_t max_new) const;

  // --- pieces of the forward (ForwardRun calls them) ---
  // y[T, out] = x[T, in] · Wᵀ (+ b), or y += x · Wᵀ (+ b) when accumulate: W is a weight [out, in] in
  // its file dtype.
  void linear(const float* x, int64_t T, const std::string& w, const std::string& b, float* y,
              bool accumulate = false) const;
  // A 1-d weight (norms, biases) as float32.
  const std::vector<float>& vec(const std::string& name) const;
  // RoPE inverse frequencies inv_freq[i], i < head_dim/2, after the config's scaling.
  const std::vector<double>& inv_freq() const { return inv_freq_; }

 private:
  Config c_;
  // One entry per expected weight, sorted by name and fixed at construction (references into it stay
  // valid). Why not std::map: its red-black tree instances were ~1 KB of the gzipped core, and a
  // binary search over a few hundred names costs the same compares as the tree's descent.
  struct Entry {
    WeightSpec spec;
    Weight w;
    bool present = false;    // allocated from a checkpoint (w holds its tensor)
    std::vector<float> vec;  // the float32 copy of a loaded 1-d weight (tiny), else empty
  };
  std::vector<Entry> entries_;
  int64_t find(const std::string& name) const;  // the entry's index, or -1
  std::vector<double> inv_freq_;
  int64_t bytes_ = 0, vec_bytes_ = 0;
};

// Whether name matches pattern ('*' = any run of non-dot characters, '**' = any run).
bool capture_matches(const std::string& pattern, const std::string& name);

}  // namespace tp::model
