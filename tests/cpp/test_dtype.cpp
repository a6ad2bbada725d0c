// DTypes: names, sizes, torch's promotion rules, conversions (Tensor::to) with torch's rounding and
// truncation, byte-sized storage, and float32-only kernels refusing other dtypes by name.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/ops.hpp"
#include "helpers.hpp"

using tp::DType;
using tp::Shape;
using tp::Tensor;

namespace {
using tpt::error_of;
Tensor f32(const Shape& shape, std::vector<float> v) { return Tensor::from(shape, v.data()); }
Tensor f64(std::vector<double> v) {
  Tensor t = Tensor::empty({int64_t(v.size())}, DType::Float64);
  std::memcpy(t.raw(), v.data(), v.size() * 8);
  return t;
}
// The elements of any tensor as doubles (through to_double, exact but for int64 beyond 2^53).
std::vector<double> values(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<double> out;
  for (int64_t i = 0; i < c.numel(); ++i)
    out.push_back(tp::to_double(c.dtype(), static_cast<const uint8_t*>(c.raw()) + i * tp::itemsize(c.dtype())));
  return out;
}
const DType kAll[] = {DType::Float32, DType::Float64, DType::Float16, DType::BFloat16, DType::Int32,
                      DType::Int64,   DType::UInt8,   DType::Int8,    DType::Bool,     DType::Int16};
}  // namespace

TEST_CASE("every dtype has torch's name and its size in bytes, and parse_dtype reads names and aliases back") {
  const char* names[] = {"float32", "float64", "float16", "bfloat16", "int32", "int64", "uint8", "int8", "bool", "int16"};
  const int64_t sizes[] = {4, 8, 2, 2, 4, 8, 1, 1, 1, 2};
  for (int i = 0; i < tp::kNumDTypes; ++i) {
    CHECK(std::string(tp::dtype_name(kAll[i])) == names[i]);
    CHECK(tp::itemsize(kAll[i]) == sizes[i]);
    CHECK(tp::parse_dtype("to", names[i]) == kAll[i]);
  }
  CHECK(tp::parse_dtype("to", "half") == DType::Float16);
  CHECK(tp::parse_dtype("to", "long") == DType::Int64);
  CHECK(tp::parse_dtype("to", "double") == DType::Float64);
  CHECK(error_of([] { tp::parse_dtype("to", "complex64"); }) ==
        "to: unknown dtype \"complex64\" (expected one of float32, float64, float16, bfloat16, int32, int64, uint8, "
        "int8, bool, int16)");
  CHECK(tp::is_floating(DType::BFloat16));
  CHECK_FALSE(tp::is_floating(DType::Int8));
  CHECK(tp::is_integral(DType::UInt8));
  CHECK_FALSE(tp::is_integral(DType::Bool));
}

TEST_CASE("promote_types follows torch.promote_types, including uint8+int8 -> int16 and float16+bfloat16 -> float32") {
  // Pairs printed by torch 1.13's torch.promote_types.
  struct Case {
    DType a, b, want;
  };
  const Case cases[] = {
      {DType::Bool, DType::Bool, DType::Bool},          {DType::Bool, DType::UInt8, DType::UInt8},
      {DType::UInt8, DType::Int8, DType::Int16},        {DType::UInt8, DType::Int32, DType::Int32},
      {DType::Int8, DType::Int64, DType::Int64},        {DType::Int16, DType::Int32, DType::Int32},
      {DType::Int64, DType::Float16, DType::Float16},   {DType::Int32, DType::BFloat16, DType::BFloat16},
      {DType::Float16, DType::BFloat16, DType::Float32}, {DType::BFloat16, DType::Float32, DType::Float32},
      {DType::Float16, DType::Float64, DType::Float64}, {DType::Int64, DType::Float32, DType::Float32},
      {DType::Bool, DType::Float16, DType::Float16},    {DType::UInt8, DType::Float64, DType::Float64},
  };
  for (const Case& c : cases) {
    CAPTURE(tp::dtype_name(c.a));
    CAPTURE(tp::dtype_name(c.b));
    CHECK(tp::promote_types(c.a, c.b) == c.want);
  }
  // Symmetric, idempotent, and never below either operand's category.
  for (DType a : kAll)
    for (DType b : kAll) {
      const DType r = tp::promote_types(a, b);
      CHECK(r == tp::promote_types(b, a));
      if (tp::is_floating(a) || tp::is_floating(b)) CHECK(tp::is_floating(r));
      if (a == b) CHECK(r == a);
    }
}

TEST_CASE("float -> integer conversion truncates toward zero, and NaN or out-of-range gives INT_MIN as torch on x86") {
  const Tensor x = f32({8}, {-2.7f, -0.5f, 0.5f, 2.7f, NAN, 3e9f, -3e9f, INFINITY});
  const double m32 = double(std::numeric_limits<int32_t>::min()), m64 = double(std::numeric_limits<int64_t>::min());
  CHECK(values(x.to(DType::Int32)) == std::vector<double>{-2, 0, 0, 2, m32, m32, m32, m32});
  CHECK(values(x.to(DType::Int64)) == std::vector<double>{-2, 0, 0, 2, m64, 3e9, -3e9, m64});
  // Narrow types go through int32 and wrap: -1.0 -> uint8 255, 300 -> 44, NaN -> 0 (INT_MIN's low byte).
  const Tensor y = f32({5}, {-1.f, 300.f, NAN, 127.9f, -129.f});
  CHECK(values(y.to(DType::UInt8)) == std::vector<double>{255, 44, 0, 127, 127});
  CHECK(values(y.to(DType::Int8)) == std::vector<double>{-1, 44, 0, 127, 127});
  CHECK(values(y.to(DType::Int16)) == std::vector<double>{-1, 300, 0, 127, -129});
}

TEST_CASE("anything -> bool is x != 0 (NaN is true, -0 is false), and bool reads back as 0 and 1") {
  const Tensor x = f32({5}, {0.f, -0.f, 0.1f, NAN, -INFINITY});
  const Tensor b = x.to(DType::Bool);
  CHECK(b.dtype() == DType::Bool);
  CHECK(values(b) == std::vector<double>{0, 0, 1, 1, 1});
  CHECK(values(b.to(DType::Float32)) == std::vector<double>{0, 0, 1, 1, 1});
  CHECK(values(f32({3}, {2.f, 0.f, -7.f}).to(DType::Int64).to(DType::Bool)) == std::vector<double>{1, 0, 1});
}

TEST_CASE("float16 and bfloat16 round to nearest even, overflow to inf, and widen back exactly") {
  const float e11 = std::ldexp(1.f, -11), e8 = std::ldexp(1.f, -8);
  // 1 + 2^-11 is halfway between float16 1 and 1 + 2^-10: ties go to the even 1; 1 + 3 * 2^-11 to 1 + 2^-9.
  const Tensor h = f32({4}, {1 + e11, 1 + 3 * e11, 65520.f, -70000.f}).to(DType::Float16);
  CHECK(values(h) == std::vector<double>{1, 1 + std::ldexp(1.0, -9), INFINITY, -INFINITY});
  const Tensor b = f32({3}, {1 + e8, 1 + 3 * e8, 3.4e38f}).to(DType::BFloat16);
  CHECK(values(b) == std::vector<double>{1, 1 + std::ldexp(1.0, -6), INFINITY});
  CHECK(b.data_as<tp::bfloat16_t>()[0].bits == 0x3f80);
  CHECK(h.data_as<tp::float16_t>()[0].bits == 0x3c00);
  CHECK(std::isnan(values(f32({1}, {NAN}).to(DType::BFloat16))[0]));
}

TEST_CASE("integers convert among themselves by wrapping, and int64 -> float32 rounds once") {
  Tensor big = Tensor::empty({3}, DType::Int64);
  int64_t* p = big.data_as<int64_t>();
  p[0] = (int64_t(1) << 32) + 5;
  p[1] = -1;
  p[2] = (int64_t(1) << 24) + 1;
  CHECK(values(big.to(DType::Int32)) == std::vector<double>{5, -1, 16777217});
  CHECK(values(big.to(DType::UInt8)) == std::vector<double>{5, 255, 1});
  CHECK(values(big.to(DType::Float32)) == std::vector<double>{4294967296.0 + 0, -1, 16777216});
  // (2^53 + 1) -> float32 through double would round twice; once it is 2^53.
  p[0] = (int64_t(1) << 53) + 1;
  CHECK(values(big.to(DType::Float32))[0] == std::ldexp(1.0, 53));
}

TEST_CASE("float64 keeps what float32 cannot, and float64 -> float32 rounds to nearest") {
  const Tensor x = f64({0.1, 1e300, 16777217.0});
  CHECK(values(x) == std::vector<double>{0.1, 1e300, 16777217.0});
  CHECK(values(x.to(DType::Float32)) == std::vector<double>{double(0.1f), INFINITY, 16777216.0});
}

TEST_CASE("to() converts strided views, keeps the shape, and returns the same storage for its own dtype") {
  Tensor x = Tensor::empty({2, 3}, DType::Int16);
  for (int i = 0; i < 6; ++i) x.data_as<int16_t>()[i] = int16_t(i - 2);
  const Tensor t = tp::transpose(x, 0, 1);
  CHECK(values(t.to(DType::Float64)) == std::vector<double>{-2, 1, -1, 2, 0, 3});
  CHECK(t.to(DType::Float64).shape() == Shape{3, 2});
  CHECK(values(t.contiguous()) == std::vector<double>{-2, 1, -1, 2, 0, 3});  // the generic clone
  CHECK(x.to(DType::Int16).shares_storage(x));
  CHECK(Tensor::empty({0, 4}, DType::Int8).to(DType::Float16).shape() == Shape{0, 4});
}

TEST_CASE("storage holds bytes: a tensor counts numel * itemsize live bytes") {
  const int64_t before = tp::Storage::live_bytes();
  {
    const Tensor a = Tensor::zeros({10}, DType::Int8), b = Tensor::zeros({10}, DType::Float64);
    CHECK(tp::Storage::live_bytes() - before == 10 + 80);
    CHECK(values(b) == std::vector<double>(10, 0.0));
  }
  CHECK(tp::Storage::live_bytes() == before);
}

TEST_CASE("the size limit is 2 GiB in bytes: 2^31 bools would fit where 2^30 float32 do not") {
  CHECK(error_of([] { Tensor::empty({int64_t(1) << 30}); }) ==
        "empty: shape [1073741824] is too large (more than 536870912 elements)");
  CHECK(error_of([] { Tensor::empty({(int64_t(1) << 31) + 1}, DType::Bool, "zeros"); }) ==
        "zeros: shape [2147483649] is too large (more than 2147483648 elements of bool)");
  CHECK(error_of([] { Tensor::empty({(int64_t(1) << 28) + 1}, DType::Float64, "zeros"); }) ==
        "zeros: shape [268435457] is too large (more than 268435456 elements of float64)");
  CHECK(tp::checked_numel("zeros", {int64_t(1) << 31}, DType::UInt8) == int64_t(1) << 31);
}

TEST_CASE("float32 kernels refuse another dtype by name instead of reading its bytes as floats") {
  const Tensor i = f32({2}, {1, 2}).to(DType::Int32);
  CHECK(error_of([&] { (void)i.data(); }) == "dtype: expected a float32 tensor, got int32 of shape [2]");
  CHECK(error_of([&] { tp::softmax(i, 0); }) == "softmax: expected a floating tensor, got int32 of shape [2]");
  CHECK(error_of([&] { (void)i.data_as<int64_t>(); }) == "dtype: expected a int64 tensor, got int32 of shape [2]");
  CHECK(i.data_as<int32_t>()[1] == 2);
}

TEST_CASE("full converts its value as to() does, and item_double reads any dtype") {
  CHECK(values(Tensor::full({2}, 3.7, DType::Int32)) == std::vector<double>{3, 3});
  CHECK(values(Tensor::full({2}, -3.7, DType::Int64)) == std::vector<double>{-3, -3});
  CHECK(values(Tensor::full({1}, NAN, DType::Bool)) == std::vector<double>{1});
  CHECK(values(Tensor::full({1}, 0.1, DType::Float64)) == std::vector<double>{0.1});
  CHECK(Tensor::full({}, 9007199254740991.0, DType::Int64).item_double() == 9007199254740991.0);
  CHECK(Tensor::full({}, 2.5, DType::Float16).item() == 2.5f);
}

TEST_CASE("arange in int64 is exact far beyond float32's 2^24, and cat promotes its inputs' dtypes") {
  const double s = std::ldexp(1.0, 40);
  CHECK(values(tp::arange(s, s + 3, 1, DType::Int64)) == std::vector<double>{s, s + 1, s + 2});
  CHECK(tp::arange(0, 5, 1, DType::Int32).dtype() == DType::Int32);
  const Tensor a = tp::arange(1, 3, 1, DType::Int32), b = f32({1}, {0.5f});
  const Tensor c = tp::cat({a, b}, 0);
  CHECK(c.dtype() == DType::Float32);
  CHECK(values(c) == std::vector<double>{1, 2, 0.5});
  const Tensor u = tp::cat({Tensor::full({1}, 200, DType::UInt8), Tensor::full({1}, -3, DType::Int8)}, 0);
  CHECK(u.dtype() == DType::Int16);
  CHECK(values(u) == std::vector<double>{200, -3});
  CHECK(values(tp::stack({Tensor::full({2}, 1, DType::Bool), Tensor::zeros({2}, DType::Bool)}, 0)) ==
        std::vector<double>{1, 1, 0, 0});
}

namespace {
Tensor ints(DType d, std::vector<double> v) {
  Tensor t = Tensor::empty({int64_t(v.size())}, DType::Float64);
  std::memcpy(t.raw(), v.data(), v.size() * 8);
  return t.to(d);
}
}  // namespace

TEST_CASE("binary ops promote as torch: int32 + float32 is float32, uint8 + int8 is int16, bool + bool is bool") {
  using tp::BinaryOp;
  const Tensor i = ints(DType::Int32, {1, -2, 3}), f = f32({3}, {0.5f, 0.5f, 0.5f});
  const Tensor s = tp::binary(BinaryOp::Add, i, f);
  CHECK(s.dtype() == DType::Float32);
  CHECK(values(s) == std::vector<double>{1.5, -1.5, 3.5});
  const Tensor u = tp::binary(BinaryOp::Add, ints(DType::UInt8, {200, 255}), ints(DType::Int8, {100, -1}));
  CHECK(u.dtype() == DType::Int16);
  CHECK(values(u) == std::vector<double>{300, 254});
  const Tensor b = tp::binary(BinaryOp::Add, ints(DType::Bool, {1, 1, 0}), ints(DType::Bool, {1, 0, 0}));
  CHECK(b.dtype() == DType::Bool);
  CHECK(values(b) == std::vector<double>{1, 1, 0});
  CHECK(error_of([] { tp::binary(BinaryOp::Sub, ints(DType::Bool, {1}), ints(DType::Bool, {0})); }).rfind("sub: subtraction with a bool tensor", 0) == 0);
  // Integer arithmetic wraps in the result dtype, as torch's int32 does.
  CHECK(values(tp::binary(BinaryOp::Mul, ints(DType::Int32, {65536}), ints(DType::Int32, {65536}))) == std::vector<double>{0});
  CHECK(values(tp::binary(BinaryOp::Add, ints(DType::Int8, {127}), ints(DType::Int8, {1}))) == std::vector<double>{-128});
}

TEST_CASE("integer div is true division into float32, and float64 stays float64 through every op") {
  using tp::BinaryOp;
  const Tensor q = tp::binary(BinaryOp::Div, ints(DType::Int64, {7, -7, 1}), ints(DType::Int64, {2, 2, 0}));
  CHECK(q.dtype() == DType::Float32);
  CHECK(values(q) == std::vector<double>{3.5, -3.5, INFINITY});
  const Tensor d = tp::binary(BinaryOp::Add, f64({0.1}), f64({0.2}));
  CHECK(d.dtype() == DType::Float64);
  CHECK(values(d)[0] == 0.1 + 0.2);
  // A float64 0-d tensor does not widen a float32 [n] one; it does widen an int32 one (torch's categories).
  CHECK(tp::binary(BinaryOp::Add, f32({1}, {1}), Tensor::full({}, 0.5, DType::Float64)).dtype() == DType::Float32);
  CHECK(tp::binary(BinaryOp::Add, ints(DType::Int32, {1}), Tensor::full({}, 0.5, DType::Float64)).dtype() == DType::Float64);
  CHECK(tp::binary(BinaryOp::Add, Tensor::full({}, 1, DType::Float32), Tensor::full({}, 0.5, DType::Float64)).dtype() == DType::Float64);
}

TEST_CASE("JS numbers are weak scalars: int32 + 2 is int32, int32 + 2.5 float32, float16 + 2.5 float16, bool + 2 int64") {
  using tp::BinaryOp;
  const Tensor i = ints(DType::Int32, {1, 2});
  CHECK(tp::binary_scalar(BinaryOp::Add, i, 2).dtype() == DType::Int32);
  CHECK(values(tp::binary_scalar(BinaryOp::Add, i, 2.5)) == std::vector<double>{3.5, 4.5});
  CHECK(tp::binary_scalar(BinaryOp::Add, i, 2.5).dtype() == DType::Float32);
  const Tensor h = tp::binary_scalar(BinaryOp::Add, ints(DType::Float16, {1}), 2.5);
  CHECK(h.dtype() == DType::Float16);
  CHECK(values(h) == std::vector<double>{3.5});
  CHECK(tp::binary_scalar(BinaryOp::Add, ints(DType::Bool, {1}), 2).dtype() == DType::Int64);
  CHECK(tp::scalar_binary(BinaryOp::Sub, 10, ints(DType::UInt8, {3})).dtype() == DType::UInt8);
  CHECK(values(tp::scalar_binary(BinaryOp::Sub, 10, ints(DType::UInt8, {3}))) == std::vector<double>{7});
  CHECK(values(tp::binary_scalar(BinaryOp::Div, i, 4)) == std::vector<double>{0.25, 0.5});
  CHECK(values(tp::binary_scalar(BinaryOp::Pow, ints(DType::Int64, {3, -2}), 3)) == std::vector<double>{27, -8});
  CHECK(error_of([&] { tp::binary_scalar(BinaryOp::Pow, i, -1); }) ==
        "pow: integers to negative integer powers are not allowed (as torch), got a int32 tensor to the power -1");
  CHECK(values(tp::binary_scalar(BinaryOp::Pow, i, -1.0 + 0.5)) == std::vector<double>{1, std::pow(2.0f, -0.5f)});
}

TEST_CASE("maximum and minimum keep integers exact and propagate NaN in floats; broadcasting and strides work") {
  using tp::BinaryOp;
  const Tensor big = ints(DType::Int64, {9007199254740993.0});  // 2^53 + 1 is not a double: exact through int64
  CHECK(tp::binary(BinaryOp::Maximum, big, ints(DType::Int64, {0})).data_as<int64_t>()[0] == 9007199254740992);
  CHECK(std::isnan(values(tp::binary(BinaryOp::Minimum, f64({NAN}), f64({1})))[0]));
  Tensor m = Tensor::empty({2, 3}, DType::Int32);
  for (int k = 0; k < 6; ++k) m.data_as<int32_t>()[k] = k;
  const Tensor t = tp::transpose(m, 0, 1);  // [3, 2], strided
  const Tensor r = tp::binary(BinaryOp::Add, t, ints(DType::Int64, {100, 200}));
  CHECK(r.dtype() == DType::Int64);
  CHECK(r.shape() == Shape{3, 2});
  CHECK(values(r) == std::vector<double>{100, 203, 101, 204, 102, 205});
}

TEST_CASE("unary ops: sqrt/exp/log of integers are float32, others keep the dtype; bool negation is refused") {
  using tp::UnaryOp;
  const Tensor i = ints(DType::Int32, {4, -9});
  CHECK(tp::unary(UnaryOp::Sqrt, i).dtype() == DType::Float32);
  CHECK(values(tp::unary(UnaryOp::Sqrt, ints(DType::Int64, {4, 9}))) == std::vector<double>{2, 3});
  CHECK(values(tp::unary(UnaryOp::Abs, i)) == std::vector<double>{4, 9});
  CHECK(tp::unary(UnaryOp::Neg, i).dtype() == DType::Int32);
  CHECK(values(tp::unary(UnaryOp::Sign, i)) == std::vector<double>{1, -1});
  CHECK(tp::unary(UnaryOp::Exp, f64({1})).dtype() == DType::Float64);
  CHECK(values(tp::unary(UnaryOp::Exp, f64({1})))[0] == std::exp(1.0));
  CHECK(error_of([] { tp::unary(UnaryOp::Neg, ints(DType::Bool, {1})); }).rfind("neg: negating a bool", 0) == 0);
  CHECK(values(tp::clamp(i, 0.f, NAN)) == std::vector<double>{4, 0});
  CHECK(tp::clamp(i, 0.5f, NAN).dtype() == DType::Float32);
}

TEST_CASE("reductions follow torch's result dtypes: sum of int32 is int64, mean of ints an error, amax keeps the dtype") {
  using tp::ReduceOp;
  Tensor m = Tensor::empty({2, 3}, DType::Int32);
  for (int k = 0; k < 6; ++k) m.data_as<int32_t>()[k] = k == 5 ? 2147483647 : k;
  const Tensor s = tp::reduce(ReduceOp::Sum, m, 1, false);
  CHECK(s.dtype() == DType::Int64);
  CHECK(values(s) == std::vector<double>{3, 3 + 4 + 2147483647.0});  // no int32 overflow
  CHECK(tp::reduce_all(ReduceOp::Sum, ints(DType::Bool, {1, 1, 0})).item_double() == 2);
  CHECK(error_of([&] { tp::reduce(ReduceOp::Mean, m, 0, false); }).rfind("mean: cannot infer a floating result for a int32 tensor", 0) == 0);
  const Tensor a = tp::reduce(ReduceOp::Amax, m, 0, true);
  CHECK(a.dtype() == DType::Int32);
  CHECK(a.shape() == Shape{1, 3});
  CHECK(values(a) == std::vector<double>{3, 4, 2147483647});
  CHECK(values(tp::reduce(ReduceOp::Median, ints(DType::Int8, {5, -1, 3, 2}), 0, false)) == std::vector<double>{2});
  // float64 sums in double: 1e15 + 1 - 1e15 keeps the 1 float32 would lose.
  CHECK(tp::reduce_all(ReduceOp::Sum, f64({1e15, 1, -1e15, 1})).item_double() == 2);
  CHECK(tp::reduce_dims(ReduceOp::Sum, m, {0, 1}, false).dtype() == DType::Int64);
  const Tensor c = tp::cumsum(ints(DType::UInt8, {200, 100}), 0);
  CHECK(c.dtype() == DType::Int64);
  CHECK(values(c) == std::vector<double>{200, 300});
}

TEST_CASE("matmul: float64 multiplies in double, float16 through float32, integers are refused by name") {
  Tensor a = Tensor::empty({2, 2}, DType::Float64);
  const double av[] = {1e8, 1, 1, 1};
  std::memcpy(a.raw(), av, sizeof av);
  const Tensor b = f64({1, 1e-8}).view({2, 1}, {1, 1}, 0);
  const Tensor c = tp::matmul(a, b);
  CHECK(c.dtype() == DType::Float64);
  CHECK(values(c) == std::vector<double>{1e8 + 1e-8, 1 + 1e-8});  // float32 would round both
  const Tensor h = tp::matmul(f32({1, 2}, {1, 2}).to(DType::Float16), f32({2}, {3, 4}).to(DType::Float16));
  CHECK(h.dtype() == DType::Float16);
  CHECK(values(h) == std::vector<double>{11});
  CHECK(error_of([] { tp::matmul(ints(DType::Int32, {1}), ints(DType::Int32, {1})); }) ==
        "matmul: expected a floating tensor, got int32 of shape [1]");
  CHECK(error_of([] { tp::matmul(f64({1}), f32({1}, {1})); }).rfind("matmul: operands must have the same dtype", 0) == 0);
  CHECK(tp::softmax(f64({0, 0}), 0).dtype() == DType::Float64);
}
