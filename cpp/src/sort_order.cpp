// sort_order: one std::sort instantiation for the module's cold reorderings (see sort_order.hpp).
#include "sort_order.hpp"

#include <algorithm>
#include <numeric>

namespace tp::detail {

std::vector<int64_t> sort_order(int64_t n, IndexLess less, const void* ctx) {
  std::vector<int64_t> order(size_t(n < 0 ? 0 : n));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    if (less(ctx, a, b)) return true;
    return !less(ctx, b, a) && a < b;
  });
  return order;
}

}  // namespace tp::detail
