// issue 22's index ops (cpp/src/ops_index.cpp): torch's tie and NaN rules, int64 indices, other dtypes
// moved as bytes, and the errors readers see. torch fixtures: tests/fixtures/torch/index.json (JS suite).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "helpers.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"

using tp::DType;
using tp::Shape;
using tp::Tensor;
using tpt::T;

namespace {
const float kNan = std::numeric_limits<float>::quiet_NaN();
using tpt::error_of;
std::vector<int64_t> ints(const Tensor& t) {
  const Tensor c = t.contiguous();
  return std::vector<int64_t>(c.data_as<int64_t>(), c.data_as<int64_t>() + c.numel());
}
std::vector<float> floats(const Tensor& t) {
  const Tensor c = t.contiguous();
  return std::vector<float>(c.data(), c.data() + c.numel());
}
Tensor I64(const Shape& s, std::vector<int64_t> v) {
  Tensor t = Tensor::empty(s, DType::Int64);
  for (size_t i = 0; i < v.size(); ++i) t.data_as<int64_t>()[i] = v[i];
  return t;
}
}  // namespace

TEST_CASE("argmax and max take the first of tied maxima, and a NaN wins, as torch") {
  const Tensor x = T({2, 4}, {1, 3, 3, 0, 2, kNan, 5, kNan});
  CHECK(tp::argmax(x, 1, false).dtype() == DType::Int64);
  CHECK(ints(tp::argmax(x, 1, false)) == std::vector<int64_t>{1, 1});
  CHECK(ints(tp::argmin(x, -1, true)) == std::vector<int64_t>{3, 1});
  CHECK(tp::argmin(x, -1, true).shape() == Shape{2, 1});
  CHECK(ints(tp::argmax(T({3}, {2, 7, 7}), 0, false)) == std::vector<int64_t>{1});
  CHECK(ints(tp::argmax_all(x)) == std::vector<int64_t>{5});
  const auto m = tp::max_dim(x, 0, false);
  CHECK(ints(m.indices) == std::vector<int64_t>{1, 1, 1, 1});
  CHECK(floats(m.values)[0] == 2.f);
  CHECK(std::isnan(floats(m.values)[1]));
  CHECK(tp::min_all(T({3}, {4, -1, 2})).item() == -1.f);
  CHECK(error_of([&] { tp::argmax(Tensor::empty({2, 0}), 1, false); }) == "argmax: cannot reduce dim 1 of size 0 (shape [2, 0])");
  CHECK(error_of([&] { tp::max_all(Tensor::empty({0})); }) == "max: cannot reduce an empty tensor of shape [0]");
}

TEST_CASE("sort is stable, puts NaN last ascending and first descending, and argsort is its indices") {
  const Tensor x = T({6}, {3, 1, kNan, 1, 2, 3});
  const auto up = tp::sort(x, 0, false);
  CHECK(ints(up.indices) == std::vector<int64_t>{1, 3, 4, 0, 5, 2});
  CHECK(std::isnan(floats(up.values)[5]));
  const auto down = tp::sort(x, -1, true);
  CHECK(ints(down.indices) == std::vector<int64_t>{2, 0, 5, 4, 1, 3});
  const Tensor m = tp::transpose(T({2, 3}, {5, 4, 6, 1, 9, 0}), 0, 1);  // (3, 2), a strided view
  CHECK(ints(tp::sort(m, 0, false).indices) == std::vector<int64_t>{1, 2, 0, 0, 2, 1});
}

TEST_CASE("topk returns the k largest or smallest in order with their positions; k out of range is an error") {
  const Tensor x = T({2, 5}, {1, 9, 3, 9, 0, 4, 4, 4, 2, 8});
  const auto t = tp::topk(x, 2, -1, true, true);
  CHECK(t.values.shape() == Shape{2, 2});
  CHECK(floats(t.values) == std::vector<float>{9, 9, 8, 4});
  CHECK(ints(t.indices) == std::vector<int64_t>{1, 3, 4, 0});
  CHECK(ints(tp::topk(x, 1, 1, false, true).indices) == std::vector<int64_t>{4, 3});
  CHECK(tp::topk(x, 0, 1, true, true).values.shape() == Shape{2, 0});
  CHECK(error_of([&] { tp::topk(x, 6, 1, true, true); }) == "topk: k 6 is out of range for dim 1 of size 5 (shape [2, 5])");
}

TEST_CASE("gather, index_select and embedding follow int64 indices, for float and int tensors alike") {
  const Tensor x = T({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(floats(tp::gather(x, 1, I64({2, 2}, {2, 0, 1, 1}))) == std::vector<float>{3, 1, 5, 5});
  CHECK(floats(tp::gather(x, 0, I64({1, 3}, {1, 0, 1}))) == std::vector<float>{4, 2, 6});
  CHECK(floats(tp::index_select(x, -1, I64({2}, {2, 0}))) == std::vector<float>{3, 1, 6, 4});
  const Tensor xi = x.to(DType::Int32);
  const Tensor sel = tp::index_select(xi, 0, I64({3}, {1, 1, 0}));
  CHECK(sel.dtype() == DType::Int32);
  CHECK(sel.data_as<int32_t>()[0] == 4);
  CHECK(sel.data_as<int32_t>()[8] == 3);
  const Tensor W = T({4, 2}, {0, 0, 1, 1, 2, 2, 3, 3});
  const Tensor e = tp::embedding(I64({2, 2}, {3, 1, 0, 3}), W);
  CHECK(e.shape() == Shape{2, 2, 2});
  CHECK(floats(e) == std::vector<float>{3, 3, 1, 1, 0, 0, 3, 3});
  CHECK(error_of([&] { tp::index_select(x, 1, I64({1}, {3})); }) == "indexSelect: index 3 is out of range for the selected dim of size 3");
  CHECK(error_of([&] { tp::embedding(I64({1}, {-1}), W); }) == "nn.embedding: index -1 is out of range for the selected dim of size 4");
  CHECK(error_of([&] { tp::gather(x, 1, x); }) == "gather: index must be an integer tensor (int64 or int32), got float32");
  CHECK(error_of([&] { tp::gather(x, 1, I64({3, 1}, {0, 0, 0})); }) ==
        "gather: index of shape [3, 1] is larger than x of shape [2, 3] in dim 0");
}
