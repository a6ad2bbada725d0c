// Handle table and pending-error slot shared by every binding file.
#include "handles.hpp"

#include <algorithm>
#include <cmath>

namespace tpw {

namespace {
constexpr int kIndexBits = 22;
constexpr int kIndexMask = (1 << kIndexBits) - 1;

Table<tp::Tensor> g_tensors;
std::string g_error;
bool g_has_error = false;

// The arguments of the op being called, and its list result (calls.js reads both through a view).
std::vector<double> g_args(256);
// Every binding file's rows, in static-initialisation order. Made at the first registration (a static
// initializer, on the main thread) through a pointer that is zero before any initializer runs: a
// function-local static would need a guard (__cxa_guard_acquire, with a mutex and condition variable in
// the pthreads core).
std::vector<OpRow>* g_op_rows = nullptr;
std::vector<OpRow>& op_rows() {
  if (!g_op_rows) g_op_rows = new std::vector<OpRow>;
  return *g_op_rows;
}

// A list element that is a dimension: an integer that JS holds exactly. Converting a double outside
// int64 is undefined (in WASM it gave -2^63): refuse it. The JS API has checked the shape by now, so
// this names the value, not the op.
int64_t dimension(double d) {
  if (!(std::abs(d) <= 9007199254740991.0) || d != std::trunc(d))
    tp::fail("shape", "dimension ", d, " is not an integer that JS holds exactly (|d| <= 2^53 - 1)");
  return int64_t(d);
}
}  // namespace

size_t SlotIndex::next() const { return free_.empty() ? generation_.size() : size_t(free_.back()); }

int SlotIndex::acquire() {
  size_t i;
  if (!free_.empty()) {
    i = size_t(free_.back());
    free_.pop_back();
  } else {
    if (generation_.size() > size_t(kIndexMask)) throw tp::Error("handles: more than 4194304 objects of one kind alive at once");
    i = generation_.size();
    generation_.push_back(0);
  }
  ++live_;
  return handle_of(i);
}

int SlotIndex::handle_of(size_t slot) const { return (int(generation_[slot]) << kIndexBits | int(slot)) + 1; }

int SlotIndex::slot(int handle) const {
  const int v = handle - 1;
  if (v < 0 || size_t(v & kIndexMask) >= generation_.size()) return -1;
  const size_t i = size_t(v & kIndexMask);
  // A released handle is one generation behind its slot (a free slot's generation is that of the
  // handle it gives next, which nobody holds yet; Table checks the slot holds a value all the same).
  return (v >> kIndexBits) == generation_[i] ? int(i) : -1;
}

void SlotIndex::free(int handle) {
  const size_t i = size_t((handle - 1) & kIndexMask);
  ++generation_[i];
  free_.push_back(int(i));
  --live_;
}

int put(tp::Tensor t) { return g_tensors.put(std::move(t)); }

const tp::Tensor& get(int handle) {
  const tp::Tensor* t = g_tensors.find(handle);
  if (!t) throw tp::Error("tensor: this tensor was disposed (use after dispose)");
  return *t;
}

void release(int handle) { g_tensors.release(handle); }
int live_handles() { return g_tensors.live(); }

void set_error(const std::string& message) {
  g_error = message;
  g_has_error = true;
}
bool error_pending() { return g_has_error; }
std::string take_error() {
  g_has_error = false;
  return std::move(g_error);
}

__attribute__((noinline)) bool run_guarded(void (*fn)(void*), void* ctx) {
  try {
    fn(ctx);
    return true;
  } catch (const std::bad_alloc&) {
    set_error("out of memory: the WebAssembly heap cannot grow further");
  } catch (const std::exception& e) {
    set_error(e.what());
  }
  return false;
}

std::vector<int64_t> to_shape(const emscripten::val& array) {
  std::vector<int64_t> out;
  for (double d : emscripten::vecFromJSArray<double>(array)) out.push_back(dimension(d));
  return out;
}

emscripten::val from_shape(const std::vector<int64_t>& shape) {
  emscripten::val a = emscripten::val::array();
  for (size_t i = 0; i < shape.size(); ++i) a.set(i, double(shape[i]));
  return a;
}

std::vector<tp::Tensor> to_tensors(const emscripten::val& handles) {
  std::vector<tp::Tensor> out;
  for (int h : emscripten::vecFromJSArray<int>(handles)) out.push_back(get(h));
  return out;
}

// ---- the generic entry ----
int Args::i(int k) const {
  const double v = p_[k];
  return v != v ? 0 : int(std::fmin(std::fmax(v, -2147483648.0), 2147483647.0));
}
double Args::clamped(int k) const {
  const double v = p_[k];
  return v != v ? 0 : std::fmin(std::fmax(v, -9223372036854775808.0), 9223372036854774784.0);
}
const tp::Tensor& Args::t(int k) const { return get(i(k)); }
std::optional<tp::Tensor> Args::opt(int k) const {
  const int id = i(k);
  return id ? std::optional<tp::Tensor>(get(id)) : std::nullopt;
}
const double* Args::list(int k, size_t& n) const {
  const double* at = p_ + size_t(p_[k]);  // calls.js wrote the offset: [length, values...]
  n = size_t(at[0]);
  return at + 1;
}
std::vector<int64_t> Args::shape(int k) const {
  size_t n;
  const double* v = list(k, n);
  std::vector<int64_t> out(n);
  for (size_t j = 0; j < n; ++j) out[j] = dimension(v[j]);
  return out;
}
std::vector<double> Args::doubles(int k) const {
  size_t n;
  const double* v = list(k, n);
  return std::vector<double>(v, v + n);
}
std::vector<tp::Tensor> Args::tensors(int k) const {
  size_t n;
  const double* v = list(k, n);
  std::vector<tp::Tensor> out;
  for (size_t j = 0; j < n; ++j) out.push_back(get(int(v[j])));
  return out;
}

void OpRows::add(const OpRow* rows, size_t n) {
  for (size_t i = 0; i < n; ++i) op_rows().push_back(rows[i]);  // not insert: its range instance
}

// After the op has read its arguments: the buffer may move, and calls.js asks for it again.
double list(const std::vector<double>& values) {
  if (g_args.size() < values.size()) g_args.resize(values.size());
  std::copy(values.begin(), values.end(), g_args.begin());
  return double(values.size());
}
double list(const std::vector<int64_t>& values) {
  if (g_args.size() < values.size()) g_args.resize(values.size());
  for (size_t i = 0; i < values.size(); ++i) g_args[i] = double(values[i]);
  return double(values.size());
}
double handles(const std::vector<tp::Tensor>& ts) {
  std::vector<double> ids;
  for (const tp::Tensor& t : ts) ids.push_back(put(t));
  return list(ids);
}

namespace {
double call(int op) {
  return guard([&] {
    const std::vector<OpRow>& rows = op_rows();
    if (op < 0 || size_t(op) >= rows.size()) tp::fail("call", "no op ", op);
    return rows[size_t(op)].fn(Args(g_args.data()));
  });
}
// A Float64Array onto the argument buffer, at least n long: valid until the heap grows or a list
// result needs more room, so calls.js asks again when its view is empty (detached) or too short.
emscripten::val args_buffer(int n) {
  if (n > 0 && g_args.size() < size_t(n)) g_args.resize(size_t(n));
  return emscripten::val(emscripten::typed_memory_view(g_args.size(), g_args.data()));
}
// "name:kind,name:kind,...": the op ids are the positions.
std::string op_table() {
  std::string s;
  for (const OpRow& r : op_rows()) {
    if (!s.empty()) s += ',';
    s += r.name;
    s += ':';
    s += char(r.result);
  }
  return s;
}
}  // namespace

}  // namespace tpw

EMSCRIPTEN_BINDINGS(tensorpad_call) {
  emscripten::function("call", &tpw::call);
  emscripten::function("argsBuffer", &tpw::args_buffer);
  emscripten::function("opTable", &tpw::op_table);
}
