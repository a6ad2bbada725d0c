// The forward pass of tp::model (see model.hpp for the equations), one step at a time, with the
// activations a caller asked to capture; greedy generation over a KV cache.
// Every step splits over sgemm's threads where its work is large enough (kernels::parts_for): the
// projections inside the GEMM, the row-wise ops by rows, attention by K/V head groups and query blocks.
// Each row, group and block is computed exactly as on one thread, so the results are bit-identical for
// any thread count.
#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "tensorpad/gemm.hpp"
#include "tensorpad/model.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/simd.hpp"
#include "tensorpad/vmath.hpp"
#include "work_pool.hpp"

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

// A float buffer of n, not zeroed: each of the layer's is written whole before it is read, and zeroing
// them (30 MB a layer at 512 tokens) would be a pass on one thread.
class Floats {
 public:
  explicit Floats(int64_t n) : p_(new float[size_t(n)]), n_(size_t(n)) {}
  float* data() { return p_.get(); }
  const float* data() const { return p_.get(); }
  size_t size() const { return n_; }

 private:
  std::unique_ptr<float[]> p_;
  size_t n_;
};

// Runs fn(r0, r1) on ranges of rows [0, rows) split over the threads, for `cost` operations a row.
template <class Fn>
void over_rows(int64_t rows, double cost, const Fn& fn) {
  const int parts = kernels::parts_for(double(rows) * cost, rows);
  tp::detail::run_parts(parts, [=, &fn](int t) { fn(rows * t / parts, rows * (t + 1) / parts); });
}

// rms_norm_f32 over rows, split.
void rms_norm_rows(int64_t rows, int64_t d, const float* x, const float* w, float eps, float* y) {
  over_rows(rows, 4.0 * double(d), [&](int64_t r0, int64_t r1) { kernels::rms_norm_f32(r1 - r0, d, x + r0 * d, w, eps, y + r0 * d); });
}

// g = silu(g) * u = g / (1 + exp(-g)) * u over n values, in float32 as numpy's reference and torch's
// float32 modules compute it, with exp_f32 (4 lanes; exp_f32_ref is its scalar form). kernels::silu_f32
// (double exp, one value at a time) took 3% of a 1024-token forward. Very negative g: exp(-g) = inf and
// the result is -0, as silu's.
void swiglu(int64_t n, float* g, const float* u) {
  constexpr int64_t kBlock = 256;
  alignas(16) float e[kBlock];
  const simd::f32x4 one = simd::splat(1.0f);
  for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
    const int64_t len = std::min(kBlock, n - j0);
    float* gb = g + j0;
    const float* ub = u + j0;
    for (int64_t j = 0; j < len; ++j) e[j] = -gb[j];
    kernels::exp_f32(e, e, len);
    int64_t j = 0;
    for (; j + 4 <= len; j += 4)
      simd::store(gb + j, simd::mul(simd::div(simd::load(gb + j), simd::add(one, simd::load(e + j))), simd::load(ub + j)));
    for (; j < len; ++j) gb[j] = gb[j] / (1.0f + e[j]) * ub[j];
  }
}

// Monotonic nanoseconds from clock_gettime itself: libc++'s steady_clock::now() can throw a
// std::system_error, whose message code links the printf family into the single-thread core (3-4 KB gzipped).
int64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

void ForwardRun::lap(const char* op) {
  const int64_t t = now_ns(), helper = tp::detail::pool_counters().helper_ns;
  auto it = std::find_if(out_.profile.begin(), out_.profile.end(), [&](const OpTime& o) { return std::strcmp(o.op, op) == 0; });
  if (it == out_.profile.end()) {  // a new op: appended (push_back, not insert's move-range instance)
    out_.profile.push_back(OpTime{op});
    it = out_.profile.end() - 1;
  }
  it->calls += 1;
  it->ms += double(t - lap_ns_) * 1e-6;
  it->helper_ms += double(helper - lap_helper_ns_) * 1e-6;
  lap_ns_ = t;
  lap_helper_ns_ = helper;
}

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
  lap_ns_ = now_ns();
  lap_helper_ns_ = tp::detail::pool_counters().helper_ns;
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
  over_rows(T, double(c.hidden), [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t)
      io::to_float32(e.dtype, e.data() + size_t(ids_[size_t(t)]) * row_bytes, c.hidden, x_.data() + t * c.hidden);
  });
  // RoPE's table, transformers' half-split layout: for j < D/2 the pair (j, j + D/2) turns by
  // pos·inv_freq[j]. The angle is a float32 product and cos/sin are rounded to float32, as torch does.
  const int64_t half = c.head_dim / 2;
  cos_.resize(size_t(T * half));
  sin_.resize(size_t(T * half));
  over_rows(T, 40.0 * double(half), [&](int64_t t0, int64_t t1) {
    for (int64_t t = t0; t < t1; ++t)
      for (int64_t j = 0; j < half; ++j) {
        const float angle = float(m_.inv_freq()[size_t(j)]) * float(past_ + t);
        cos_[size_t(t * half + j)] = float(std::cos(double(angle)));
        sin_[size_t(t * half + j)] = float(std::sin(double(angle)));
      }
  });
  lap("embed");
  if (wants("embed")) keep("embed", x_.clone());
  lap("captures");
}

void ForwardRun::layer(int64_t i) {
  const Config& c = m_.config();
  const int64_t T = int64_t(ids_.size()), H = c.heads, KV = c.kv_heads, D = c.head_dim, hid = c.hidden;
  const int64_t S = past_ + T;  // keys visible to the last query
  const std::string p = "model.layers." + std::to_string(i) + ".";
  const std::string cp = "layers." + std::to_string(i) + ".";
  float* x = x_.data();
  if (wants(cp + "input")) keep(cp + "input", x_.clone());
  lap("captures");

  // --- attention ---
  Floats h(T * hid), q(T * H * D), k(T * KV * D), v(T * KV * D);
  rms_norm_rows(T, hid, x, m_.vec(p + "input_layernorm.weight").data(), c.rms_eps, h.data());
  lap("input_norm");
  const auto bias = [&](const char* proj) { return c.qkv_bias ? p + "self_attn." + proj + ".bias" : std::string(); };
  m_.linear(h.data(), T, p + "self_attn.q_proj.weight", bias("q_proj"), q.data());
  m_.linear(h.data(), T, p + "self_attn.k_proj.weight", bias("k_proj"), k.data());
  m_.linear(h.data(), T, p + "self_attn.v_proj.weight", bias("v_proj"), v.data());
  lap("qkv_proj");
  if (c.qk_norm) {  // Qwen3: RMSNorm over each head's D values, before RoPE
    rms_norm_rows(T * H, D, q.data(), m_.vec(p + "self_attn.q_norm.weight").data(), c.rms_eps, q.data());
    rms_norm_rows(T * KV, D, k.data(), m_.vec(p + "self_attn.k_norm.weight").data(), c.rms_eps, k.data());
    lap("qk_norm");
  }
  // RoPE with the table embed() made.
  const int64_t half = D / 2;
  const auto rope = [&](float* a, int64_t n) {
    over_rows(T, 6.0 * double(n * D), [&](int64_t t0, int64_t t1) {
      for (int64_t t = t0; t < t1; ++t)
        for (int64_t hh = 0; hh < n; ++hh) {
          float* r = a + (t * n + hh) * D;
          const float* ct = cos_.data() + t * half;
          const float* st = sin_.data() + t * half;
          for (int64_t j = 0; j < half; ++j) {
            const float x1 = r[j], x2 = r[j + half];
            r[j] = x1 * ct[j] - x2 * st[j];
            r[j + half] = x2 * ct[j] + x1 * st[j];
          }
        }
    });
  };
  rope(q.data(), H);
  rope(k.data(), KV);
  lap("rope");
  if (wants(cp + "attn.q")) keep(cp + "attn.q", heads_first(q.data(), T, H, D));
  if (wants(cp + "attn.k")) keep(cp + "attn.k", heads_first(k.data(), T, KV, D));
  if (wants(cp + "attn.v")) keep(cp + "attn.v", heads_first(v.data(), T, KV, D));
  lap("captures");

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
    lap("kv_cache");
  }
  // Query t sits at position past + t and sees keys 0..past+t. With no past that is the kernel's causal
  // mask; one new query sees every key; several new queries after a past need an explicit mask.
  std::vector<float> mask;
  if (past_ > 0 && T > 1) {
    mask.resize(size_t(T * S));  // zeros: mask is new (resize, not an assign(n, v) instance)
    for (int64_t t = 0; t < T; ++t)
      for (int64_t j = past_ + t + 1; j < S; ++j) mask[size_t(t * S + j)] = -std::numeric_limits<float>::infinity();
  }
  const bool want_w = wants(cp + "attn.weights");
  Tensor weights = want_w ? Tensor::empty({H, T, S}, "model.forward") : Tensor();
  Floats o(T * H * D);
  const int64_t group = H / KV;
  // Units of work: a K/V head group (its query heads read the same K/V tiles, the kernel's GQA) on one
  // block of the kernel's query tile rows. Causal, block b visits b + 1 key tiles, so the units go to
  // the threads in runs of equal cost rather than equal count (8 groups on 3 threads, or one group).
  const int64_t tile = kernels::kAttentionTileRows, blocks = (T + tile - 1) / tile, units = KV * blocks;
  const auto cost_before = [&](int64_t u) {  // key tiles visited by units [0, u)
    if (past_ > 0) return double(u) * double(blocks);
    const int64_t g = u / blocks, b = u % blocks;
    return double(g) * double(blocks * (blocks + 1) / 2) + double(b * (b + 1) / 2);
  };
  const double total = cost_before(units);
  const int parts = kernels::parts_for(4.0 * double(group * D * tile * tile) * total, units);
  // Part t's first unit: the first whose cost so far reaches t/parts of the whole.
  const auto first_unit = [&](int t) {
    int64_t lo = 0, hi = units;
    while (lo < hi) {
      const int64_t mid = (lo + hi) / 2;
      if (cost_before(mid) * parts < total * t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  tp::detail::run_parts(parts, [&, blocks, tile, T, H, D, group, KV, S, want_w](int t) {
    for (int64_t u = first_unit(t), end = first_unit(t + 1); u < end;) {
      // This part's blocks of one group, computed in one call (a call per run of blocks gives the same bits).
      const int64_t g = u / blocks, b0 = u % blocks, b1 = std::min(blocks, b0 + (end - u));
      const int64_t r0 = b0 * tile, rows = std::min(T, b1 * tile) - r0;
      u += b1 - b0;
      kernels::AttentionArgs a;
      a.sq = rows;
      a.sk = S;
      a.d = a.dv = D;
      a.q = q.data() + r0 * H * D + g * group * D;
      a.rsq = H * D;
      a.k = K + g * D;
      a.rsk = KV * D;
      a.v = V + g * D;
      a.rsv = KV * D;
      a.o = o.data() + r0 * H * D + g * group * D;
      a.rso = H * D;
      a.scale = float(1.0 / std::sqrt(double(D)));
      a.causal = past_ == 0;
      a.q0 = r0;
      if (!mask.empty()) {
        a.mask = mask.data() + r0 * S;
        a.rsm = S;
        a.csm = 1;
      }
      if (want_w) {
        a.weights = weights.data() + g * group * T * S + r0 * S;
        a.hsw = T * S;
      }
      a.heads = group;
      a.hsq = a.hso = D;
      kernels::attention_f32(a);
    }
  });
  lap("attention");
  if (want_w) keep(cp + "attn.weights", weights);
  // x += o · W_oᵀ: the residual add happens in the GEMM's store (sgemm's accumulate), not as a pass of
  // its own over [T, hidden]; torch adds the finished product to x, a rounding apart.
  m_.linear(o.data(), T, p + "self_attn.o_proj.weight", c.o_bias ? p + "self_attn.o_proj.bias" : "", x, true);
  lap("o_proj");

  // --- SwiGLU MLP ---
  rms_norm_rows(T, hid, x, m_.vec(p + "post_attention_layernorm.weight").data(), c.rms_eps, h.data());
  lap("post_norm");
  if (wants(cp + "mlp.input")) keep(cp + "mlp.input", copy_of(h.data(), {T, hid}));
  lap("captures");
  const int64_t I = c.intermediate;
  Floats gate(T * I), up(T * I);
  const auto mb = [&](const char* proj) { return c.mlp_bias ? p + "mlp." + proj + ".bias" : std::string(); };
  m_.linear(h.data(), T, p + "mlp.gate_proj.weight", mb("gate_proj"), gate.data());
  m_.linear(h.data(), T, p + "mlp.up_proj.weight", mb("up_proj"), up.data());
  lap("gate_up_proj");
  over_rows(T, 30.0 * double(I), [&](int64_t t0, int64_t t1) { swiglu((t1 - t0) * I, gate.data() + t0 * I, up.data() + t0 * I); });
  lap("swiglu");
  if (wants(cp + "mlp.act")) keep(cp + "mlp.act", copy_of(gate.data(), {T, I}));
  lap("captures");
  m_.linear(gate.data(), T, p + "mlp.down_proj.weight", mb("down_proj"), x, true);  // x += act · W_downᵀ
  lap("down_proj");
  if (i == c.layers - 1 && cache_) cache_->length = S;
}

// Final norm, then lm_head on the last row ('last') or on every row ('all').
void ForwardRun::head() {
  const Config& c = m_.config();
  const int64_t T = int64_t(ids_.size()), hid = c.hidden;
  Tensor n = Tensor::empty({T, hid}, "model.forward");
  rms_norm_rows(T, hid, x_.data(), m_.vec("model.norm.weight").data(), c.rms_eps, n.data());
  x_ = Tensor();
  lap("final_norm");
  if (wants("norm")) keep("norm", n);
  lap("captures");
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
  lap("lm_head");
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
