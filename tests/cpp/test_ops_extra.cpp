// issue 22's float ops (cpp/include/tensorpad/ops_extra.hpp and the UnaryOp codes from Sin on): closed
// forms, identities between ops and the errors readers see. torch fixtures for them are the fixtures
// suite's (tests/fixtures/torch).
#include <doctest/doctest.h>

#include <cmath>
#include <algorithm>
#include <functional>
#include <limits>
#include <string>

#include "helpers.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"

using tp::Shape;
using tp::Tensor;
using tp::UnaryOp;
using tpt::T;

namespace {
const float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

using tpt::error_of;
std::vector<float> values(const Tensor& t) {
  const Tensor c = t.contiguous();
  return std::vector<float>(c.data(), c.data() + c.numel());
}
Tensor iota(const Shape& shape) {
  Tensor t = Tensor::empty(shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] = float(i);
  return t;
}
Tensor u(UnaryOp op, const Tensor& x) { return tp::unary(op, x); }
}  // namespace

TEST_CASE("sin^2 + cos^2 is 1, tan is sin / cos and tanh(x) is 2 sigmoid(2x) - 1") {
  const Tensor x = tpt::randn_t({200}, 11);
  const Tensor s = u(UnaryOp::Sin, x), c = u(UnaryOp::Cos, x);
  tpt::check_close(tp::binary(tp::BinaryOp::Add, tp::binary(tp::BinaryOp::Mul, s, s), tp::binary(tp::BinaryOp::Mul, c, c)),
                   tp::Tensor::full({200}, 1.f), 1e-6);
  tpt::check_close(u(UnaryOp::Tan, x), tp::binary(tp::BinaryOp::Div, s, c), 1e-5, 1e-5);
  const Tensor two_x = tp::binary_scalar(tp::BinaryOp::Mul, x, 2.f);
  const Tensor via_sigmoid = tp::binary_scalar(tp::BinaryOp::Sub, tp::binary_scalar(tp::BinaryOp::Mul, u(UnaryOp::Sigmoid, two_x), 2.f), 1.f);
  tpt::check_close(u(UnaryOp::Tanh, x), via_sigmoid, 1e-6);
  CHECK(tp::unary_name(UnaryOp::Sigmoid) == std::string("sigmoid"));
  CHECK(tp::unary_name(UnaryOp::Trunc) == std::string("trunc"));
}

TEST_CASE("sigmoid, erf, expm1, log1p, rsqrt and reciprocal meet their closed forms at the edges") {
  CHECK(values(u(UnaryOp::Sigmoid, T({4}, {0, -200, 200, -kInf}))) == std::vector<float>{0.5f, 0.f, 1.f, 0.f});
  const auto e = values(u(UnaryOp::Erf, T({4}, {0, 1, -1, kInf})));
  CHECK(e[0] == 0.f);
  CHECK(e[1] == doctest::Approx(0.8427007929).epsilon(1e-6));
  CHECK(e[2] == -e[1]);
  CHECK(e[3] == 1.f);
  // expm1 and log1p keep tiny arguments that exp(x) - 1 and log(1 + x) would round to 0.
  CHECK(values(u(UnaryOp::Expm1, T({1}, {1e-10f})))[0] == doctest::Approx(1e-10).epsilon(1e-6));
  CHECK(values(u(UnaryOp::Log1p, T({1}, {1e-10f})))[0] == doctest::Approx(1e-10).epsilon(1e-6));
  CHECK(values(u(UnaryOp::Log1p, T({1}, {-1})))[0] == -kInf);
  const auto r = values(u(UnaryOp::Rsqrt, T({3}, {4, 0, -1})));
  CHECK(r[0] == 0.5f);
  CHECK(r[1] == kInf);
  CHECK(std::isnan(r[2]));
  const auto rec = values(u(UnaryOp::Reciprocal, T({3}, {4, 0.f, -0.f})));
  CHECK(rec == std::vector<float>{0.25f, kInf, -kInf});
  for (UnaryOp op : {UnaryOp::Sin, UnaryOp::Tanh, UnaryOp::Sigmoid, UnaryOp::Erf, UnaryOp::Floor})
    CHECK(std::isnan(values(u(op, T({1}, {kNan})))[0]));
}

TEST_CASE("floor, ceil and trunc round toward -inf, +inf and 0 and keep infinities") {
  const Tensor x = T({6}, {-1.5f, -0.5f, 0.5f, 1.5f, kInf, -kInf});
  CHECK(values(u(UnaryOp::Floor, x)) == std::vector<float>{-2, -1, 0, 1, kInf, -kInf});
  CHECK(values(u(UnaryOp::Ceil, x)) == std::vector<float>{-1, -0.f, 1, 2, kInf, -kInf});
  CHECK(values(u(UnaryOp::Trunc, x)) == std::vector<float>{-1, -0.f, 0, 1, kInf, -kInf});
  CHECK(std::signbit(values(u(UnaryOp::Trunc, x))[1]));  // -0.5 truncates to -0, as torch
}

TEST_CASE("linspace hits both ends exactly, and logspace is base to the power of linspace") {
  CHECK(values(tp::linspace(0, 1, 5)) == std::vector<float>{0, 0.25f, 0.5f, 0.75f, 1});
  CHECK(values(tp::linspace(-1, 0.1, 7)).back() == 0.1f);
  CHECK(values(tp::linspace(3, 9, 1)) == std::vector<float>{3});
  CHECK(tp::linspace(3, 9, 0).shape() == Shape{0});
  CHECK(values(tp::logspace(0, 2, 3, 10)) == std::vector<float>{1, 10, 100});
  CHECK(values(tp::logspace(0, 3, 4, 2)) == std::vector<float>{1, 2, 4, 8});
  // Each value is computed in double and converted to the dtype asked for: 0.1 is float64's 0.1.
  const Tensor l = tp::logspace(-1, 1, 3, 10, tp::DType::Float64);
  CHECK(l.dtype() == tp::DType::Float64);
  CHECK(l.data_as<double>()[0] == 0.1);
  CHECK(tp::linspace(0, 1, 3, tp::DType::Float64).data_as<double>()[1] == 0.5);
  CHECK(error_of([] { tp::linspace(0, 1, -2); }) == "linspace: number of steps must be non-negative, got -2");
  CHECK(error_of([] { tp::logspace(kNan, 1, 2, 10); }).find("logspace: start and end must not be NaN") == 0);
}

TEST_CASE("split and chunk cut views along a dim with torch's piece sizes") {
  const Tensor x = iota({7, 2});
  const auto parts = tp::split(x, 3, 0);
  REQUIRE(parts.size() == 3);
  CHECK(parts[2].shape() == Shape{1, 2});
  CHECK(values(parts[2]) == std::vector<float>{12, 13});
  CHECK(parts[1].shares_storage(x));
  const auto sized = tp::split_sizes(x, {2, 0, 5}, -2);
  CHECK(sized[1].shape() == Shape{0, 2});
  CHECK(values(sized[2])[0] == 4.f);
  // chunk: ceil(n / chunks) each, so 6 elements in 4 chunks are 3 pieces of 2, as torch.chunk.
  CHECK(tp::chunk(iota({6}), 4, 0).size() == 3);
  CHECK(tp::chunk(iota({5}), 3, -1).back().shape() == Shape{1});
  CHECK(error_of([&] { tp::split_sizes(x, {3, 3}, 0); }) ==
        "split: split sizes [3, 3] add up to 6, but dim 0 of shape [7, 2] has size 7");
  CHECK(error_of([&] { tp::chunk(x, 0, 0); }) == "chunk: chunks must be positive, got 0");
  CHECK(error_of([&] { tp::split(x, 1, 2); }).find("split: dim 2 is out of range") == 0);
}

TEST_CASE("flatten, unflatten and squeeze change the shape and keep the values in order") {
  const Tensor x = iota({2, 3, 4});
  CHECK(tp::flatten(x, 1, -1).shape() == Shape{2, 12});
  CHECK(tp::flatten(x, 0, 1).shape() == Shape{6, 4});
  CHECK(tp::flatten(Tensor::scalar(5), 0, -1).shape() == Shape{1});
  CHECK(tp::unflatten(x, -1, {2, -1}).shape() == Shape{2, 3, 2, 2});
  CHECK(values(tp::unflatten(tp::flatten(x, 0, -1), 0, {2, 3, 4})) == values(x));
  CHECK(error_of([&] { tp::unflatten(x, 1, {2, 2}); }) ==
        "unflatten: sizes [2, 2] multiply to 4, but dim 1 of shape [2, 3, 4] has size 3");
  CHECK(error_of([&] { tp::flatten(x, 2, 1); }) == "flatten: start dim 2 comes after end dim 1 (shape [2, 3, 4])");
  const Tensor y = iota({1, 3, 1});
  CHECK(tp::squeeze(y, {}, true).shape() == Shape{3});
  CHECK(tp::squeeze(y, {-1}, false).shape() == Shape{1, 3});
  CHECK(tp::squeeze(y, {0, 1}, false).shape() == Shape{3, 1});  // dim 1 has size 3: kept, as torch
  CHECK(error_of([&] { tp::squeeze(y, {0, -3}, false); }) == "squeeze: dim -3 appears twice in [0, -3]");
}

TEST_CASE("flip reverses the listed dims, also of a strided view, and twice is the identity") {
  CHECK(values(tp::flip(iota({4}), {0})) == std::vector<float>{3, 2, 1, 0});
  const Tensor x = tp::transpose(iota({2, 3}), 0, 1);  // (3, 2): [[0,3],[1,4],[2,5]]
  CHECK(values(tp::flip(x, {0})) == std::vector<float>{2, 5, 1, 4, 0, 3});
  CHECK(values(tp::flip(x, {-1, 0})) == std::vector<float>{5, 2, 4, 1, 3, 0});
  CHECK(values(tp::flip(tp::flip(x, {0, 1}), {1, 0})) == values(x));
  CHECK(tp::flip(iota({0, 3}), {0}).shape() == Shape{0, 3});
  CHECK(error_of([&] { tp::flip(x, {1, -1}); }) == "flip: dim -1 appears twice in [1, -1]");
}

TEST_CASE("roll shifts with wrap-around along dims, or over the flattened tensor") {
  CHECK(values(tp::roll(iota({5}), {2}, {0})) == std::vector<float>{3, 4, 0, 1, 2});
  CHECK(values(tp::roll(iota({5}), {-7}, {})) == std::vector<float>{2, 3, 4, 0, 1});
  CHECK(values(tp::roll(iota({2, 3}), {1}, {})) == std::vector<float>{5, 0, 1, 2, 3, 4});
  CHECK(values(tp::roll(iota({2, 3}), {1, 1}, {0, 1})) == std::vector<float>{5, 3, 4, 2, 0, 1});
  const Tensor x = iota({3});
  CHECK(!tp::roll(x, {3}, {0}).shares_storage(x));
  CHECK(error_of([&] { tp::roll(x, {1, 2}, {0}); }) == "roll: shifts [1, 2] and dims [0] must have the same length");
}

TEST_CASE("repeat tiles every dim, tile pads its repeats in front, and 0 repeats make an empty tensor") {
  const Tensor x = T({2}, {1, 2});
  const Tensor r = tp::repeat(x, {2, 2});
  CHECK(r.shape() == Shape{2, 4});
  CHECK(values(r) == std::vector<float>{1, 2, 1, 2, 1, 2, 1, 2});
  const Tensor m = tp::repeat(T({2, 1}, {1, 2}), {1, 3});
  CHECK(values(m) == std::vector<float>{1, 1, 1, 2, 2, 2});
  CHECK(tp::tile(iota({2, 3}), {2}).shape() == Shape{2, 6});
  CHECK(tp::repeat(x, {0, 1}).shape() == Shape{0, 2});
  CHECK(error_of([&] { tp::repeat(iota({2, 2}), {2}); }) ==
        "repeat: got 1 repeats [2] for a 2-d tensor; give at least one per dim");
}

TEST_CASE("tril and triu split a matrix: tril(x, k) + triu(x, k + 1) is x, batched") {
  const Tensor x = tpt::randn_t({2, 3, 5}, 3);
  for (int64_t k : {-4, -1, 0, 2, 6}) {
    CAPTURE(k);
    tpt::check_close(tp::binary(tp::BinaryOp::Add, tp::tril(x, k), tp::triu(x, k + 1)), x, 0);
  }
  CHECK(values(tp::triu(tp::Tensor::full({3, 3}, 1), 1)) == std::vector<float>{0, 1, 1, 0, 0, 1, 0, 0, 0});
  CHECK(values(tp::tril(tp::Tensor::full({2, 3}, 1), -1)) == std::vector<float>{0, 0, 0, 1, 0, 0});
  CHECK(error_of([] { tp::tril(iota({3}), 0); }) == "tril: expects a tensor of at least 2 dims, got shape [3]");
}

TEST_CASE("var and std follow the correction, over one dim, a list of dims or all") {
  const Tensor x = T({2, 2}, {1, 2, 3, 4});
  CHECK(tp::var(x, {}, 1, false).item() == doctest::Approx(5.0 / 3));
  CHECK(tp::var(x, {}, 0, false).item() == doctest::Approx(1.25));
  CHECK(tp::std_dev(x, {0, 1}, 1, false).item() == doctest::Approx(std::sqrt(5.0 / 3)));
  CHECK(values(tp::var(x, {-1}, 1, true)) == std::vector<float>{0.5f, 0.5f});
  CHECK(tp::var(x, {-1}, 1, true).shape() == Shape{2, 1});
  CHECK(std::isnan(tp::var(T({1}, {3}), {}, 1, false).item()));  // 0 / 0, as torch
  // Shifting by a large constant leaves the variance (two passes in double, no cancellation).
  const Tensor big = tp::binary_scalar(tp::BinaryOp::Add, x, 1e4f);
  CHECK(tp::var(big, {}, 1, false).item() == doctest::Approx(5.0 / 3).epsilon(1e-6));
  CHECK(error_of([&] { tp::var(x, {0, -2}, 1, false); }) == "var: dim -2 appears twice in [0, -2]");
}

TEST_CASE("logsumexp is log(sum(exp)) without overflow, and log_softmax is x minus it") {
  const Tensor x = T({2, 3}, {1, 2, 3, 1000, 1000, -kInf});
  const auto l = values(tp::logsumexp(x, {1}, false));
  CHECK(l[0] == doctest::Approx(std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0))));
  CHECK(l[1] == doctest::Approx(1000 + std::log(2.0)));
  CHECK(tp::logsumexp(T({2}, {-kInf, -kInf}), {}, false).item() == -kInf);
  CHECK(tp::logsumexp(x, {0, 1}, true).shape() == Shape{1, 1});
  const Tensor ls = tp::log_softmax(x, -1);
  CHECK(values(ls)[5] == -kInf);
  const Tensor back = tp::reduce(tp::ReduceOp::Sum, u(UnaryOp::Exp, ls), -1, false);
  tpt::check_close(back, T({2}, {1, 1}), 1e-6);
  const Tensor r = tpt::randn_t({4, 5}, 9);
  tpt::check_close(tp::log_softmax(r, 0), u(UnaryOp::Log, tp::softmax(r, 0)), 1e-5);
}

TEST_CASE("prod and cumprod multiply along a dim; an empty product is 1") {
  const Tensor x = T({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(values(tp::prod(x, 1, false)) == std::vector<float>{6, 120});
  CHECK(tp::prod(x, 0, true).shape() == Shape{1, 3});
  CHECK(tp::prod_all(x).item() == 720.f);
  CHECK(tp::prod_all(iota({0})).item() == 1.f);
  CHECK(values(tp::cumprod(x, -1)) == std::vector<float>{1, 2, 6, 4, 20, 120});
  CHECK(values(tp::cumprod(x, 0)) == std::vector<float>{1, 2, 3, 4, 10, 18});
}

TEST_CASE("einsum maps contractions, batched attention and one-operand forms onto matmul, sums and views") {
  const Tensor a = tpt::randn_t({3, 4}, 1), b = tpt::randn_t({4, 5}, 2);
  tpt::check_close(tp::einsum("ij,jk->ik", {a, b}), tp::matmul(a, b), 1e-5);
  tpt::check_close(tp::einsum("ij,jk", {a, b}), tp::matmul(a, b), 1e-5);  // implicit output "ik"
  tpt::check_close(tp::einsum("ij,kj->ki", {a, tp::transpose(b, 0, 1)}), tp::transpose(tp::matmul(a, b), 0, 1), 1e-5);
  const Tensor q = tpt::randn_t({2, 3, 6, 8}, 3), k = tpt::randn_t({2, 3, 7, 8}, 4), v = tpt::randn_t({2, 3, 7, 8}, 5);
  const Tensor scores = tp::einsum("bhqd,bhkd->bhqk", {q, k});
  tpt::check_close(scores, tp::matmul(q, tp::transpose(k, -1, -2)), 1e-5);
  tpt::check_close(tp::einsum("bhqk,bhkd->bhqd", {scores, v}), tp::matmul(scores, v), 1e-4);
  tpt::check_close(tp::einsum("...qd,...kd->...qk", {q, k}), scores, 1e-5);
  const Tensor sq = iota({3, 3});
  CHECK(tp::einsum("ii", {sq}).item() == 12.f);  // trace: 0 + 4 + 8
  CHECK(values(tp::einsum("ii->i", {sq})) == std::vector<float>{0, 4, 8});
  CHECK(values(tp::einsum("ij->ji", {iota({2, 3})})) == std::vector<float>{0, 3, 1, 4, 2, 5});
  CHECK(values(tp::einsum("ij->j", {iota({2, 3})})) == std::vector<float>{3, 5, 7});
  CHECK(tp::einsum("ij->", {iota({2, 3})}).item() == 15.f);
  CHECK(tp::einsum("i,i->", {iota({4}), iota({4})}).item() == 14.f);
  CHECK(values(tp::einsum("i,j->ij", {T({2}, {1, 2}), T({3}, {1, 10, 100})})) == std::vector<float>{1, 10, 100, 2, 20, 200});
  CHECK(values(tp::einsum("i,i->i", {T({2}, {2, 3}), T({2}, {4, 5})})) == std::vector<float>{8, 15});
  // Three operands, left to right; a size-1 dim broadcasts.
  const Tensor c = tpt::randn_t({5, 2}, 6);
  tpt::check_close(tp::einsum("ij,jk,kl->il", {a, b, c}), tp::matmul(tp::matmul(a, b), c), 1e-4);
  CHECK(tp::einsum("ij,ij->ij", {iota({1, 3}), iota({2, 3})}).shape() == Shape{2, 3});
  CHECK(tp::einsum("ij,jk->ik", {iota({0, 4}), b}).shape() == Shape{0, 5});
  CHECK(values(tp::einsum("ij,jk->ik", {iota({2, 0}), iota({0, 2})})) == std::vector<float>{0, 0, 0, 0});
  CHECK(error_of([&] { tp::einsum("ij,jk->ik", {a, a}); }) ==
        "einsum: label j has size 4 in an earlier operand but 3 in operand 1 (shape [3, 4])");
  CHECK(error_of([&] { tp::einsum("ijk->i", {a}); }) ==
        "einsum: operand 0 has shape [3, 4] (2 dims), but its term in \"ijk->i\" has 3 labels");
  CHECK(error_of([&] { tp::einsum("ij->iz", {a}); }) == "einsum: output label z of \"ij->iz\" appears in no operand");
  CHECK(error_of([&] { tp::einsum("ij,jk", {a}); }) == "einsum: \"ij,jk\" has 2 operand terms but 1 tensors were given");
  CHECK(error_of([&] { tp::einsum("i1->i", {a}); }).find("einsum: invalid character '1'") == 0);
}

TEST_CASE("matrix_power squares its way to A^k, gives I at 0 and inverts for negative k") {
  const Tensor A = T({2, 2}, {1, 1, 0, 1});
  CHECK(values(tp::linalg::matrix_power(A, 5)) == std::vector<float>{1, 5, 0, 1});
  CHECK(values(tp::linalg::matrix_power(A, 0)) == std::vector<float>{1, 0, 0, 1});
  CHECK(values(tp::linalg::matrix_power(A, -3)) == std::vector<float>{1, -3, 0, 1});
  const Tensor B = tpt::randn_t({3, 4, 4}, 8);
  tpt::check_close(tp::linalg::matrix_power(B, 3), tp::matmul(tp::matmul(B, B), B), 1e-4, 1e-4);
  CHECK(!tp::linalg::matrix_power(B, 1).shares_storage(B));
  CHECK(error_of([&] { tp::linalg::matrix_power(iota({2, 3}), 2); }) ==
        "linalg.matrixPower: expects square matrices, got shape [2, 3]");
}

TEST_CASE("pinv satisfies the Penrose conditions for a rank-deficient matrix and is inv for an invertible one") {
  const Tensor u1 = tpt::randn_t({5, 2}, 21), v1 = tpt::randn_t({2, 4}, 22);
  const Tensor A = tp::matmul(u1, v1);  // (5, 4) of rank 2
  const Tensor P = tp::linalg::pinv(A, 0, -1);
  CHECK(P.shape() == Shape{4, 5});
  tpt::check_close(tp::matmul(tp::matmul(A, P), A), A, 1e-4, 1e-4);
  tpt::check_close(tp::matmul(tp::matmul(P, A), P), P, 1e-4, 1e-4);
  const Tensor S = T({2, 2}, {2, 1, 1, 3});
  tpt::check_close(tp::linalg::pinv(S, 0, -1), tp::linalg::inv(S), 1e-6);
  CHECK(tp::linalg::pinv(iota({0, 3}), 0, -1).shape() == Shape{3, 0});
}

TEST_CASE("cond is s_max / s_min, or norm(A) norm(inv A) for other ords, and inf when singular") {
  const Tensor D = T({3, 3}, {1, 0, 0, 0, 2, 0, 0, 0, 10});
  CHECK(tp::linalg::cond(D, "").item() == doctest::Approx(10));
  CHECK(tp::linalg::cond(D, "-2").item() == doctest::Approx(0.1));
  CHECK(tp::linalg::cond(D, "1").item() == doctest::Approx(10));
  CHECK(tp::linalg::cond(D, "fro").item() == doctest::Approx(std::sqrt(105.0) * std::sqrt(1 + 0.25 + 0.01)));
  CHECK(tp::linalg::cond(T({2, 2}, {1, 2, 2, 4}), "inf").item() == kInf);
  CHECK(tp::linalg::cond(tpt::randn_t({4, 2, 2}, 3), "").shape() == Shape{4});
  CHECK(error_of([&] { tp::linalg::cond(D, "3"); }).find("linalg.cond: ord must be") == 0);
  CHECK(error_of([&] { tp::linalg::cond(iota({2, 3}), "1"); }) == "linalg.cond: expects square matrices, got shape [2, 3]");
}

// ---- dtypes (torch's rules; the torch fixtures check them case by case) -------------------------------
namespace {
// A tensor of dtype d holding these values (exact for the values used here).
Tensor typed(const Shape& shape, const std::vector<double>& v, tp::DType d) {
  Tensor t = Tensor::empty(shape, tp::DType::Float64);
  std::copy(v.begin(), v.end(), t.data_as<double>());
  return t.to(d);
}
std::vector<double> doubles(const Tensor& t) {
  const Tensor c = t.to(tp::DType::Float64).contiguous();
  return std::vector<double>(c.data_as<double>(), c.data_as<double>() + c.numel());
}
double max_abs_diff(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  const auto x = doubles(a), y = doubles(b);
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}
}  // namespace

TEST_CASE("the float functions compute float64 in double, and give integers and bools float32 as torch") {
  const Tensor d = typed({3}, {0.5, 1.0, 2.0}, tp::DType::Float64);
  const Tensor s = u(UnaryOp::Sin, d);
  CHECK(s.dtype() == tp::DType::Float64);
  CHECK(doubles(s) == std::vector<double>{std::sin(0.5), std::sin(1.0), std::sin(2.0)});
  CHECK(doubles(u(UnaryOp::Sigmoid, d))[1] == 1.0 / (1.0 + std::exp(-1.0)));
  const Tensor i = typed({3}, {-2, 0, 3}, tp::DType::Int32);
  const Tensor e = u(UnaryOp::Erf, i);
  CHECK(e.dtype() == tp::DType::Float32);
  CHECK(values(e) == std::vector<float>{float(std::erf(-2.0)), 0.f, float(std::erf(3.0))});
  CHECK(u(UnaryOp::Reciprocal, typed({1}, {1}, tp::DType::Bool)).dtype() == tp::DType::Float32);
  // bfloat16 in float32, rounded back: tanh(1) = 0.76159 is 0.76171875 in bfloat16
  const Tensor b = u(UnaryOp::Tanh, typed({1}, {1}, tp::DType::BFloat16));
  CHECK(b.dtype() == tp::DType::BFloat16);
  CHECK(doubles(b)[0] == 0.76171875);
  // floor/ceil/trunc keep integers (they are already whole) and refuse bools, as torch
  const Tensor f = u(UnaryOp::Floor, i);
  CHECK(f.dtype() == tp::DType::Int32);
  CHECK(doubles(f) == std::vector<double>{-2, 0, 3});
  CHECK(error_of([&] { u(UnaryOp::Ceil, typed({1}, {1}, tp::DType::Bool)); }) == "ceil: not supported for bool tensors (as torch)");
}

TEST_CASE("var, std, logsumexp, prod, cumprod and logSoftmax keep float dtypes, and follow torch for integers") {
  const Tensor d = typed({4}, {1, 2, 3, 4}, tp::DType::Float64);
  CHECK(tp::var(d, {}, 1, false).dtype() == tp::DType::Float64);
  CHECK(doubles(tp::var(d, {}, 1, false))[0] == 5.0 / 3);  // exact in double, not float32's 1.6666666
  CHECK(doubles(tp::std_dev(d, {}, 1, false))[0] == std::sqrt(5.0 / 3));
  CHECK(doubles(tp::logsumexp(d, {}, false))[0] == doctest::Approx(4 + std::log(1 + std::exp(-1.0) + std::exp(-2.0) + std::exp(-3.0))).epsilon(1e-15));
  CHECK(tp::var(d.to(tp::DType::Float16), {}, 1, false).dtype() == tp::DType::Float16);
  const Tensor i = typed({2, 2}, {1, 2, 3, 4}, tp::DType::Int32);
  CHECK(error_of([&] { tp::var(i, {}, 1, false); }) == "var: expected a floating tensor, got int32 of shape [2, 2]");
  CHECK(error_of([&] { tp::log_softmax(i, 0); }) == "logSoftmax: expected a floating tensor, got int32 of shape [2, 2]");
  CHECK(tp::logsumexp(i, {}, false).dtype() == tp::DType::Float32);  // torch's default float
  // Integer products are int64 and wrap as torch's: 2^32 * 2^32 = 2^64 = 0 (mod 2^64).
  const Tensor p = tp::prod(i, 1, false);
  CHECK(p.dtype() == tp::DType::Int64);
  CHECK(doubles(p) == std::vector<double>{2, 12});
  const Tensor big = typed({2}, {4294967296.0, 4294967296.0}, tp::DType::Int64);
  CHECK(doubles(tp::prod_all(big))[0] == 0);
  const Tensor c = tp::cumprod(typed({3}, {1, 1, 0}, tp::DType::Bool), 0);
  CHECK(c.dtype() == tp::DType::Int64);
  CHECK(doubles(c) == std::vector<double>{1, 1, 0});
  CHECK(doubles(tp::cumprod(d, 0)) == std::vector<double>{1, 2, 6, 24});
  const Tensor ls = tp::log_softmax(d, 0);
  CHECK(ls.dtype() == tp::DType::Float64);
  CHECK(doubles(tp::reduce_all(tp::ReduceOp::Sum, u(UnaryOp::Exp, ls)))[0] == doctest::Approx(1).epsilon(1e-15));
}

TEST_CASE("linalg computes float64 matrices in double: inv, det, solve, svd, norms, pinv, cond, matrix_power") {
  // A Hilbert matrix: cond ~1.5e4 for n = 4, so float32 would lose ~3 of its 7 digits.
  Tensor H = Tensor::empty({4, 4}, tp::DType::Float64);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) H.data_as<double>()[r * 4 + c] = 1.0 / (r + c + 1);
  const Tensor I = tp::eye(4).to(tp::DType::Float64);
  const Tensor Hi = tp::linalg::inv(H);
  CHECK(Hi.dtype() == tp::DType::Float64);
  CHECK(max_abs_diff(tp::matmul(H, Hi), I) < 1e-11);
  CHECK(doubles(Hi)[0] == doctest::Approx(16).epsilon(1e-12));  // inv(hilbert(4))[0][0] = 16
  CHECK(doubles(tp::linalg::det(H))[0] == doctest::Approx(1.0 / 6048000).epsilon(1e-12));
  const tp::linalg::SvdResult r = tp::linalg::svd(H);
  CHECK(r.S.dtype() == tp::DType::Float64);
  const Tensor back = tp::matmul(tp::binary(tp::BinaryOp::Mul, r.U, tp::unsqueeze(r.S, -2)), r.Vh);
  CHECK(max_abs_diff(back, H) < 1e-14);
  CHECK(doubles(tp::linalg::cond(H, ""))[0] == doctest::Approx(15513.738738929).epsilon(1e-10));
  CHECK(doubles(tp::linalg::cond(H, "1"))[0] == doctest::Approx(28375).epsilon(1e-10));
  CHECK(max_abs_diff(tp::linalg::pinv(H, 0, -1), Hi) < 1e-9);
  CHECK(max_abs_diff(tp::linalg::matrix_power(H, -2), tp::matmul(Hi, Hi)) < 1e-8);
  CHECK(tp::linalg::matrix_power(H, 0).dtype() == tp::DType::Float64);
  const Tensor b = typed({4}, {1, 2, 3, 4}, tp::DType::Float64);
  CHECK(max_abs_diff(tp::matmul(H, tp::linalg::solve(H, b)), b) < 1e-12);
  CHECK(doubles(tp::linalg::matrix_norm(H, "fro"))[0] == doctest::Approx(std::sqrt(doubles(tp::reduce_all(
      tp::ReduceOp::Sum, tp::binary(tp::BinaryOp::Mul, H, H)))[0])).epsilon(1e-15));
  CHECK(error_of([&] { tp::linalg::inv(H.to(tp::DType::Int32)); }) ==
        "linalg.inv: expects float32 or float64 matrices, got int32 of shape [4, 4]");
}
