// The forward pass of tp::model (see model.hpp for the equations), one step at a time, with the
// activations a caller asked to capture; greedy generation over a KV cache.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tensorpad/model.hpp"
#include "tensorpad/nn.hpp"

namespace tp::model {

namespace {

// A [rows, cols] buffer as a new Tensor of the given shape (a copy).
Tensor copy_of(const float* src, const Shape& shape) { return Tensor::from(shape, src); }

// x is [T, n·d] (n heads of d side by side in each row); returns [n, T, d], the layout of transformers'
// query_states / key_states after .transpose(1, 2).
Tensor heads_first(const float* x, int64_t T, int64_t n, int64_t d) {
  Tensor t = Tensor::empty({n, T, d}, "model.forward");
  float* o = t.data();
  for (int64_t h = 0; h < n; ++h)
    for (int64_t s = 0; s < T; ++s) std::memcpy(o + (h * T + s) * d, x + s * n * d + h * d, size_t(d) * sizeof(float));
  return t;
}

}  // namespace

ForwardRun::ForwardRun(const Model& m, std::vector<int64_t> ids, ForwardOptions opts, KVCache* cache)
    : m_(m), ids_(std::move(ids)), opts_(std::move(opts)), cache_(cache) {
  const Config& c = m.config();
  if (ids_.empty()) fail("model.forward", "needs at least one token id");
  for (size_t i = 0; i < ids_.size(); ++i)
    if (ids_[i] < 0 || ids_[i] >= c.vocab)
      fail("model.forward", "token id ", ids_[i], " at position ", i, " is outside the vocabulary [0, ", c.vocab, ")");
  if (cache_) {
    past_ = cache_->length;
    if (int64_t(cache_->k.size()) != c.layers)
      fail("model.forward", "the KV cache has ", cache_->k.size(), " layers, the model ", c.layers);
    if (past_ + int64_t(ids_.size()) > cache_->capacity)
      fail("model.forward", "the KV cache holds ", cache_->capacity, " positions; ", past_, " are used and ",
           ids_.size(), " more do not fit");
  }
}

int64_t ForwardRun::steps() const { return m_.config().layers + 2; }

void ForwardRun::step() {
  TP_ASSERT(!done());
  const int64_t layers = m_.config().layers;
  if (step_ == 0) embed();
  else if (step_ <= layers) layer(step_ - 1);
  else head();
  ++step_;
}

ForwardResult ForwardRun::take() {
  TP_ASSERT(done());
  return std::move(out_);
}

bool ForwardRun::wants(const std::string& name) const {
  for (const auto& p : opts_.capture)
    if (capture_matches(p, name)) return true;
  return false;
}

void ForwardRun::keep(const std::string& name, Tensor t) { out_.captures.emplace_back(name, std::move(t)); }

// x[t] = embed_tokens[ids[t]], widened row by row.
void ForwardRun::embed() {
  const Config& c = m_.config();
  const int64_t T = int64_t(ids_.size());
  const Weight& e = m_.weight("model.embed_tokens.weight");
  x_ = Tensor::empty({T, c.hidden}, "model.forward");
  const size_t row_bytes = size_t(c.hidden) * io::dtype_size(e.dtype);
  for (int64_t t = 0; t < T; ++t)
    io::to_float32(e.dtype, e.data() + size_t(ids_[size_t(t)]) * row_bytes, c.hidden, x_.data() + t * c.hidden);
  if (wants("embed")) keep("embed", x_.clone());
}

void ForwardRun::layer(int64_t i) {
  const Config& c = m_.config();
  const int64_t T = int64_t(ids_.size()), H = c.heads, KV = c.kv_heads, D = c.head_dim, hid = c.hidden;
  const int64_t S = past_ + T;  // keys visible to the last query
  const std::string p = "model.layers." + std::to_string(i) + ".";
  const std::string cp = "layers." + std::to_string(i) + ".";
  float* x = x_.data();
  if (wants(cp + "input")) keep(cp + "input", x_.clone());

  // --- attention ---
  std::vector<float> h(size_t(T * hid)), q(size_t(T * H * D)), k(size_t(T * KV * D)), v(size_t(T * KV * D));
  kernels::rms_norm_f32(T, hid, x, m_.vec(p + "input_layernorm.weight").data(), c.rms_eps, h.data());
  const auto bias = [&](const char* proj) { return c.qkv_bias ? p + "self_attn." + proj + ".bias" : std::string(); };
  m_.linear(h.data(), T, p + "self_attn.q_proj.weight", bias("q_proj"), q.data());
  m_.linear(h.data(), T, p + "self_attn.k_proj.weight", bias("k_proj"), k.data());
  m_.linear(h.data(), T, p + "self_attn.v_proj.weight", bias("v_proj"), v.data());
  if (c.qk_norm) {  // Qwen3: RMSNorm over each head's D values, before RoPE
    kernels::rms_norm_f32(T * H, D, q.data(), m_.vec(p + "self_attn.q_norm.weight").data(), c.rms_eps, q.data());
    kernels::rms_norm_f32(T * KV, D, k.data(), m_.vec(p + "self_attn.k_norm.weight").data(), c.rms_eps, k.data());
  }
  // RoPE, transformers' half-split layout: for j < D/2 the pair is (j, j + D/2), rotated by
  // pos·inv_freq[j]. The angle is a float32 product and cos/sin are rounded to float32, as torch does.
  const int64_t half = D / 2;
  std::vector<float> cs(size_t(T * half)), sn(size_t(T * half));
  for (int64_t t = 0; t < T; ++t)
    for (int64_t j = 0; j < half; ++j) {
      const float angle = float(m_.inv_freq()[size_t(j)]) * float(past_ + t);
      cs[size_t(t * half + j)] = float(std::cos(double(angle)));
      sn[size_t(t * half + j)] = float(std::sin(double(angle)));
    }
  const auto rope = [&](float* a, int64_t n) {
    for (int64_t t = 0; t < T; ++t)
      for (int64_t hh = 0; hh < n; ++hh) {
        float* r = a + (t * n + hh) * D;
        const float* ct = cs.data() + t * half;
        const float* st = sn.data() + t * half;
        for (int64_t j = 0; j < half; ++j) {
          const float x1 = r[j], x2 = r[j + half];
          r[j] = x1 * ct[j] - x2 * st[j];
          r[j + half] = x2 * ct[j] + x1 * st[j];
        }
      }
  };
  rope(q.data(), H);
  rope(k.data(), KV);
  if (wants(cp + "attn.q")) keep(cp + "attn.q", heads_first(q.data(), T, H, D));
  if (wants(cp + "attn.k")) keep(cp + "attn.k", heads_first(k.data(), T, KV, D));
  if (wants(cp + "attn.v")) keep(cp + "attn.v", heads_first(v.data(), T, KV, D));

  // Keys and values: this call's alone, or the cache's rows [0, S) once these are appended.
  const float* K = k.data();
  const float* V = v.data();
  if (cache_) {
    float* ck = cache_->k[size_t(i)].data();
    float* cv = cache_->v[size_t(i)].data();
    std::memcpy(ck + past_ * KV * D, k.data(), k.size() * sizeof(float));
    std::memcpy(cv + past_ * KV * D, v.data(), v.size() * sizeof(float));
    K = ck;
    V = cv;
  }
  // Query t sits at position past + t and sees keys 0..past+t. With no past that is the kernel's causal
  // mask; one new query sees every key; several new queries after a past need an explicit mask.
  std::vector<float> mask;
  if (past_ > 0 && T > 1) {
    mask.assign(size_t(T * S), 0.0f);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t j = past_ + t + 1; j < S; ++j) mask[size_t(t * S + j)] = -std::numeric_limits<float>::infinity();
  }
  const bool want_w = wants(cp + "attn.weights");
  Tensor weights = want_w ? Tensor::empty({H, T, S}, "model.forward") : Tensor();
  std::vector<float> o(size_t(T * H * D));
  const int64_t group = H / KV;
  for (int64_t g = 0; g < KV; ++g) {
    kernels::AttentionArgs a;
    a.sq = T;
    a.sk = S;
    a.d = a.dv = D;
    a.q = q.data() + g * group * D;
    a.rsq = H * D;
    a.k = K + g * D;
    a.rsk = KV * D;
    a.v = V + g * D;
    a.rsv = KV * D;
    a.o = o.data() + g * group * D;
    a.rso = H * D;
    a.scale = float(1.0 / std::sqrt(double(D)));
    a.causal = past_ == 0;
    if (!mask.empty()) {
      a.mask = mask.data();
      a.rsm = S;
      a.csm = 1;
    }
    if (want_w) {
      a.weights = weights.data() + g * group * T * S;
      a.hsw = T * S;
    }
    a.heads = group;
    a.hsq = a.hso = D;
    kernels::attention_f32(a);
  }
  if (want_w) keep(cp + "attn.weights", weights);
  std::vector<float> attn(size_t(T * hid));
  m_.linear(o.data(), T, p + "self_attn.o_proj.weight", c.o_bias ? p + "self_attn.o_proj.bias" : "", attn.data());
  for (int64_t j = 0; j < T * hid; ++j) x[j] += attn[size_t(j)];

  // --- SwiGLU MLP ---
  kernels::rms_norm_f32(T, hid, x, m_.vec(p + "post_attention_layernorm.weight").data(), c.rms_eps, h.data());
  if (wants(cp + "mlp.input")) keep(cp + "mlp.input", copy_of(h.data(), {T, hid}));
  const int64_t I = c.intermediate;
  std::vector<float> gate(size_t(T * I)), up(size_t(T * I));
  const auto mb = [&](const char* proj) { return c.mlp_bias ? p + "mlp." + proj + ".bias" : std::string(); };
  m_.linear(h.data(), T, p + "mlp.gate_proj.weight", mb("gate_proj"), gate.data());
  m_.linear(h.data(), T, p + "mlp.up_proj.weight", mb("up_proj"), up.data());
  kernels::silu_f32(T * I, gate.data(), gate.data());
  for (int64_t j = 0; j < T * I; ++j) gate[size_t(j)] *= up[size_t(j)];
  if (wants(cp + "mlp.act")) keep(cp + "mlp.act", copy_of(gate.data(), {T, I}));
  m_.linear(gate.data(), T, p + "mlp.down_proj.weight", mb("down_proj"), attn.data());
  for (int64_t j = 0; j < T * hid; ++j) x[j] += attn[size_t(j)];
  if (i == c.layers - 1 && cache_) cache_->length = S;
}

// Final norm, then lm_head on the last row ('last') or on every row ('all').
void ForwardRun::head() {
  const Config& c = m_.config();
  const int64_t T = int64_t(ids_.size()), hid = c.hidden;
  Tensor n = Tensor::empty({T, hid}, "model.forward");
  kernels::rms_norm_f32(T, hid, x_.data(), m_.vec("model.norm.weight").data(), c.rms_eps, n.data());
  x_ = Tensor();
  if (wants("norm")) keep("norm", n);
  const std::string lm = c.tied ? "model.embed_tokens.weight" : "lm_head.weight";
  if (opts_.logits == ForwardOptions::Logits::All) {
    Tensor l = Tensor::empty({T, c.vocab}, "model.forward");
    m_.linear(n.data(), T, lm, "", l.data());
    out_.logits = l;
  } else if (opts_.logits == ForwardOptions::Logits::Last) {
    Tensor l = Tensor::empty({c.vocab}, "model.forward");
    m_.linear(n.data() + (T - 1) * hid, 1, lm, "", l.data());
    out_.logits = l;
  }
}

ForwardResult Model::forward(const std::vector<int64_t>& ids, const ForwardOptions& opts, KVCache* cache,
                             const std::function<bool(int64_t, int64_t)>& progress) const {
  ForwardRun run(*this, ids, opts, cache);
  while (!run.done()) {
    run.step();
    if (progress && !progress(run.done_steps(), run.steps()) && !run.done())
      fail("model.forward", "cancelled after step ", run.done_steps(), " of ", run.steps());
  }
  return run.take();
}

KVCache Model::make_cache(int64_t capacity) const {
  if (capacity <= 0) fail("model.cache", "capacity must be positive, got ", capacity);
  KVCache kv;
  kv.capacity = capacity;
  for (int64_t i = 0; i < c_.layers; ++i) {
    kv.k.push_back(Tensor::empty({capacity, c_.kv_heads * c_.head_dim}, "model.cache"));
    kv.v.push_back(Tensor::empty({capacity, c_.kv_heads * c_.head_dim}, "model.cache"));
  }
  return kv;
}

std::vector<int64_t> Model::generate(const std::vector<int64_t>& prompt, int64_t max_new) const {
  if (max_new < 0) fail("model.generate", "maxNewTokens must be >= 0, got ", max_new);
  std::vector<int64_t> out;
  if (max_new == 0) return out;
  KVCache kv = make_cache(int64_t(prompt.size()) + max_new);
  std::vector<int64_t> step = prompt;
  for (int64_t n = 0; n < max_new; ++n) {
    ForwardResult r = forward(step, {}, &kv);
    const float* l = r.logits->data();
    // argmax, first index among equals (as numpy and torch)
    const int64_t next = std::max_element(l, l + c_.vocab) - l;
    out.push_back(next);
    if (std::find(c_.eos.begin(), c_.eos.end(), next) != c_.eos.end()) break;
    step.assign(1, next);
  }
  return out;
}

}  // namespace tp::model
