// Walks N strided operands over one shape, handing the innermost dimension to a kernel.
#pragma once
#include <array>
#include <cstdint>

#include "tensorpad/tensor.hpp"

namespace tp {

// For every index of shape[0..ndim-2], calls inner(offsets, n, steps) where offsets[k] is operand k's
// element offset at the start of that row, n = shape.back() and steps[k] its innermost stride.
// strides[k] must have shape.size() entries (0 for a broadcast dimension).
template <size_t N, class Inner>
void strided_rows(const Shape& shape, const std::array<const Shape*, N>& strides,
                  std::array<int64_t, N> offsets, Inner&& inner) {
  const int64_t nd = int64_t(shape.size());
  std::array<int64_t, N> steps{};
  if (nd == 0) {
    inner(offsets, int64_t(1), steps);
    return;
  }
  for (size_t k = 0; k < N; ++k) steps[k] = (*strides[k])[nd - 1];
  const int64_t n = shape[nd - 1];
  for (int64_t d = 0; d < nd; ++d)
    if (shape[d] == 0) return;
  std::vector<int64_t> idx(size_t(nd > 1 ? nd - 1 : 1), 0);
  while (true) {
    inner(offsets, n, steps);
    // Advance the outer index like an odometer, updating each operand's offset incrementally.
    int64_t d = nd - 2;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        for (size_t k = 0; k < N; ++k) offsets[k] += (*strides[k])[d];
        break;
      }
      idx[d] = 0;
      for (size_t k = 0; k < N; ++k) offsets[k] -= (*strides[k])[d] * (shape[d] - 1);
    }
    if (d < 0) return;
  }
}

}  // namespace tp
