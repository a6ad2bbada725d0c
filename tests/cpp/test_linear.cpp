// tp::linear: x [..., in] @ w [out, in]^T (+ bias) for float32, bfloat16 and float16 weights. A 16-bit
// weight gives exactly the bits of the same weight converted to float32 (Tensor::to); float32 gives the
// bits of matmul(x, w^T); the values agree with a float64 loop; bad input names linear and the shapes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "tensorpad/half.hpp"
#include "tensorpad/ops.hpp"
#include "helpers.hpp"

namespace {

using tp::DType;
using tp::Shape;
using tp::Tensor;

Tensor random_f32(const Shape& shape, uint32_t seed) {
  Tensor t = Tensor::empty(shape);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  float* p = t.data();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = u(rng);
  return t;
}

// A weight of the given 16-bit dtype holding the rounded values of a random float32 one.
Tensor random_weight(int64_t out, int64_t in, DType dtype, uint32_t seed) {
  const Tensor f = random_f32({out, in}, seed);
  if (dtype == DType::Float32) return f;
  Tensor w = Tensor::empty({out, in}, dtype);
  auto* bits = static_cast<uint16_t*>(w.raw());
  for (int64_t i = 0; i < f.numel(); ++i)
    bits[i] = dtype == DType::BFloat16 ? tp::half::f32_to_bf16(f.data()[i]) : tp::half::f32_to_f16(f.data()[i]);
  return w;
}

bool same_bits(const Tensor& a, const Tensor& b) {
  return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), size_t(a.numel()) * 4) == 0;
}

using tpt::error_of;

}  // namespace

TEST_CASE("linear with a bfloat16 or float16 weight gives the bits of the weight converted to float32") {
  for (DType dt : {DType::BFloat16, DType::Float16}) {
    for (const auto& s : {std::vector<int64_t>{1, 7, 5}, {3, 9, 17}, {37, 29, 400}, {5, 1, 8}, {64, 130, 96}}) {
      CAPTURE(tp::dtype_name(dt));
      CAPTURE(s[0]);
      CAPTURE(s[1]);
      CAPTURE(s[2]);
      const Tensor x = random_f32({s[0], s[2]}, 1), w = random_weight(s[1], s[2], dt, 2);
      const Tensor b = random_f32({s[1]}, 3);
      CHECK(same_bits(tp::linear(x, w), tp::linear(x, w.to(DType::Float32))));
      CHECK(same_bits(tp::linear(x, w, b), tp::linear(x, w.to(DType::Float32), b)));
    }
  }
}

TEST_CASE("linear with a float32 weight gives the bits of matmul(x, w^T), then adds the bias") {
  const Tensor x = random_f32({2, 3, 50}, 4), w = random_weight(70, 50, DType::Float32, 5);
  const Tensor b = random_f32({70}, 6);
  const Tensor y = tp::linear(x, w), yb = tp::linear(x, w, b);
  CHECK(y.shape() == Shape{2, 3, 70});
  CHECK(same_bits(y, tp::matmul(x, tp::transpose(w, 0, 1))));
  int64_t bad = 0;
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 70; ++j) bad += yb.data()[i * 70 + j] != y.data()[i * 70 + j] + b.data()[j];
  CHECK(bad == 0);
}

TEST_CASE("linear agrees with a float64 loop over the widened weight, for 1-D x and batched x") {
  for (DType dt : {DType::Float32, DType::BFloat16, DType::Float16}) {
    const Tensor w = random_weight(19, 33, dt, 7), wf = w.to(DType::Float32), b = random_f32({19}, 8);
    for (const Shape& xs : {Shape{33}, Shape{4, 33}, Shape{2, 2, 33}}) {
      const Tensor x = random_f32(xs, 9), y = tp::linear(x, w, b);
      Shape want = xs;
      want.back() = 19;
      CHECK(y.shape() == want);
      const int64_t rows = x.numel() / 33;
      int64_t bad = 0;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < 19; ++j) {
          double s = b.data()[j];
          for (int64_t p = 0; p < 33; ++p) s += double(x.data()[i * 33 + p]) * wf.data()[j * 33 + p];
          bad += !(std::fabs(y.data()[i * 19 + j] - s) <= 1e-5 + 1e-5 * std::fabs(s));
        }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("linear reads a non-contiguous x and a transposed weight view in place") {
  const Tensor xt = random_f32({40, 6}, 10), x = tp::transpose(xt, 0, 1);  // (6, 40), column-major
  const Tensor wt = random_f32({40, 12}, 11), w = tp::transpose(wt, 0, 1);  // (12, 40) view of a (40, 12)
  CHECK(same_bits(tp::linear(x, w), tp::linear(x.contiguous(), w.contiguous())));
}

TEST_CASE("linear rejects a mismatched, non-2-D or integer weight and a wrong bias, naming linear and shapes") {
  const Tensor x = random_f32({3, 8}, 12), w = random_f32({5, 8}, 13);
  CHECK(error_of([&] { tp::linear(x, random_f32({5, 7}, 1)); }).find("linear: x's last dim 8") == 0);
  CHECK(error_of([&] { tp::linear(x, random_f32({8}, 1)); }).find("weight must be 2-D [out, in], got shape [8]") !=
        std::string::npos);
  CHECK(error_of([&] { tp::linear(x, Tensor::zeros({5, 8}, DType::Int32)); }).find("int32") != std::string::npos);
  CHECK(error_of([&] { tp::linear(x, w, random_f32({4}, 1)); }).find("bias must be float32 of shape [5]") !=
        std::string::npos);
  CHECK(error_of([&] { tp::linear(Tensor::zeros({3, 8}, DType::Float16), w); }).find("x must be float32") !=
        std::string::npos);
  CHECK(tp::linear(random_f32({0, 8}, 1), w).shape() == Shape{0, 5});
  const Tensor empty_in = tp::linear(random_f32({2, 0}, 1), random_f32({3, 0}, 2), random_f32({3}, 3));
  CHECK(empty_in.shape() == Shape{2, 3});
}
