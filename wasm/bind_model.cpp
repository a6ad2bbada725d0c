// Embind bindings of tp::model (cpp/include/tensorpad/model.hpp) for wasm/js/model.js. Models, forward
// runs and KV caches live in their own handle tables; JS reads each tensor's bytes from the file and
// hands them over in chunks (modelWeightBegin / modelWeightChunk / modelWeightEnd), and steps a forward
// one layer at a time (modelRunStep) so it can report progress and stop between layers.
#include <cstring>
#include <memory>

#include "handles.hpp"
#include "tensorpad/model.hpp"

using emscripten::typed_memory_view;
using emscripten::val;
namespace model = tp::model;

namespace {

// A loaded model, the tensor being written, and its runs and caches.
struct Loaded {
  std::unique_ptr<model::Model> m;
  std::string writing;       // name of the tensor being filled, "" when none
  uint8_t* dst = nullptr;
  size_t size = 0, filled = 0;
};
struct Run {
  int model;
  std::unique_ptr<model::ForwardRun> run;
};

tpw::Table<Loaded> g_models;
tpw::Table<Run> g_runs;
tpw::Table<std::unique_ptr<model::KVCache>> g_caches;

Loaded& loaded(int id) {
  Loaded* l = g_models.find(id);
  if (!l) throw tp::Error("model: this model was disposed (use after dispose)");
  return *l;
}

std::vector<int64_t> to_ids(const val& ids) {
  std::vector<int64_t> out;
  for (double d : emscripten::vecFromJSArray<double>(ids)) {
    if (d != double(int64_t(d))) tp::fail("model.forward", "token id ", d, " is not an integer");
    out.push_back(int64_t(d));
  }
  return out;
}

// config.json as JS parsed it, seen through the core's ConfigObject: no JSON parser in the module.
class ValObject : public model::ConfigObject {
 public:
  explicit ValObject(val v) : v_(std::move(v)) {}
  Kind kind(const char* key) const override {
    const val x = v_[key];
    const std::string t = x.typeOf().as<std::string>();
    if (t == "undefined" || x.isNull()) return kAbsent;
    if (t == "boolean") return kBool;
    if (t == "number") return val::global("Number").call<bool>("isInteger", x) ? kInt : kNumber;
    if (t == "string") return kString;
    if (val::global("Array").call<bool>("isArray", x)) return kArray;
    return t == "object" ? kObject : kOther;
  }
  double number(const char* key) const override { return v_[key].as<double>(); }
  bool boolean(const char* key) const override { return v_[key].as<bool>(); }
  std::string string(const char* key) const override { return v_[key].as<std::string>(); }
  std::string text(const char* key) const override {
    return val::global("JSON").call<val>("stringify", v_[key]).as<std::string>();
  }
  std::unique_ptr<ConfigObject> object(const char* key) const override { return std::make_unique<ValObject>(v_[key]); }
  std::vector<std::string> strings(const char* key) const override {
    std::vector<std::string> out;
    const val a = v_[key];
    const int n = a["length"].as<int>();
    for (int i = 0; i < n; ++i) out.push_back(a[i].typeOf().as<std::string>() == "string" ? a[i].as<std::string>() : "");
    return out;
  }
  std::vector<double> integers(const char* key) const override {
    std::vector<double> out;
    const val a = v_[key];
    const int n = a["length"].as<int>();
    for (int i = 0; i < n; ++i)
      if (val::global("Number").call<bool>("isInteger", a[i])) out.push_back(a[i].as<double>());
    return out;
  }

 private:
  val v_;
};

// Reads config.json (the object JS parsed); returns the model id, or 0 with a pending error.
int create(val config) {
  return tpw::guard([&] {
    auto m = std::make_unique<model::Model>(model::parse_config(ValObject(config)));
    Loaded l;
    l.m = std::move(m);
    return g_models.put(std::move(l));
  });
}

// The sizes parse_config derived (defaults filled in), for model.config.
val config_of(int id) {
  return tpw::guard([&] {
    const model::Config& c = loaded(id).m->config();
    const std::pair<const char*, double> nums[] = {
        {"vocabSize", double(c.vocab)}, {"hiddenSize", double(c.hidden)}, {"intermediateSize", double(c.intermediate)},
        {"numLayers", double(c.layers)}, {"numHeads", double(c.heads)}, {"numKvHeads", double(c.kv_heads)},
        {"headDim", double(c.head_dim)}, {"ropeTheta", c.rope_theta}, {"rmsNormEps", double(c.rms_eps)}};
    val out = val::object();
    out.set("architecture", c.architecture);
    for (const auto& [k, v] : nums) out.set(k, v);
    out.set("ropeType", c.rope_type);
    out.set("tiedEmbeddings", c.tied);
    val eos = val::array();
    for (size_t i = 0; i < c.eos.size(); ++i) eos.set(i, double(c.eos[i]));
    out.set("eosTokenIds", eos);
    return out;
  });
}

// Starts tensor `name`: 1 when its bytes are wanted (send them with modelWeightChunk), 0 when the model
// ignores it (skip reading it); 0 with a pending error when refused.
int weight_begin(int id, std::string name, std::string dtype, val shape, double nbytes) {
  return tpw::guard([&] {
    Loaded& l = loaded(id);
    tp::io::DType dt;
    if (!tp::io::dtype_from_name(dtype, &dt)) tp::fail("model.load", "tensor '", name, "' has unknown dtype '", dtype, "'");
    uint8_t* dst = l.m->allocate(name, dt, tpw::to_shape(shape));
    if (!dst) return 0;
    l.writing = name;
    l.dst = dst;
    l.size = l.m->weight(name).nbytes();
    l.filled = 0;
    if (double(l.size) != nbytes) tp::fail("model.load", "tensor '", name, "' has ", nbytes, " bytes, its shape needs ", l.size);
    return 1;
  });
}

bool weight_chunk(int id, val bytes) {
  return tpw::guard([&] {
    Loaded& l = loaded(id);
    const size_t n = size_t(bytes["length"].as<double>());
    if (l.writing.empty() || l.filled + n > l.size) tp::fail("model.load", "bytes arrived for no tensor, or too many");
    val(typed_memory_view(n, l.dst + l.filled)).call<void>("set", bytes);
    l.filled += n;
    return true;
  });
}

bool weight_end(int id) {
  return tpw::guard([&] {
    Loaded& l = loaded(id);
    if (l.filled != l.size)
      tp::fail("model.load", "tensor '", l.writing, "' got ", l.filled, " of its ", l.size, " bytes");
    l.m->mark_loaded(l.writing);
    l.writing.clear();
    return true;
  });
}

// Rows of the op table (numbers in, a number out; call() is the guard): (id)
double check_complete(const tpw::Args& a) {
  loaded(a.i(0)).m->check_complete();
  return 1;
}

// All the weights' bytes (model.bytes), or only those outside tensors (what tp.memory adds for models).
// (id, outsideTensors)
double model_bytes(const tpw::Args& a) {
  const bool outside_tensors = a.b(1);
  const Loaded* l = g_models.find(a.i(0));
  if (!l) return 0.0;
  return double(outside_tensors ? l->m->vec_bytes() : l->m->bytes());
}

// Frees the model and every run and cache made from it.
double release(const tpw::Args& a) {  // (id)
  const int id = a.i(0);
  g_runs.each([&](int rid, const Run& r) {
    if (r.model == id) g_runs.release(rid);
  });
  g_models.release(id);
  return 0;
}

// The weight itself in its file dtype (a new handle on the model's storage, not a copy): disposing the
// handle leaves the model whole; the storage lives while either holds it.
int weight(int id, std::string name) {
  return tpw::guard([&] { return tpw::put(loaded(id).m->weight(name).t); });
}

// KV caches: one per generation.
// (id, capacity)
double cache_create(const tpw::Args& a) {
  auto kv = std::make_unique<model::KVCache>(loaded(a.i(0)).m->make_cache(int64_t(a.d(1))));
  return g_caches.put(std::move(kv));
}
double cache_release(const tpw::Args& a) {  // (cacheId)
  g_caches.release(a.i(0));
  return 0;
}

// A forward run: logits 0 none, 1 last, 2 all; capture is an array of names or patterns; cache 0 = none.
int run_begin(int id, val ids, val capture, int logits, int cache) {
  return tpw::guard([&] {
    Loaded& l = loaded(id);
    model::ForwardOptions o;
    o.capture = emscripten::vecFromJSArray<std::string>(capture);
    o.logits = logits == 0 ? model::ForwardOptions::Logits::None
             : logits == 2 ? model::ForwardOptions::Logits::All : model::ForwardOptions::Logits::Last;
    model::KVCache* kv = nullptr;
    if (cache) {
      auto* c = g_caches.find(cache);
      if (!c) tp::fail("model.forward", "this KV cache was released");
      kv = c->get();
    }
    Run r{id, std::make_unique<model::ForwardRun>(*l.m, to_ids(ids), std::move(o), kv)};
    return g_runs.put(std::move(r));
  });
}

// One step; returns [done, total] (done == total when finished).
val run_step(int rid) {
  return tpw::guard([&] {
    Run* r = g_runs.find(rid);
    if (!r) tp::fail("model.forward", "this forward run was released");
    r->run->step();
    val out = val::array();
    out.set(0, double(r->run->done_steps()));
    out.set(1, double(r->run->steps()));
    return out;
  });
}

// The results as {logits: handle or 0, captures: [[name, handle], ...], profile: [[op, calls, ms,
// helperMs], ...]}; the run is released.
val run_take(int rid) {
  return tpw::guard([&] {
    Run* run = g_runs.find(rid);
    if (!run || !run->run->done()) tp::fail("model.forward", "this forward run is not finished");
    model::ForwardResult r = run->run->take();
    g_runs.release(rid);
    val out = val::object();
    out.set("logits", r.logits ? tpw::put(*r.logits) : 0);
    val caps = val::array();
    for (size_t i = 0; i < r.captures.size(); ++i) {
      val pair = val::array();
      pair.set(0, r.captures[i].first);
      pair.set(1, tpw::put(std::move(r.captures[i].second)));
      caps.set(i, pair);
    }
    out.set("captures", caps);
    val prof = val::array();  // [[op, calls, ms, helperMs], ...]
    for (size_t i = 0; i < r.profile.size(); ++i) {
      const model::OpTime& t = r.profile[i];
      val row = val::array();
      row.set(0, std::string(t.op));
      row.set(1, double(t.calls));
      row.set(2, t.ms);
      row.set(3, t.helper_ms);
      prof.set(i, row);
    }
    out.set("profile", prof);
    return out;
  });
}
double run_release(const tpw::Args& a) {  // (runId)
  g_runs.release(a.i(0));
  return 0;
}

// Numbers in, a number out: rows of the op table (handles.hpp), not embind functions of their own.
const tpw::OpRow kRows[] = {
    {"modelCheckComplete", tpw::Result::Bool, check_complete},
    {"modelBytes", tpw::Result::Number, model_bytes},
    {"modelRelease", tpw::Result::Number, release},
    {"modelCacheCreate", tpw::Result::Number, cache_create},
    {"modelCacheRelease", tpw::Result::Number, cache_release},
    {"modelRunRelease", tpw::Result::Number, run_release},
};
const tpw::OpRows kAdded(kRows);

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_model) {
  using emscripten::function;
  function("modelCreate", &create);
  function("modelConfig", &config_of);
  function("modelWeightBegin", &weight_begin);
  function("modelWeightChunk", &weight_chunk);
  function("modelWeightEnd", &weight_end);
  function("modelWeight", &weight);
  function("modelRunBegin", &run_begin);
  function("modelRunStep", &run_step);
  function("modelRunTake", &run_take);
}
