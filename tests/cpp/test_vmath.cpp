// The vectorised exp and row softmax against libm and against their scalar reference, with the edges.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "tensorpad/vmath.hpp"

namespace k = tp::kernels;

TEST_CASE("exp_f32 is within 3e-7 relative of libm over the whole normal range, at every tail length") {
  for (int n : {1, 2, 3, 4, 5, 7, 8, 9, 1001}) {
    std::vector<float> x(n), y(n), r(n);
    for (int i = 0; i < n; ++i) x[size_t(i)] = -87.f + 175.f * float(i) / float(std::max(n - 1, 1));
    k::exp_f32(x.data(), y.data(), n);
    k::exp_f32_ref(x.data(), r.data(), n);
    for (int i = 0; i < n; ++i) {
      const double want = std::exp(double(x[size_t(i)]));
      CAPTURE(x[size_t(i)]);
      CHECK(std::fabs(y[size_t(i)] - want) <= 3e-7 * want);
      CHECK(y[size_t(i)] == r[size_t(i)]);  // the SIMD lanes compute exactly what the reference does
    }
  }
}

TEST_CASE("exp_f32 stays finite up to ln FLT_MAX (88.72) and is +inf from the first float above it") {
  // n = round(x log2 e) reaches 128 from x ~ 88.38, where 2^n alone is not a float.
  std::vector<float> x;
  for (float v = 88.3f; v <= 88.7229f; v = std::nextafter(v, 100.f)) x.push_back(v);
  std::vector<float> y(x.size()), r(x.size());
  k::exp_f32(x.data(), y.data(), int64_t(x.size()));
  k::exp_f32_ref(x.data(), r.data(), int64_t(x.size()));
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = std::exp(double(x[i]));
    CAPTURE(x[i]);
    CHECK(y[i] == r[i]);
    if (want <= double(std::numeric_limits<float>::max()) * (1 - 1e-7)) CHECK(std::fabs(y[i] - want) <= 3e-7 * want);
    else if (want > double(std::numeric_limits<float>::max()) * (1 + 1e-7)) CHECK(std::isinf(y[i]));
  }
  // The last float with a finite exp, and the next one, in the SIMD lanes and the scalar tail alike.
  const float below = std::nextafter(88.72283935546875f, 0.f);
  std::vector<float> edge = {below, 88.72283935546875f, below, 88.72283935546875f, below}, out(5);
  k::exp_f32(edge.data(), out.data(), 5);
  for (int i = 0; i < 5; ++i) CHECK(std::isinf(out[size_t(i)]) == (i % 2 == 1));
}

TEST_CASE("exp_f32 maps -inf and very negative inputs to 0, large ones to +inf, and keeps NaN") {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {-inf, -1000.f, -87.5f, 89.f, inf, NAN, 0.f, -0.f}, y(x.size());
  k::exp_f32(x.data(), y.data(), int64_t(x.size()));
  CHECK(y[0] == 0.f);
  CHECK(y[1] == 0.f);
  CHECK(y[2] == 0.f);
  CHECK(y[3] == inf);
  CHECK(y[4] == inf);
  CHECK(std::isnan(y[5]));
  CHECK(y[6] == 1.f);
  CHECK(y[7] == 1.f);
}

TEST_CASE("softmax_rows gives rows that sum to 1, zeros for -inf, and NaN for an all -inf row") {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> x = {1, 2, 3, -inf, 5, /**/ -inf, -inf, -inf, -inf, -inf, /**/ 1000, 1000, 1000, 1000, 1000};
  k::softmax_rows(x.data(), 3, 5);
  double s = 0;
  for (int i = 0; i < 5; ++i) s += x[size_t(i)];
  CHECK(s == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(x[3] == 0.f);
  CHECK(x[4] == doctest::Approx(std::exp(0.0) / (std::exp(-4.0) + std::exp(-3.0) + std::exp(-2.0) + 1.0)));
  CHECK(std::isnan(x[5]));
  CHECK(x[10] == doctest::Approx(0.2));  // no overflow at 1000: the row max is subtracted first
}
