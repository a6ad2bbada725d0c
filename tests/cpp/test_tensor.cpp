// The tensor container and its shape rules: strides, views, broadcasting, and precise errors.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "tensorpad/ops.hpp"
#include "helpers.hpp"

using tp::Shape;
using tp::Tensor;

namespace {
Tensor iota(const Shape& shape) {
  Tensor t = Tensor::empty(shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] = float(i);
  return t;
}
using tpt::error_of;
}  // namespace

TEST_CASE("a contiguous [2, 3, 4] tensor has row-major strides [12, 4, 1]") {
  const Tensor t = Tensor::zeros({2, 3, 4});
  CHECK(t.strides() == Shape{12, 4, 1});
  CHECK(t.is_contiguous());
  CHECK(t.numel() == 24);
}

TEST_CASE("a transpose swaps strides without copying, and contiguous() then copies") {
  const Tensor x = iota({2, 3});
  const Tensor t = tp::transpose(x, 0, 1);
  CHECK(t.shape() == Shape{3, 2});
  CHECK(t.strides() == Shape{1, 3});
  CHECK(t.shares_storage(x));
  CHECK_FALSE(t.is_contiguous());
  const Tensor c = t.contiguous();
  CHECK_FALSE(c.shares_storage(x));
  CHECK(c.data()[1] == 3.f);  // row 0 of the transpose is column 0 of x: 0, 3
}

TEST_CASE("select and narrow are views with the right offset") {
  const Tensor x = iota({2, 3, 4});
  const Tensor s = tp::select(x, 1, 2);
  CHECK(s.shape() == Shape{2, 4});
  CHECK(s.data()[0] == 8.f);
  const Tensor n = tp::narrow(x, 2, 1, 2);
  CHECK(n.shape() == Shape{2, 3, 2});
  CHECK(n.data()[0] == 1.f);
  CHECK(n.shares_storage(x));
}

TEST_CASE("reshape of a non-contiguous view copies, and infers one -1") {
  const Tensor t = tp::transpose(iota({2, 3}), 0, 1);
  const Tensor r = tp::reshape(t, {-1});
  CHECK(r.shape() == Shape{6});
  CHECK(r.data()[1] == 3.f);
  CHECK(error_of([&] { tp::reshape(t, {4, -1}); }) ==
        "reshape: cannot reshape a tensor of shape [3, 2] (6 elements) into [4, -1]: 6 is not a multiple of 4");
  CHECK(error_of([&] { tp::reshape(t, {4, 2}); }) ==
        "reshape: cannot reshape a tensor of shape [3, 2] (6 elements) into [4, 2] (8 elements)");
}

TEST_CASE("a 0 dim makes an empty tensor however large the other dims are, as torch's zeros(0, 2**40)") {
  // Regression: these were "too large (more than 536870912 elements)" though they hold nothing.
  const int64_t big = int64_t(1) << 40;
  const Tensor e = Tensor::zeros({0, big});
  CHECK(e.numel() == 0);
  CHECK(e.strides() == Shape{big, 1});
  CHECK(Tensor::zeros({big, int64_t(1) << 22, 0}).numel() == 0);  // the others' product, 2^62, fits in 64 bits
  CHECK(error_of([&] { Tensor::zeros({big, big * 16, 0}); }) ==
        "zeros: shape [1099511627776, 17592186044416, 0] has 0 elements but its other dims multiply past 2^63 "
        "(their strides would overflow)");
  CHECK(error_of([&] { Tensor::zeros({big, 2}); }) ==
        "zeros: shape [1099511627776, 2] is too large (more than 536870912 elements)");
}

TEST_CASE("reshape of an empty tensor keeps its 0, infers -1 only when the other dims decide it") {
  const int64_t big = int64_t(1) << 40;
  const Tensor e = Tensor::zeros({0, 3});
  CHECK(tp::reshape(e, {-1, 3}).shape() == Shape{0, 3});
  CHECK(tp::reshape(e, {big, -1}).shape() == Shape{big, 0});
  CHECK(tp::reshape(e, {big, 0, 7}).shape() == Shape{big, 0, 7});
  CHECK(tp::reshape(e, {0}).shape() == Shape{0});
  CHECK(error_of([&] { tp::reshape(e, {0, -1}); }) ==
        "reshape: cannot reshape a tensor of shape [0, 3] (0 elements) into [0, -1]: with a 0 among the other dims, "
        "-1 could be any size");
  CHECK(error_of([&] { tp::reshape(e, {2}); }) == "reshape: cannot reshape a tensor of shape [0, 3] (0 elements) into [2] (2 elements)");
  CHECK(error_of([&] { tp::reshape(iota({2, 3}), {big, big}); }) ==
        "reshape: cannot reshape a tensor of shape [2, 3] (6 elements) into [1099511627776, 1099511627776] "
        "(more than 2^63 elements)");
  CHECK(error_of([&] { tp::reshape(iota({2, 3}), {big, -1}); }) ==
        "reshape: cannot reshape a tensor of shape [2, 3] (6 elements) into [1099511627776, -1]: 6 is not a multiple "
        "of 1099511627776");
}

TEST_CASE("broadcasting follows numpy and names both shapes when it fails") {
  CHECK(tp::broadcast_shapes("add", {2, 1, 4}, {3, 1}) == Shape{2, 3, 4});
  CHECK(error_of([] { tp::broadcast_shapes("add", {2, 3}, {4}); }) ==
        "add: shapes [2, 3] and [4] do not broadcast (3 vs 4 in dim -1)");
}

TEST_CASE("binary ops broadcast over transposed (strided) operands") {
  const Tensor a = tp::transpose(iota({3, 2}), 0, 1);  // [[0, 2, 4], [1, 3, 5]]
  const Tensor b = iota({3});
  const Tensor r = tp::binary(tp::BinaryOp::Add, a, b);
  const float want[] = {0, 3, 6, 1, 4, 7};
  for (int i = 0; i < 6; ++i) CHECK(r.data()[i] == want[i]);
}

TEST_CASE("matmul refuses shapes that do not align, with the message readers see") {
  CHECK(error_of([] { tp::matmul(Tensor::zeros({4, 3}), Tensor::zeros({4, 5})); }) ==
        "matmul: shapes [4, 3] and [4, 5] do not align (3 != 4)");
  CHECK(error_of([] { tp::matmul(Tensor::zeros({2, 4, 3}), Tensor::zeros({3, 3, 5})); }) ==
        "matmul: shapes [2, 4, 3] and [3, 3, 5] have batch dims that do not broadcast (2 vs 3)");
}

TEST_CASE("absurd or negative shapes are refused before any allocation") {
  CHECK(error_of([] { Tensor::zeros({1000000, 1000000}); }) ==
        "zeros: shape [1000000, 1000000] is too large (more than 536870912 elements)");
  CHECK(error_of([] { Tensor::zeros({2, -1}); }) == "zeros: shape [2, -1] has a negative dimension");
}

TEST_CASE("dims may be negative everywhere and out-of-range dims name the valid range") {
  const Tensor x = iota({2, 3});
  CHECK(tp::reduce(tp::ReduceOp::Sum, x, -1, false).shape() == Shape{2});
  CHECK(error_of([&] { tp::reduce(tp::ReduceOp::Sum, x, 2, false); }) ==
        "sum: dim 2 is out of range for a 2-d tensor (expected -2..1)");
  CHECK(error_of([&] { tp::select(x, 0, 2); }) == "select: index 2 is out of range for dim 0 of size 2");
}

TEST_CASE("round is half to even, like torch and numpy") {
  const Tensor x = Tensor::from({4}, std::vector<float>{0.5f, 1.5f, 2.5f, -0.5f}.data());
  const Tensor r = tp::unary(tp::UnaryOp::Round, x);
  CHECK(r.data()[0] == 0.f);
  CHECK(r.data()[1] == 2.f);
  CHECK(r.data()[2] == 2.f);
  CHECK(r.data()[3] == 0.f);
}

TEST_CASE("softmax gives -inf entries weight 0 and rows that sum to 1") {
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = Tensor::from({2, 3}, std::vector<float>{1, 2, -inf, 1000, 1000, 1000}.data());
  const Tensor s = tp::softmax(x, -1);
  CHECK(s.data()[2] == 0.f);
  CHECK(s.data()[0] + s.data()[1] == doctest::Approx(1.0));
  CHECK(s.data()[3] == doctest::Approx(1.0 / 3));  // no overflow: the row max is subtracted first
}

TEST_CASE("allclose uses |a - b| <= atol + rtol * |b|, which is not symmetric") {
  const Tensor a = Tensor::scalar(1.0f), b = Tensor::scalar(1.1f);
  CHECK(tp::allclose(a, b, 0.1, 0.0));        // 0.1 <= 0.1 * 1.1
  CHECK_FALSE(tp::allclose(b, a, 0.09, 0.0)); // 0.1 > 0.09 * 1.0
  CHECK_FALSE(tp::allclose(Tensor::scalar(NAN), Tensor::scalar(NAN), 1, 1));
}

TEST_CASE("storage bytes return to their baseline when tensors go away") {
  const int64_t before = tp::Storage::live_bytes();
  {
    const Tensor a = Tensor::zeros({100, 100});
    const Tensor v = tp::transpose(a, 0, 1);  // a view adds no storage
    CHECK(tp::Storage::live_bytes() - before == 40000);
  }
  CHECK(tp::Storage::live_bytes() == before);
}

TEST_CASE("norms of (3, 4) are 7, 5 and 4 for ord 1, 2 and inf") {
  const Tensor v = Tensor::from({2}, std::vector<float>{3, -4}.data());
  CHECK(tp::vector_norm(v, 1, {}, false).item() == 7.f);
  CHECK(tp::vector_norm(v, 2, {}, false).item() == 5.f);
  CHECK(tp::vector_norm(v, INFINITY, {}, false).item() == 4.f);
}

TEST_CASE("the median of an empty tensor is NaN, and cat skips 1-d empty tensors, as torch") {
  CHECK(std::isnan(tp::reduce_all(tp::ReduceOp::Median, Tensor::zeros({0})).data()[0]));
  CHECK(error_of([] { tp::reduce_all(tp::ReduceOp::Amax, Tensor::zeros({0})); }) ==
        "amax: cannot reduce an empty tensor of shape [0]");
  const Tensor c = tp::cat({Tensor::zeros({0}), iota({2, 2}), Tensor::zeros({0})}, 1);
  REQUIRE(c.shape() == Shape{2, 2});
  CHECK(c.data()[3] == 3.f);
}

TEST_CASE("vector norms sum in double: entries of 1e25 and 1e-30 keep their norms, where float squares overflow or vanish") {
  for (float scale : {1e25f, 1e-30f, 3e38f}) {
    const Tensor v = Tensor::from({2, 2}, std::vector<float>{3 * (scale / 8), -4 * (scale / 8), 0, 6 * (scale / 8)}.data());
    const double s = double(scale / 8);
    CHECK(tp::vector_norm(v, 2, {}, false).item() == doctest::Approx(std::sqrt(61.0) * s).epsilon(1e-6));
    const Tensor rows = tp::vector_norm(v, 2, {1}, true);  // keepdim: [2, 1]
    CHECK(rows.shape() == Shape{2, 1});
    CHECK(rows.data()[0] == doctest::Approx(5 * s).epsilon(1e-6));
    CHECK(rows.data()[1] == doctest::Approx(6 * s).epsilon(1e-6));
    CHECK(tp::vector_norm(v, 3, {0}, false).data()[0] == doctest::Approx(3 * s).epsilon(1e-6));
    const double half = std::pow(std::sqrt(3.0) + 2 + std::sqrt(6.0), 2) * s;  // 1.4e39 for 3e38: beyond float
    if (half < 3.4e38) CHECK(tp::vector_norm(v, 0.5, {}, false).item() == doctest::Approx(half).epsilon(1e-6));
    else CHECK(std::isinf(tp::vector_norm(v, 0.5, {}, false).item()));
  }
  // A norm beyond float's range is inf, as the float result must be; a negative ord with a zero gives 0.
  const Tensor big = Tensor::from({2}, std::vector<float>{3e38f, 3e38f}.data());
  CHECK(std::isinf(tp::vector_norm(big, 2, {}, false).item()));
  const Tensor with_zero = Tensor::from({2}, std::vector<float>{0, 2}.data());
  CHECK(tp::vector_norm(with_zero, -1, {}, false).item() == 0.f);
  CHECK(tp::vector_norm(Tensor::from({2}, std::vector<float>{2, 2}.data()), -1, {}, false).item() == 1.f);
}

TEST_CASE("copying transposed views (tiled path) matches element-by-element indexing for odd sizes and batches") {
  for (int64_t rows : {1, 2, 15, 16, 17, 33}) {
    for (int64_t cols : {1, 3, 16, 31}) {
      const Tensor x = iota({2, cols, rows});  // a batch of two (cols x rows) matrices
      const Tensor t = tp::transpose(x, -2, -1).contiguous();
      REQUIRE(t.shape() == Shape{2, rows, cols});
      bool ok = true;
      for (int64_t b = 0; b < 2; ++b)
        for (int64_t i = 0; i < rows; ++i)
          for (int64_t j = 0; j < cols; ++j)
            ok = ok && t.data()[(b * rows + i) * cols + j] == x.data()[(b * cols + j) * rows + i];
      CAPTURE(rows);
      CAPTURE(cols);
      CHECK(ok);
    }
  }
  // A permutation whose last two dims are transposed and whose batch dim is strided too.
  const Tensor y = tp::permute(iota({3, 4, 5}), {1, 2, 0});  // strides [5, 1, 20]
  const Tensor c = y.contiguous();
  CHECK(c.data()[1] == 20.f);  // y[0, 0, 1] = x[1, 0, 0]
  CHECK(c.data()[3] == 1.f);   // y[0, 1, 0] = x[0, 0, 1]
}

TEST_CASE("a linear layer X [2, 3, 4] @ W [4, 5] (batch folded into rows) equals per-batch products") {
  const Tensor x = iota({2, 3, 4}), w = iota({4, 5});
  const Tensor y = tp::matmul(x, w);
  REQUIRE(y.shape() == Shape{2, 3, 5});
  for (int64_t b = 0; b < 2; ++b) {
    const Tensor yb = tp::matmul(tp::select(x, 0, b), w);
    for (int64_t i = 0; i < 15; ++i) CHECK(y.data()[b * 15 + i] == yb.data()[i]);
  }
  // A transposed X is not contiguous: it takes the per-batch path and still agrees.
  const Tensor xt = tp::transpose(iota({2, 4, 3}), 1, 2);
  const Tensor yt = tp::matmul(xt, w);
  const Tensor yt2 = tp::matmul(xt.contiguous(), w);
  for (int64_t i = 0; i < yt.numel(); ++i) CHECK(yt.data()[i] == yt2.data()[i]);
}
