// Small builders and checks shared by the C++ test files.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "tensorpad/random.hpp"
#include "tensorpad/tensor.hpp"

namespace tpt {

// The message of what f throws, or "<no error>" when it returns: tests match it against the expected text.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<no error>";
}

// A tensor of this shape holding these values (row-major).
inline tp::Tensor T(const tp::Shape& shape, std::vector<float> v) { return tp::Tensor::from(shape, v.data()); }

// A standard-normal tensor from its own seeded stream.
inline tp::Tensor randn_t(const tp::Shape& shape, uint64_t seed) {
  tp::Rng rng(seed);
  return tp::randn(shape, rng);
}

// Every |a - b| <= atol + rtol |b|, with equal shapes; reports the first offender.
inline void check_close(const tp::Tensor& a, const tp::Tensor& b, double atol, double rtol = 0) {
  REQUIRE(a.shape() == b.shape());
  const tp::Tensor ac = a.contiguous(), bc = b.contiguous();
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = ac.data()[i], y = bc.data()[i];
    if (!(std::fabs(x - y) <= atol + rtol * std::fabs(y))) {
      FAIL_CHECK("element " << i << ": " << x << " vs " << y << " (atol " << atol << ", rtol " << rtol << ")");
      return;
    }
  }
}

}  // namespace tpt
