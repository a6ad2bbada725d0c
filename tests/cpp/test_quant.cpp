// Symmetric quantization: fake quantization's grid and rounding, relError, and the int8 path against
// exact integer and float references.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "helpers.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/quant.hpp"
#include "tensorpad/random.hpp"

using namespace tp;
using namespace tpt;

namespace {
std::vector<int8_t> random_i8(int64_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<int8_t> v(n);
  for (auto& x : v) x = int8_t(int(rng.next_u64() % 256) - 128);  // the full range, -128 included
  return v;
}
}  // namespace

TEST_CASE("fakeQuant rounds half to even on the symmetric grid and clamps to [-qmax-1, qmax]") {
  // bits 2: qmax 1, scale = max|x| / 1 = 2; x/s = 1, -0.5, 0.5, 0.25, -1 -> 1, -0 (even), 0 (even), 0, -1
  const Tensor x = T({5}, {2, -1, 1, 0.5f, -2});
  const Tensor y = quant::fake_quant(x, 2, false);
  const std::vector<float> want = {2, 0, 0, 0, -2};
  for (int i = 0; i < 5; ++i) CHECK(y.data()[i] == want[i]);
  // bits 4: qmax 7, scale 7/7 = 1; 2.5 -> 2, 3.5 -> 4, -2.5 -> -2 (ties to even)
  const Tensor z = quant::fake_quant(T({4}, {7, 2.5f, 3.5f, -2.5f}), 4, false);
  const std::vector<float> wz = {7, 2, 4, -2};
  for (int i = 0; i < 4; ++i) CHECK(z.data()[i] == wz[i]);
}

TEST_CASE("fakeQuant per row uses each row's own scale and keeps an all-zero row at zero") {
  const Tensor x = T({3, 4}, {1, -0.5f, 0.25f, 0.1f, 0, 0, 0, 0, 100, 50, -25, 10});
  const Tensor y = quant::fake_quant(x, 8, true);
  for (int j = 0; j < 4; ++j) {
    CHECK(y.data()[4 + j] == 0.0f);
    CHECK(std::fabs(y.data()[j] - x.data()[j]) <= 0.5f / 127 + 1e-7f);  // half a step of row 0
    CHECK(std::fabs(y.data()[8 + j] - x.data()[8 + j]) <= 50.0f / 127 + 1e-5f);
  }
  CHECK(y.data()[8] == 100.0f);  // the row max maps to qmax exactly
  const Tensor pt = quant::fake_quant(x, 8, false);
  CHECK(pt.data()[3] == 0.0f);  // per tensor, 0.1 is below half a step of 100/127
  const Tensor zeros = quant::fake_quant(Tensor::zeros({2, 3}), 8, false);
  for (int i = 0; i < 6; ++i) CHECK(zeros.data()[i] == 0.0f);
  CHECK_THROWS_WITH_AS(quant::fake_quant(x, 1, false), "quant.fakeQuant: bits must be in [2, 16], got 1", Error);
}

TEST_CASE("relError is the Frobenius norm of the difference over that of the exact value") {
  CHECK(quant::rel_error(T({2}, {3, 4.5f}), T({2}, {3, 4})) == doctest::Approx(0.1));
  CHECK(quant::rel_error(T({2}, {0, 0}), T({2}, {0, 0})) == 0.0);
  CHECK_THROWS_AS(quant::rel_error(T({2}, {0, 0}), T({1}, {0})), Error);
}

TEST_CASE("quantize stores int8 levels and scales that dequantize to fakeQuant") {
  const Tensor x = randn_t({5, 33}, 7);
  for (bool per_row : {false, true}) {
    const quant::QTensor q = quant::quantize(x, 8, per_row);
    CHECK(q.scale.size() == (per_row ? 5u : 1u));
    CHECK(q.dequantize().shape() == x.shape());
    const Tensor fq = quant::fake_quant(x, 8, per_row), dq = q.dequantize();
    for (int64_t i = 0; i < x.numel(); ++i) CHECK(dq.data()[i] == fq.data()[i]);
  }
  CHECK_THROWS_AS(quant::quantize(x, 9, false), Error);
  // Empty rows keep one scale per row (0), so a k = 0 product is all zeros.
  const quant::QTensor e = quant::quantize(Tensor::zeros({3, 0}), 8, true);
  CHECK(e.scale.size() == 3u);
  const Tensor z = quant::matmul_int8(e, quant::quantize(Tensor::zeros({2, 0}), 8, true));
  CHECK(z.shape() == Shape{3, 2});
  for (int i = 0; i < 6; ++i) CHECK(z.data()[i] == 0.0f);
}

TEST_CASE("the int8 kernel equals the exact integer product on every tile edge") {
  for (int64_t m : {1, 3, 7, 8, 9, 17})
    for (int64_t n : {1, 3, 7, 8, 9, 129, 130})
      for (int64_t k : {1, 2, 7, 8, 15, 16, 17, 64, 100}) {
        const auto A = random_i8(m * k, uint64_t(m * 1000 + n * 10 + k));
        const auto B = random_i8(n * k, uint64_t(m * 1000 + n * 10 + k + 1));
        std::vector<int32_t> c(m * n), ref(m * n);
        kernels::matmul_i8(m, n, k, A.data(), B.data(), c.data());
        kernels::matmul_i8_ref(m, n, k, A.data(), B.data(), ref.data());
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        CHECK(c == ref);
      }
  // The extreme case: every product is (-128)(-128), summed exactly.
  const int64_t k = 4096;
  std::vector<int8_t> a(k, -128), b(k, -128);
  int32_t c = 0;
  kernels::matmul_i8(1, 1, k, a.data(), b.data(), &c);
  CHECK(c == 4096 * 16384);
}

TEST_CASE("matmulInt8 equals the float product of the dequantized operands") {
  const Tensor X = randn_t({37, 200}, 11), W = randn_t({45, 200}, 12);
  for (bool xr : {false, true}) {
    const quant::QTensor qa = quant::quantize(X, 8, xr), qb = quant::quantize(W, 8, true);
    const Tensor out = quant::matmul_int8(qa, qb);
    // Reference: the integer levels multiplied in double (exact), then scaled once.
    for (int64_t i = 0; i < 37; ++i)
      for (int64_t j = 0; j < 45; ++j) {
        double acc = 0;
        for (int64_t p = 0; p < 200; ++p) acc += double(qa.q[i * 200 + p]) * qb.q[j * 200 + p];
        const double want = acc * double(qa.scale[xr ? i : 0] * qb.scale[j]);
        REQUIRE(out.data()[i * 45 + j] == doctest::Approx(want).epsilon(1e-6));
      }
    // And the float matmul of the dequantized tensors, to float accuracy.
    const Tensor ref = matmul(qa.dequantize(), transpose(qb.dequantize(), 0, 1));
    for (int64_t i = 0; i < ref.numel(); ++i)
      REQUIRE(std::fabs(out.data()[i] - ref.data()[i]) <= 1e-4 + 1e-5 * std::fabs(ref.data()[i]));
  }
  CHECK_THROWS_AS(quant::matmul_int8(quant::quantize(X), quant::quantize(randn_t({4, 3}, 1))), Error);
}
