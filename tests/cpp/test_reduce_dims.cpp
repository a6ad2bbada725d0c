// Reductions and vector norms over dim lists (cpp/src/reduce_dims.cpp), isclose's equal_nan, clamp with
// min > max and matrix norms over a pair of dims: closed forms, invariants and the errors readers see.
// Values against numpy are in test_ops_fixtures.cpp (tests/fixtures/core/ops.json).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>

#include "helpers.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/ops.hpp"

using tp::ReduceOp;
using tp::Shape;
using tp::Tensor;
using tpt::T;

namespace {
using tpt::error_of;
Tensor iota(const Shape& shape) {
  Tensor t = Tensor::empty(shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] = float(i);
  return t;
}
}  // namespace

TEST_CASE("a sum over dims [0, 2] of iota(2, 3, 4) adds the 8 values of each middle index") {
  // Entry j of dim 1 sums i*12 + j*4 + k over i < 2, k < 4: 8 j*4 + (0+12)*4 + (0+1+2+3)*2 = 32 j + 60.
  const Tensor s = tp::reduce_dims(ReduceOp::Sum, iota({2, 3, 4}), {0, 2}, false);
  CHECK(s.shape() == Shape{3});
  for (int j = 0; j < 3; ++j) CHECK(s.data()[j] == float(32 * j + 60));
  CHECK(tp::reduce_dims(ReduceOp::Sum, iota({2, 3, 4}), {-1, 0}, true).shape() == Shape{1, 3, 1});
  CHECK(tp::reduce_dims(ReduceOp::Mean, iota({2, 3, 4}), {2, 0}, false).data()[1] == 11.5f);  // (32 + 60) / 8
  CHECK(tp::reduce_dims(ReduceOp::Amax, iota({2, 3, 4}), {0, 2}, false).data()[0] == 15.f);
}

TEST_CASE("a reduction over a dim list equals reducing one dim at a time, for every pair of dims of a strided view") {
  const Tensor x = tp::transpose(tpt::randn_t({3, 4, 5}, 7), 0, 2);  // (5, 4, 3), not contiguous
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Amax, ReduceOp::Amin})
    for (int64_t a = 0; a < 3; ++a)
      for (int64_t b = 0; b < 3; ++b) {
        if (a == b) continue;
        const std::string name = tp::reduce_name(op);
        CAPTURE(name);
        CAPTURE(a);
        CAPTURE(b);
        const Tensor once = tp::reduce_dims(op, x, {a, b}, true);
        const Tensor stepwise = tp::reduce(op, tp::reduce(op, x, a, true), b, true);
        tpt::check_close(once, stepwise, 1e-6, 1e-5);
      }
}

TEST_CASE("a sum over several dims is one line summed in double: 2^24 + 1 + 1 keeps both ones") {
  // Dim by dim in float, 2^24 + 1 rounds back to 2^24 and both ones are lost; one double line keeps them.
  const Tensor x = T({2, 2}, {16777216.f, 1.f, 1.f, 0.f});
  CHECK(tp::reduce_dims(ReduceOp::Sum, x, {0, 1}, false).item() == 16777218.f);
  CHECK(tp::reduce_dims(ReduceOp::Sum, x, {}, true).shape() == Shape{1, 1});
}

TEST_CASE("an empty dim list reduces every dim, as torch; keepdim leaves ones; an empty tensor's median is NaN") {
  const Tensor x = iota({2, 3});
  CHECK(tp::reduce_dims(ReduceOp::Sum, x, {}, false).item() == 15.f);
  CHECK(tp::reduce_dims(ReduceOp::Sum, x, {}, false).shape() == Shape{});
  CHECK(tp::reduce_dims(ReduceOp::Amax, x, {}, true).shape() == Shape{1, 1});
  const Tensor m = tp::reduce_dims(ReduceOp::Median, Tensor::zeros({3, 0}), {}, true);
  CHECK(m.shape() == Shape{1, 1});
  CHECK(std::isnan(m.data()[0]));
  CHECK(tp::reduce_dims(ReduceOp::Sum, Tensor::zeros({3, 0}), {0, 1}, false).item() == 0.f);
  CHECK(std::isnan(tp::reduce_dims(ReduceOp::Mean, Tensor::zeros({3, 0}), {0, 1}, false).item()));
}

TEST_CASE("a 0-d tensor reduces over the dim list [0] or [-1] to itself, as torch") {
  const Tensor s = Tensor::scalar(3.f);
  CHECK(tp::reduce_dims(ReduceOp::Sum, s, {0}, false).item() == 3.f);
  CHECK(tp::reduce_dims(ReduceOp::Amax, s, {-1}, true).shape() == Shape{});
  CHECK(tp::vector_norm(Tensor::scalar(-3.f), 2, {0}, true).item() == 3.f);
}

TEST_CASE("dim lists name the bad dim: out of range, repeated (the second mention), or empty for amax") {
  const Tensor x = iota({2, 3});
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Sum, x, {0, 2}, false); }) ==
        "sum: dim 2 is out of range for a 2-d tensor (expected -2..1)");
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Sum, x, {1, -1}, false); }) == "sum: dim -1 appears twice in [1, -1]");
  // The range is checked for every dim before a repeat is looked for.
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Sum, x, {0, 0, 5}, false); }) ==
        "sum: dim 5 is out of range for a 2-d tensor (expected -2..1)");
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Sum, Tensor::scalar(1.f), {0, -1}, false); }) ==
        "sum: dim -1 appears twice in [0, -1]");
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Amax, Tensor::zeros({3, 0}), {0, 1}, false); }) ==
        "amax: cannot reduce dim 1 of size 0 (shape [3, 0])");
  CHECK(error_of([&] { tp::reduce_dims(ReduceOp::Amin, Tensor::zeros({2, 0}), {-1, 0}, true); }) ==
        "amin: cannot reduce dim -1 of size 0 (shape [2, 0])");
  CHECK(error_of([&] { tp::vector_norm(x, 2, {0, 0}, false); }) == "norm: dim 0 appears twice in [0, 0]");
}

TEST_CASE("vector norms over a dim list: ones of (2, 3, 2) over dims 0 and 2 have norms 4, 2, 4^(1/3), 4 and 1") {
  const Tensor ones = Tensor::full({2, 3, 2}, 1.f);
  CHECK(tp::vector_norm(ones, 1, {0, 2}, false).data()[1] == 4.f);
  CHECK(tp::vector_norm(ones, 2, {0, -1}, false).data()[0] == 2.f);
  CHECK(tp::vector_norm(ones, 3, {2, 0}, false).data()[2] == doctest::Approx(std::cbrt(4.0)));
  CHECK(tp::vector_norm(ones, 0, {0, 2}, false).data()[0] == 4.f);        // non-zeros
  CHECK(tp::vector_norm(ones, INFINITY, {0, 2}, false).data()[0] == 1.f);
  CHECK(tp::vector_norm(ones, 1, {0, 2}, true).shape() == Shape{1, 3, 1});
  // No dims: every element, a matrix flattened; keepdim leaves ones.
  CHECK(tp::vector_norm(ones, 2, {}, true).shape() == Shape{1, 1, 1});
  CHECK(tp::vector_norm(ones, 2, {}, true).item() == doctest::Approx(std::sqrt(12.0)));
}

TEST_CASE("a vector norm over every dim, listed or not, equals the norm of the flattened tensor") {
  const Tensor x = tp::transpose(tpt::randn_t({4, 3, 2}, 3), 0, 1);
  for (double ord : {1.0, 2.0, 3.0, 0.5, -1.0, double(INFINITY), -double(INFINITY), 0.0}) {
    CAPTURE(ord);
    const float flat = tp::vector_norm(tp::reshape(x, {-1}), ord, {0}, false).item();
    CHECK(tp::vector_norm(x, ord, {2, 0, 1}, false).item() == doctest::Approx(flat).epsilon(1e-6));
    CHECK(tp::vector_norm(x, ord, {}, false).item() == doctest::Approx(flat).epsilon(1e-6));
  }
}

TEST_CASE("isclose with equal_nan: NaN is close to NaN only when asked, never to a number or an infinity") {
  const Tensor a = T({5}, {NAN, NAN, 1.f, INFINITY, NAN});
  const Tensor b = T({5}, {NAN, 1.f, 1.f, INFINITY, INFINITY});
  const std::vector<float> without = {0, 0, 1, 1, 0}, with = {1, 0, 1, 1, 0};
  const Tensor c0 = tp::isclose(a, b, 1e-5, 1e-8), c1 = tp::isclose(a, b, 1e-5, 1e-8, true);
  REQUIRE(c0.dtype() == tp::DType::Bool);
  for (int i = 0; i < 5; ++i) {
    CHECK(c0.data_as<bool>()[i] == bool(without[size_t(i)]));
    CHECK(c1.data_as<bool>()[i] == bool(with[size_t(i)]));
  }
  CHECK_FALSE(tp::allclose(T({2}, {NAN, 1.f}), T({2}, {NAN, 1.f}), 0, 0));
  CHECK(tp::allclose(T({2}, {NAN, 1.f}), T({2}, {NAN, 1.f}), 0, 0, true));
  CHECK(tp::allclose(Tensor::zeros({0}), Tensor::zeros({0}), 0, 0, true));
  // Broadcast: a column of NaN against a row.
  const Tensor grid = tp::isclose(T({2, 1}, {NAN, 1.f}), T({2}, {NAN, 1.f}), 0, 0, true);
  CHECK(grid.data_as<bool>()[0]);
  CHECK_FALSE(grid.data_as<bool>()[1]);
  CHECK_FALSE(grid.data_as<bool>()[2]);
  CHECK(grid.data_as<bool>()[3]);
}

TEST_CASE("clamp with min > max sets every element to max, as torch; NaN stays NaN") {
  const Tensor c = tp::clamp(T({4}, {-2.f, 0.f, 2.f, NAN}), 1.f, -1.f);
  for (int i = 0; i < 3; ++i) CHECK(c.data()[i] == -1.f);
  CHECK(std::isnan(c.data()[3]));
}

TEST_CASE("a matrix norm over dims (0, 2) equals the norm of the matrices with those dims moved last") {
  const Tensor A = tpt::randn_t({3, 2, 4}, 11);
  for (const char* ord : {"fro", "nuc", "2", "1", "-inf"}) {
    CAPTURE(ord);
    const Tensor over = tp::linalg::matrix_norm(A, ord, 0, 2, false);
    tpt::check_close(over, tp::linalg::matrix_norm(tp::permute(A, {1, 0, 2}), ord), 1e-6, 1e-5);
    CHECK(tp::linalg::matrix_norm(A, ord, 0, -1, true).shape() == Shape{1, 2, 1});
  }
  // (2, 0) is the transposed matrix: its 1-norm is the inf-norm over (0, 2).
  tpt::check_close(tp::linalg::matrix_norm(A, "1", 2, 0, false), tp::linalg::matrix_norm(A, "inf", 0, 2, false), 1e-6, 1e-5);
  CHECK(error_of([&] { tp::linalg::matrix_norm(A, "fro", 1, -2, false); }) == "linalg.norm: dim -2 appears twice in [1, -2]");
  CHECK(error_of([&] { tp::linalg::matrix_norm(T({2}, {1, 2}), "fro", 0, 1, false); }) ==
        "linalg.norm: a matrix norm over dims [0, 1] needs at least 2 dims, got shape [2]");
}
