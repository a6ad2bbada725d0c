// The binding layer's shared runtime: tensors behind integer handles, and errors as values.
// No math here: every binding unwraps handles, calls the core, and wraps the result.
#pragma once
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tpw {

// The slots of a handle table, whatever it holds: a handle is 1 + the slot's index in its low 22 bits
// (4M objects alive at once) with the slot's generation above them, which changes at every release, so
// a stale handle (use after dispose) does not reach what later reuses its slot (for 255 reuses).
// Out of line (handles.cpp) and not a template: the tables share one copy of this code; a slot vector
// and a free list instead of std::unordered_map, whose instantiations were ~1.5 KB each.
class SlotIndex {
 public:
  size_t next() const;   // the slot the next acquire() takes
  int acquire();         // takes that slot, returns its handle
  int slot(int handle) const;  // the live slot of a handle, or -1
  void free(int handle);       // handle must be live
  int handle_of(size_t slot) const;
  int live() const { return live_; }

 private:
  std::vector<uint8_t> generation_;
  std::vector<int> free_;
  int live_ = 0;
};

// Objects of one kind behind handles: vector<optional<V>> indexed by SlotIndex's slots.
template <class V>
class Table {
 public:
  int put(V v) {
    const size_t i = index_.next();
    if (i >= values_.size()) values_.resize(i + 1);
    values_[i].emplace(std::move(v));
    return index_.acquire();
  }
  V* find(int handle) {  // nullptr when the handle was released (or never given)
    const int i = index_.slot(handle);
    return i < 0 || !values_[size_t(i)] ? nullptr : &*values_[size_t(i)];
  }
  void release(int handle) {  // idempotent
    const int i = index_.slot(handle);
    if (i < 0 || !values_[size_t(i)]) return;
    values_[size_t(i)].reset();
    index_.free(handle);
  }
  int live() const { return index_.live(); }
  template <class F>
  void each(F&& f) {  // f(handle, value) for every live value
    for (size_t i = 0; i < values_.size(); ++i)
      if (values_[i]) f(index_.handle_of(i), *values_[i]);
  }

 private:
  SlotIndex index_;
  std::vector<std::optional<V>> values_;
};

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

// ---- The generic entry (call): most ops are not one embind function each but one row of a table ----
// JS (wasm/js/calls.js) writes an op's arguments into one buffer of doubles in the heap, in order, a
// list (shape, dims, handles) as an offset to [length, values...] after the fixed slots, then calls
// call(op); a handle, number or bool comes back as call's result, a list of numbers through the buffer.
// Why: an embind function per op cost a wrapper, an invoker, a guard thunk and a registration each
// (~22 KB of code, ~5 KB gzipped over 110 ops).
class Args {
 public:
  explicit Args(const double* p) : p_(p) {}
  double d(int k) const { return p_[k]; }
  int i(int k) const;  // as a JS int32 argument converts: NaN is 0, out of range saturates
  int64_t i64(int k) const { return int64_t(clamped(k)); }
  bool b(int k) const { return p_[k] != 0; }
  const tp::Tensor& t(int k) const;               // a tensor handle
  std::optional<tp::Tensor> opt(int k) const;     // a tensor handle, 0 for none
  std::vector<int64_t> shape(int k) const;        // a list of integers (checked like to_shape)
  std::vector<double> doubles(int k) const;       // a list of numbers
  std::vector<tp::Tensor> tensors(int k) const;   // a list of tensor handles

 private:
  double clamped(int k) const;
  const double* list(int k, size_t& n) const;
  const double* p_;
};
// What an op's result is in JS: a number (a handle included), a bool, or a list of numbers.
enum class Result : char { Number = 'n', Bool = 'b', List = 'l' };
struct OpRow {
  const char* name;  // the name JS calls it by (core.flip)
  Result result;
  double (*fn)(const Args&);
};
// Adds a file's rows to the table call() dispatches on; a static object of each binding file.
struct OpRows {
  template <size_t N>
  explicit OpRows(const OpRow (&rows)[N]) { add(rows, N); }
  static void add(const OpRow* rows, size_t n);
};
double list(const std::vector<double>& values);     // writes a list result, returns its length
double list(const std::vector<int64_t>& values);    // the same for integers (shapes, strides): no double copy
double handles(const std::vector<tp::Tensor>& ts);  // puts each tensor, a list result of their handles

std::vector<int64_t> to_shape(const emscripten::val& array);  // JS array of integers
emscripten::val from_shape(const std::vector<int64_t>& shape);
std::vector<tp::Tensor> to_tensors(const emscripten::val& handles);

}  // namespace tpw
