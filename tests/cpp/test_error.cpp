// tp::fail's messages: numbers written as printf writes them, without printf in the core.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "tensorpad/error.hpp"
#include "helpers.hpp"

namespace {

std::string g(double v) {
  std::string s;
  tp::detail::append_g(s, v);
  return s;
}

std::string printf_g(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

TEST_CASE("append_g writes what printf's %g writes: specials, powers of ten, halfway cases, every exponent") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(g(inf) == "inf");
  CHECK(g(-inf) == "-inf");
  CHECK(g(nan) == "nan");
  CHECK(g(-nan) == "-nan");
  CHECK(g(0.0) == "0");
  CHECK(g(-0.0) == "-0");
  const double named[] = {1, -1, 0.5, 1.5, 100, 123456, 1234567, 999999, 999999.5, 9999995, 0.0001, 0.00001,
                          0.000123456, 1e6, 1e-5, 1e21, 1e22, 1e23, 1e100, 1e300, 1e-300, 1e-320, 5e-324,
                          std::numeric_limits<double>::max(), std::numeric_limits<double>::min(), 1234565, 0.1234565,
                          2.5e-7, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 3.14159265358979, 1e-6, 0.0009999995, 123.456};
  for (double v : named) {
    CAPTURE(v);
    CHECK(g(v) == printf_g(v));
    CHECK(g(-v) == printf_g(-v));
    CHECK(g(std::nextafter(v, 0.0)) == printf_g(std::nextafter(v, 0.0)));
    CHECK(g(std::nextafter(v, inf)) == printf_g(std::nextafter(v, inf)));
  }
  // Halfway at the sixth digit, exactly representable: printf rounds half to even.
  for (double v : {1234565.0, 1234575.0, 0.5, 2.5, 1000005.0, 1000015.0, 999999.5, 9999985.0}) {
    CAPTURE(v);
    CHECK(g(v) == printf_g(v));
  }
  // Random bit patterns (every exponent, subnormals included): never near enough to halfway to matter.
  // Random decimals of 7 significant digits, many exact ties in decimal: printf rounds the binary value,
  // which lies on one side; matched exactly from 1e-17 to 1e27, where the powers of ten involved are exact.
  std::mt19937_64 rng(24);
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, 8);
    if (std::isnan(v)) continue;
    const double digits = double(int64_t(rng() % 20000000) - 10000000);
    const int e = int(rng() % 44) - 17;  // digits * 10^(e - 6) stays in [1e-17, 1e27)
    const double d = e >= 6 ? digits * std::pow(10.0, e - 6) : digits / std::pow(10.0, 6 - e);
    for (double x : {v, d}) {
      if (g(x) != printf_g(x) && ++mismatches <= 5) FAIL_CHECK(x << ": " << g(x) << " vs printf " << printf_g(x));
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("a float in an error message reads as %g wrote it") {
  CHECK(tpt::error_of([] { tp::fail("op", "tolerance ", 1e-6, " and ", 0.5f, " and ", 2.0e10); }) ==
        "op: tolerance 1e-06 and 0.5 and 2e+10");
}

TEST_CASE("a shape in an error message reads as shape_str writes it") {
  // fail() takes a std::vector<int64_t> as a piece of its own (no std::string at the call site): its text
  // must be shape_str's, for 0-d, 1-d and wide shapes, large and negative entries, and a temporary.
  const std::vector<std::vector<int64_t>> shapes = {{}, {7}, {2, 3, 4}, {0, int64_t(1) << 40, -1},
                                                     {std::numeric_limits<int64_t>::min(), 1, 2, 3, 4, 5, 6, 7, 8}};
  for (const auto& s : shapes) {
    CAPTURE(tp::shape_str(s));
    CHECK(tpt::error_of([&] { tp::fail("op", "shape ", s, " and ", 3); }) == "op: shape " + tp::shape_str(s) + " and 3");
  }
  CHECK(tpt::error_of([] { tp::fail("op", std::vector<int64_t>{2, 3}, ", ", std::vector<int64_t>{}); }) ==
        "op: [2, 3], []");
}
