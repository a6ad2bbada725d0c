// call_out_of_line<&f>(args...): calls f through a pointer that neither the compiler nor wasm-opt can
// see through, so f stays a function of its own. Not a public header.
//
// Why: V8 runs a WASM function's first calls in its baseline compiler (Liftoff) and uses optimized code
// only from a later call to it. A loop nest inside one long call therefore runs baseline code from start
// to end: a reader's first 512x1024 @ 1024x3072 took 246 ms against 84 ms once optimized. Kernels call
// their inner work (a block, a tile, a step) this way, many times per operation, so optimized code
// takes over after the first few calls. noinline is not enough: wasm-opt inlines every function that
// has a single caller.
#pragma once
#include <utility>

namespace tp::detail {

template <auto Fn>
inline decltype(Fn) volatile const out_of_line_target = Fn;

template <auto Fn, class... Args>
inline decltype(auto) call_out_of_line(Args&&... args) {
  return out_of_line_target<Fn>(std::forward<Args>(args)...);
}

}  // namespace tp::detail
