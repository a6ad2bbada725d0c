// Handle table and pending-error slot shared by every binding file.
#include "handles.hpp"

#include <cmath>

namespace tpw {

namespace {
constexpr int kIndexBits = 22;
constexpr int kIndexMask = (1 << kIndexBits) - 1;

Table<tp::Tensor> g_tensors;
std::string g_error;
bool g_has_error = false;
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
  const auto v = emscripten::vecFromJSArray<double>(array);
  std::vector<int64_t> out;
  for (double d : v) {
    // Converting a double outside int64 is undefined (in WASM it gave -2^63): refuse what JS cannot
    // hold exactly. The JS API has checked the shape by now, so this names the value, not the op.
    if (!(std::abs(d) <= 9007199254740991.0) || d != std::trunc(d))
      tp::fail("shape", "dimension ", d, " is not an integer that JS holds exactly (|d| <= 2^53 - 1)");
    out.push_back(int64_t(d));
  }
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

}  // namespace tpw
