// lines_around: a contiguous shape seen as (outer, n, inner) around one dim, the layout every along-a-dim
// kernel walks (element (o, i, j) sits at (o * n + i) * inner + j).
#pragma once
#include <cstdint>

#include "tensorpad/tensor.hpp"

namespace tp::detail {

struct Lines {
  int64_t outer = 1, n = 1, inner = 1;
};

// d must already be wrapped into [0, shape.size()).
inline Lines lines_around(const Shape& shape, int64_t d) {
  Lines l;
  for (int64_t i = 0; i < int64_t(shape.size()); ++i) (i < d ? l.outer : i == d ? l.n : l.inner) *= shape[size_t(i)];
  return l;
}

}  // namespace tp::detail
