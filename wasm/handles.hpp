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

// Calls fn(ctx) inside the one try/catch of the binding layer (handles.cpp), turning any C++ exception
// into a pending error; returns whether fn returned normally. Out of line and not inlined: a landing
// pad per binding (and, in the pthreads flavour, a JS invoke_* per call inside it) cost ~35 KB of WASM.
bool run_guarded(void (*fn)(void*), void* ctx);

// Runs f, turning any C++ exception into a pending error and a default result.
template <class F>
auto guard(F&& f) -> decltype(f()) {
  using R = decltype(f());
  if constexpr (std::is_void_v<R>) {
    run_guarded([](void* p) { (*static_cast<std::remove_reference_t<F>*>(p))(); }, &f);
  } else {
    R r = fallback<R>();
    auto call = [&] { r = f(); };
    run_guarded([](void* p) { (*static_cast<decltype(call)*>(p))(); }, &call);
    return r;
  }
}

std::vector<int64_t> to_shape(const emscripten::val& array);  // JS array of integers
emscripten::val from_shape(const std::vector<int64_t>& shape);
std::vector<tp::Tensor> to_tensors(const emscripten::val& handles);

}  // namespace tpw
