// Handle table and pending-error slot shared by every binding file.
#include "handles.hpp"

#include <cmath>
#include <unordered_map>

namespace tpw {

namespace {
std::unordered_map<int, tp::Tensor>& table() {
  static std::unordered_map<int, tp::Tensor> t;
  return t;
}
int g_next = 1;
std::string g_error;
bool g_has_error = false;
}  // namespace

int put(tp::Tensor t) {
  const int h = g_next++;
  table().emplace(h, std::move(t));
  return h;
}

const tp::Tensor& get(int handle) {
  auto it = table().find(handle);
  if (it == table().end()) throw tp::Error("tensor: this tensor was disposed (use after dispose)");
  return it->second;
}

void release(int handle) { table().erase(handle); }
int live_handles() { return int(table().size()); }

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
