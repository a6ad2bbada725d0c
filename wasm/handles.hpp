// The binding layer's shared runtime: tensors behind integer handles, and errors as values.
// No math here: every binding unwraps handles, calls the core, and wraps the result.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tpw {

int put(tp::Tensor t);              // stores a tensor, returns its handle
const tp::Tensor& get(int handle);  // throws tp::Error when the handle was released
void release(int handle);           // idempotent
int live_handles();

// Errors cross into JS as a pending message that the JS wrapper turns into one TensorpadError:
// throwing through embind would reach JS as an opaque WebAssembly.Exception.
void set_error(const std::string& message);
bool error_pending();
std::string take_error();

// The result a binding returns alongside a pending error (JS ignores it).
template <class T>
T fallback() {
  if constexpr (std::is_same_v<T, emscripten::val>) return emscripten::val::undefined();
  else return T();
}

// Runs f, turning any C++ exception into a pending error and a default result.
template <class F>
auto guard(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    set_error("out of memory: the WebAssembly heap cannot grow further");
  } catch (const std::exception& e) {
    set_error(e.what());
  }
  return fallback<decltype(f())>();
}

std::vector<int64_t> to_shape(const emscripten::val& array);  // JS array of integers
emscripten::val from_shape(const std::vector<int64_t>& shape);
std::vector<tp::Tensor> to_tensors(const emscripten::val& handles);

}  // namespace tpw
