// The permutation that sorts n items by a comparator of their indices, ties in index order (what
// stable_sort gives). Why one function: each std::sort or std::stable_sort instantiation was 1-3 KB of
// the WebAssembly module, and the reorderings that run once per call (eigh's and the SVD's values, a
// safetensors header's offsets and metadata keys) need no inlined comparator. tp.sort keeps its own.
#pragma once
#include <cstdint>
#include <vector>

namespace tp::detail {

using IndexLess = bool (*)(const void* ctx, int64_t a, int64_t b);  // a strict weak order on indices
std::vector<int64_t> sort_order(int64_t n, IndexLess less, const void* ctx);

template <class Less>
std::vector<int64_t> sort_order(int64_t n, const Less& less) {
  return sort_order(n, [](const void* c, int64_t a, int64_t b) { return (*static_cast<const Less*>(c))(a, b); }, &less);
}

}  // namespace tp::detail
