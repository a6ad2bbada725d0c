// Tensor files in their stored dtypes (tensorpad/io_tensor.hpp): numpy-written fixtures of every dtype
// (tests/fixtures/make_io_dtype_fixtures.py) load with exact values, and saving writes numpy's bytes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "helpers.hpp"
#include "tensorpad/io_tensor.hpp"
#include "tensorpad/ops.hpp"

using tpt::error_of;
namespace io = tp::io;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes dtype_fixture(const std::string& name) {
  std::ifstream in(std::string(TP_FIXTURES_DIR) + "/io/dtypes/" + name, std::ios::binary);
  REQUIRE(in);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// The expected value of a fixture element as a double (exact: integers stay within 2^53).
double want_of(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (v.is_string()) return fixtures::number(v);
  return v.get<double>();
}

// "" when t has the dtype, shape and exact values (NaN for NaN, the sign of zero) of the fixture entry j.
std::string differs(const tp::Tensor& t, const nlohmann::json& j) {
  if (tp::dtype_name(t.dtype()) != j.at("dtype").get<std::string>())
    return std::string("dtype ") + tp::dtype_name(t.dtype()) + ", want " + j.at("dtype").get<std::string>();
  if (t.shape() != j.at("shape").get<tp::Shape>()) return "shape " + tp::shape_str(t.shape());
  const auto& values = j.at("values");
  if (int64_t(values.size()) != t.numel()) return "numel " + std::to_string(t.numel());
  const tp::Tensor c = t.contiguous();
  for (int64_t i = 0; i < c.numel(); ++i) {
    const double got = tp::to_double(c.dtype(), static_cast<const uint8_t*>(c.raw()) + i * tp::itemsize(c.dtype()));
    const double want = want_of(values[size_t(i)]);
    const bool same = std::isnan(want) ? std::isnan(got) : got == want && std::signbit(got) == std::signbit(want);
    if (!same) return "element " + std::to_string(i) + ": " + std::to_string(got) + ", want " + values[size_t(i)].dump();
  }
  return "";
}

}  // namespace

TEST_CASE("every .npy numpy wrote loads in its stored dtype with numpy's exact values, Fortran order as C order") {
  const auto expect = fixtures::load("io/dtypes/expect.json").at("npy");
  REQUIRE(expect.size() >= 15);
  for (const auto& item : expect.items()) {
    // Named copies, not structured bindings: C++17 lambdas (CAPTURE) cannot capture those.
    const std::string file = item.key();
    const auto& j = item.value();
    CAPTURE(file);
    const Bytes f = dtype_fixture(file);
    CHECK(differs(io::read_npy_tensor(f.data(), f.size()), j) == "");
  }
}

TEST_CASE("write_npy_tensor writes the bytes numpy.save wrote, for every dtype the core holds") {
  const auto expect = fixtures::load("io/dtypes/expect.json").at("npy");
  int written = 0;
  for (const auto& item : expect.items()) {
    const std::string file = item.key();
    CAPTURE(file);
    const Bytes f = dtype_fixture(file);
    const tp::Tensor t = io::read_npy_tensor(f.data(), f.size());
    const io::NpyHeader h = io::parse_npy_header(f.data(), f.size(), f.size());
    // u2/u4 load widened (their own bytes are not a tensor dtype); Fortran files are written in C order.
    if (io::stored_dtype(t.dtype()) != h.dtype || h.fortran_order) continue;
    CHECK(io::write_npy_tensor(t, h.dtype) == f);
    ++written;
  }
  CHECK(written == 11);  // f4 f8 f2 i1 i2 i4 i8 u1 b1, the 0-d and the empty one
}

TEST_CASE("the safetensors fixture loads every tensor in its stored dtype, at unaligned offsets too") {
  const auto expect = fixtures::load("io/dtypes/expect.json").at("safetensors");
  const Bytes f = dtype_fixture(expect.at("file").get<std::string>());
  const io::SafetensorsHeader h = io::parse_safetensors(f.data(), f.size());
  REQUIRE(h.tensors.size() == expect.at("tensors").size());
  CHECK(h.tensors[1].begin % 4 != 0);  // F32 after a 3-byte BOOL
  for (const auto& e : h.tensors) {
    CAPTURE(e.name);
    const auto& j = expect.at("tensors").at(e.name);
    CHECK(io::dtype_name(e.dtype) == j.at("stored").get<std::string>());
    CHECK(differs(io::read_safetensors_tensor(h, e, f.data(), f.size(), io::load_dtype(e.dtype)), j) == "");
  }
}

TEST_CASE("write_safetensors_tensors writes every tensor in its dtype and reads back the same bytes") {
  const Bytes f = dtype_fixture("dtypes.safetensors");
  const io::SafetensorsHeader h = io::parse_safetensors(f.data(), f.size());
  std::vector<io::NamedTensor> named;
  for (const auto& e : h.tensors) {
    const tp::Tensor t = io::read_safetensors_tensor(h, e, f.data(), f.size(), io::load_dtype(e.dtype));
    named.push_back({e.name, t, io::stored_dtype(t.dtype())});
  }
  named.push_back({"strided", tp::transpose(named[1].tensor, 0, 1), io::DType::F32});  // written compact
  const Bytes out = io::write_safetensors_tensors(named);
  const io::SafetensorsHeader back = io::parse_safetensors(out.data(), out.size());
  REQUIRE(back.tensors.size() == named.size());
  for (size_t i = 0; i < named.size(); ++i) {
    CAPTURE(named[i].name);
    const auto& e = back.tensors[i];
    CHECK(e.name == named[i].name);
    CHECK(e.dtype == named[i].as);
    const tp::Tensor got = io::read_safetensors_tensor(back, e, out.data(), out.size(), io::load_dtype(e.dtype));
    const tp::Tensor want = named[i].tensor.contiguous();
    REQUIRE(got.dtype() == want.dtype());
    REQUIRE(got.shape() == want.shape());
    CHECK(std::memcmp(got.raw(), want.raw(), size_t(got.numel() * tp::itemsize(got.dtype()))) == 0);
  }
}

TEST_CASE("a tensor read as another dtype is the stored one converted by Tensor::to") {
  const Bytes f = dtype_fixture("dtypes.safetensors");
  const io::SafetensorsHeader h = io::parse_safetensors(f.data(), f.size());
  for (const auto& e : h.tensors) {
    const tp::Tensor own = io::read_safetensors_tensor(h, e, f.data(), f.size(), io::load_dtype(e.dtype));
    for (int d = 0; d < tp::kNumDTypes; ++d) {
      CAPTURE(e.name);
      CAPTURE(tp::dtype_name(tp::DType(d)));
      const tp::Tensor got = io::read_safetensors_tensor(h, e, f.data(), f.size(), tp::DType(d));
      const tp::Tensor want = own.to(tp::DType(d));
      REQUIRE(got.dtype() == tp::DType(d));
      CHECK(std::memcmp(got.raw(), want.raw(), size_t(got.numel() * tp::itemsize(got.dtype()))) == 0);
    }
  }
}

TEST_CASE("stored BOOL bytes other than 0 are true, and U16/U32 widen exactly") {
  const uint8_t flags[] = {0, 1, 2, 255};
  uint8_t b[4];
  io::decode_elements(io::DType::BOOL, flags, 4, tp::DType::Bool, b);
  CHECK(std::vector<int>(b, b + 4) == std::vector<int>{0, 1, 1, 1});
  int32_t i[4];
  io::decode_elements(io::DType::BOOL, flags, 4, tp::DType::Int32, i);
  CHECK(std::vector<int32_t>(i, i + 4) == std::vector<int32_t>{0, 1, 1, 1});
  const uint32_t big[] = {0, 4294967295u};
  int64_t w[2];
  io::decode_elements(io::DType::U32, big, 2, tp::DType::Int64, w);
  CHECK(w[1] == 4294967295LL);
  CHECK(io::load_dtype(io::DType::U16) == tp::DType::Int32);
  CHECK(io::load_dtype(io::DType::F8_E4M3) == tp::DType::Float32);
  CHECK(io::load_dtype(io::DType::U64) == tp::DType::Float32);
  for (int d = 0; d < tp::kNumDTypes; ++d) CHECK(io::load_dtype(io::stored_dtype(tp::DType(d))) == tp::DType(d));
}

TEST_CASE("writers refuse the dtypes a format has no name for, naming the format and the dtype") {
  const tp::Tensor bf = tp::Tensor::zeros({2}, tp::DType::BFloat16);
  CHECK(error_of([&] { io::write_npy_tensor(bf, io::DType::BF16); }) ==
        "npy: cannot write dtype BF16: numpy has no bfloat16 (write F32 or F16, or use safetensors)");
  CHECK(error_of([&] { io::write_npy_tensor(bf, io::DType::F8_E4M3); }) ==
        "npy: cannot write an array as F8_E4M3 (writable: F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL)");
  CHECK(error_of([&] { io::write_safetensors_tensors({{"w", bf, io::DType::U16}}); }) ==
        "safetensors: cannot write tensor 'w' as U16 (writable: F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL)");
}

TEST_CASE("malformed files name the format and the dtype tag: unknown dtypes, truncated data") {
  Bytes f = dtype_fixture("i2.npy");
  Bytes cut(f.begin(), f.end() - 3);
  CHECK(error_of([&] { io::read_npy_tensor(cut.data(), cut.size()); }) ==
        "npy: shape [3, 2] of '<i2' needs 6 x 2 bytes but the file has 9 after the header (truncated)");
  std::string text(f.begin(), f.end());
  text.replace(text.find("<i2"), 3, "<c8");
  Bytes complex(text.begin(), text.end());
  CHECK(error_of([&] { io::read_npy_tensor(complex.data(), complex.size()); }) ==
        "npy: unsupported dtype '<c8' (supported: f8, f4, f2, i8, i4, i2, i1, u8, u4, u2, u1, b1)");
  const std::string json = R"({"w":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})";
  Bytes st(8 + json.size() + 8, 0);
  st[0] = uint8_t(json.size());
  std::memcpy(st.data() + 8, json.data(), json.size());
  CHECK(error_of([&] { io::parse_safetensors(st.data(), st.size()); }).rfind(
            "safetensors: tensor 'w' has unknown dtype 'C64' (supported: F64, F32, F16, BF16,", 0) == 0);
}
