// tp::model::Model's weights: checked in one by one against the config, held in their file dtype, and
// read by the forward through linear() and vec() only (the one place that knows how they are stored).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tensorpad/gemm.hpp"
#include "tensorpad/model.hpp"
#include "sort_order.hpp"

namespace tp::model {

namespace {
constexpr const char* kLoad = "model.load";

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// RoPE inverse frequencies as transformers' rope init functions compute them (in double here; torch
// rounds them to float32, a relative 6e-8 that tests absorb).
std::vector<double> rope_inv_freq(const Config& c) {
  const int64_t half = c.head_dim / 2;
  std::vector<double> f(size_t(half), 0.0);
  for (int64_t i = 0; i < half; ++i) f[size_t(i)] = 1.0 / std::pow(c.rope_theta, double(2 * i) / double(c.head_dim));
  if (c.rope_type == "linear") {
    for (double& x : f) x /= c.rope_factor;
  } else if (c.rope_type == "llama3") {
    // Long wavelengths slow down by factor, short ones stay, the band between is interpolated.
    const double pi = 3.14159265358979323846;
    const double low_wavelen = c.original_max_positions / c.low_freq_factor;
    const double high_wavelen = c.original_max_positions / c.high_freq_factor;
    for (double& x : f) {
      const double wavelen = 2 * pi / x;
      if (wavelen > low_wavelen) {
        x /= c.rope_factor;
      } else if (wavelen >= high_wavelen) {
        const double smooth = (c.original_max_positions / wavelen - c.low_freq_factor) / (c.high_freq_factor - c.low_freq_factor);
        x = (1 - smooth) * x / c.rope_factor + smooth * x;
      }
    }
  }
  return f;
}
}  // namespace

bool capture_matches(const std::string& pattern, const std::string& name) {
  // Iterative wildcard match with one backtrack point per star kind.
  size_t p = 0, n = 0;
  size_t star_p = std::string::npos, star_n = 0;
  bool star_dots = false;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star_dots = p + 1 < pattern.size() && pattern[p + 1] == '*';
      p += star_dots ? 2 : 1;
      star_p = p;
      star_n = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      ++p;
      ++n;
    } else if (star_p != std::string::npos && (star_dots || name[star_n] != '.')) {
      p = star_p;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Model::Model(Config c) : c_(std::move(c)) {
  std::vector<WeightSpec> specs = expected_weights(c_);
  const std::vector<int64_t> order = tp::detail::sort_order(
      int64_t(specs.size()), [&](int64_t a, int64_t b) { return specs[size_t(a)].name < specs[size_t(b)].name; });
  entries_.reserve(order.size());
  for (int64_t i : order) {  // a repeated name keeps its first spec, as std::map::emplace did
    if (!entries_.empty() && entries_.back().spec.name == specs[size_t(i)].name) continue;
    entries_.push_back(Entry{});
    entries_.back().spec = std::move(specs[size_t(i)]);
  }
  inv_freq_ = rope_inv_freq(c_);
}

int64_t Model::find(const std::string& name) const {
  int64_t lo = 0, hi = int64_t(entries_.size());  // the answer is in [lo, hi)
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    const int c = entries_[size_t(mid)].spec.name.compare(name);
    if (c == 0) return mid;
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return -1;
}

uint8_t* Model::allocate(const std::string& name, io::DType dtype, const Shape& shape) {
  // Tensors a checkpoint may carry that the forward does not read.
  if (ends_with(name, ".rotary_emb.inv_freq")) return nullptr;
  if (c_.tied && name == "lm_head.weight") {
    if (shape != Shape{c_.vocab, c_.hidden})
      fail(kLoad, "tensor 'lm_head.weight' has shape ", shape, ", config.json implies ",
           Shape{c_.vocab, c_.hidden});
    return nullptr;  // tie_word_embeddings: transformers uses embed_tokens and ignores it as well
  }
  const int64_t at = find(name);
  if (at < 0) {
    std::string why = c_.architecture + " with this config.json has no tensor '" + name + "'";
    if (ends_with(name, ".bias")) why += " (does config.json's attention_bias / mlp_bias match the checkpoint?)";
    if (name == "lm_head.weight") why += " (tie_word_embeddings is true)";
    fail(kLoad, why);
  }
  Entry& e = entries_[size_t(at)];
  if (shape != e.spec.shape)
    fail(kLoad, "tensor '", name, "' has shape ", shape, ", config.json implies ", e.spec.shape,
         " (", e.spec.why, ")");
  if (dtype != io::DType::F32 && dtype != io::DType::F16 && dtype != io::DType::BF16)
    fail(kLoad, "tensor '", name, "' is stored as ", io::dtype_name(dtype), "; model weights must be F32, F16 or BF16");
  if (e.present) fail(kLoad, "tensor '", name, "' appears twice (in two shards?)");
  Weight w;
  w.dtype = dtype;
  w.shape = shape;
  w.numel = 1;
  for (int64_t d : shape) w.numel *= d;
  const DType td = dtype == io::DType::F32 ? DType::Float32 : dtype == io::DType::F16 ? DType::Float16 : DType::BFloat16;
  try {
    w.t = Tensor::empty(shape, td, kLoad);
  } catch (const std::exception& e) {
    fail(kLoad, "cannot hold tensor '", name, "' (", int64_t(w.nbytes() >> 20), " MB; the weights so far hold ", bytes_ >> 20,
         " MB): ", e.what());
  }
  uint8_t* dst = w.data();
  bytes_ += int64_t(w.nbytes());
  e.w = std::move(w);
  e.present = true;
  return dst;
}

void Model::mark_loaded(const std::string& name) {
  const int64_t at = find(name);
  if (at < 0 || !entries_[size_t(at)].present) return;  // an ignored tensor
  Weight& w = entries_[size_t(at)].w;
  w.loaded = true;
  if (w.dtype == io::DType::F16)
    w.finite = kernels::f16_all_finite(w.numel, reinterpret_cast<const uint16_t*>(w.data()));
  if (w.shape.size() == 1) {
    std::vector<float> f(size_t(w.numel));
    io::to_float32(w.dtype, w.data(), w.numel, f.data());
    vec_bytes_ += int64_t(f.size() * sizeof(float));
    entries_[size_t(at)].vec = std::move(f);
  }
}

void Model::check_complete() const {
  std::vector<std::string> missing;
  for (const Entry& e : entries_)  // by name, as the map listed them
    if (!e.present || !e.w.loaded) missing.push_back(e.spec.name);
  if (missing.empty()) return;
  std::string list;
  for (size_t i = 0; i < missing.size() && i < 4; ++i) list += (i ? ", '" : "'") + missing[i] + "'";
  if (missing.size() > 4) list += ", ...";
  fail(kLoad, missing.size(), " tensor", missing.size() == 1 ? "" : "s", " missing from the checkpoint: ", list);
}

const Weight& Model::weight(const std::string& name) const {
  int64_t at = find(name);
  if (at < 0 || !entries_[size_t(at)].present) {
    const std::string real = c_.tied && name == "lm_head.weight" ? "model.embed_tokens.weight" : name;
    at = find(real);
    if (at < 0 || !entries_[size_t(at)].present) fail("model.weight", "no weight named '", name, "'");
  }
  return entries_[size_t(at)].w;
}

std::vector<std::string> Model::weight_names() const {
  std::vector<std::string> out;
  for (const auto& s : expected_weights(c_)) out.push_back(s.name);
  return out;
}

Tensor Model::weight_f32(const std::string& name) const {
  const Weight& w = weight(name);
  Tensor t = Tensor::empty(w.shape, "model.weight");
  io::to_float32(w.dtype, w.data(), w.numel, t.data());
  return t;
}

const std::vector<float>& Model::vec(const std::string& name) const {
  const int64_t at = find(name);
  TP_ASSERT(at >= 0 && entries_[size_t(at)].w.loaded && entries_[size_t(at)].w.shape.size() == 1);
  return entries_[size_t(at)].vec;
}

// x is [T, in], W is [out, in], y is [T, out]: sgemm with B = Wᵀ read transposed by its packing; a
// BF16/F16 weight goes to sgemm_half, which widens it while packing (never a float32 copy of W).
// accumulate: the GEMM adds into y (the residual stream) as it stores, no separate pass over y.
void Model::linear(const float* x, int64_t T, const std::string& wname, const std::string& bname, float* y,
                   bool accumulate) const {
  const Weight& w = weight(wname);
  const int64_t out = w.shape[0], in = w.shape[1];
  if (w.dtype == io::DType::F32) {
    kernels::sgemm(T, out, in, x, in, 1, reinterpret_cast<const float*>(w.data()), 1, in, y, out, accumulate);
  } else {
    kernels::sgemm_half(T, out, in, x, in, 1, reinterpret_cast<const uint16_t*>(w.data()), 1, in,
                        w.dtype == io::DType::BF16 ? Half::BF16 : Half::F16, y, out, accumulate, w.finite);
  }
  if (!bname.empty()) {
    const std::vector<float>& b = vec(bname);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t j = 0; j < out; ++j) y[t * out + j] += b[size_t(j)];
  }
}

}  // namespace tp::model
