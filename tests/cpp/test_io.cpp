// safetensors and .npy: exact reads in every dtype, round trips, and one clear error per malformed input.
// Every file is built here, byte by byte; nothing is downloaded.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "tensorpad/io.hpp"
#include "helpers.hpp"

using namespace tp::io;
using Bytes = std::vector<uint8_t>;

namespace {

template <class T>
Bytes bytes_of(std::initializer_list<T> values) {
  Bytes out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

// A safetensors file from its JSON header text and data section.
Bytes st_file(const std::string& json, const Bytes& data = {}) {
  Bytes out(8 + json.size() + data.size());
  const uint64_t n = json.size();
  for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(n >> (8 * i));
  std::copy(json.begin(), json.end(), out.begin() + 8);
  std::copy(data.begin(), data.end(), out.begin() + 8 + long(json.size()));
  return out;
}

// A .npy file from its header dict text (padded and terminated here) and data.
Bytes npy_file(const std::string& dict, const Bytes& data = {}, int major = 1) {
  std::string h = dict;
  const size_t pre = major == 1 ? 10 : 12;
  while ((pre + h.size() + 1) % 64) h += ' ';
  h += '\n';
  Bytes out = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
  for (size_t i = 0; i < pre - 8; ++i) out.push_back(uint8_t(h.size() >> (8 * i)));
  out.insert(out.end(), h.begin(), h.end());
  out.insert(out.end(), data.begin(), data.end());
  return out;
}

// The tp::Error message f throws, or "" when it throws nothing (any other exception fails the test).
using tpt::error_of;

std::vector<float> read_st(const Bytes& file, const std::string& name) {
  const auto h = parse_safetensors(file.data(), file.size());
  const auto& e = h.at(name);
  std::vector<float> out(size_t(e.numel()));
  read_safetensors_tensor(h, e, file.data(), file.size(), out.data());
  return out;
}

std::string st_error(const Bytes& file) {
  return error_of([&] {
    const auto h = parse_safetensors(file.data(), file.size());
    for (const auto& e : h.tensors) read_st(file, e.name);
  });
}

std::string st_error(const std::string& json, const Bytes& data = {}) { return st_error(st_file(json, data)); }

std::string npy_error(const Bytes& file) { return error_of([&] { read_npy(file.data(), file.size()); }); }

// Bitwise equality, so NaN payloads and -0 count.
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * 4) == 0;
}

float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::string hex(uint32_t v) {
  char s[16];
  std::snprintf(s, sizeof s, "0x%x", unsigned(v));
  return s;
}

// A file of tests/fixtures, whole.
Bytes fixture_bytes(const std::string& relative) {
  std::ifstream in(std::string(TP_FIXTURES_DIR) + "/" + relative, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + relative);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The 16-bit code nearest to f, found by distance alone: an oracle that shares no bit trick with the
// converters. lo is f truncated toward zero to a code (so |f| lies in [value(lo), value(lo + 1)]);
// ties go to the even code. inf_bits is the code of +inf, where overflow is measured against the next
// power of two the format would reach (2^16 for half, 2^128 for bfloat16).
uint16_t nearest_code(float f, uint16_t lo, float (*decode)(uint16_t), uint16_t inf_bits, double inf_at) {
  const uint16_t sign = lo & 0x8000u, mag_lo = lo & 0x7fffu;
  const double a = std::fabs(double(f)), below = std::fabs(double(decode(mag_lo)));
  const double above = uint16_t(mag_lo + 1) == inf_bits ? inf_at : std::fabs(double(decode(uint16_t(mag_lo + 1))));
  if (a - below < above - a || (a - below == above - a && mag_lo % 2 == 0)) return uint16_t(sign | mag_lo);
  return uint16_t(sign | (mag_lo + 1));
}

// f truncated toward zero to a half code (f finite, |f| < 65536).
uint16_t half_truncated(float f) {
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  uint16_t h = 0;
  for (uint16_t step = 0x4000; step; step >>= 1)  // binary search: halves are ordered like their codes
    if (uint16_t(h + step) < 0x7c00 && half_to_float(uint16_t(h + step)) <= std::fabs(f)) h = uint16_t(h + step);
  return uint16_t(sign | h);
}

}  // namespace

// --- element types -----------------------------------------------------------------------------------

TEST_CASE("half_to_float is exact on normals, subnormals, zeros, infinities and NaN") {
  CHECK(half_to_float(0x3c00) == 1.0f);
  CHECK(half_to_float(0xc000) == -2.0f);
  CHECK(half_to_float(0x7bff) == 65504.0f);
  CHECK(half_to_float(0x0400) == std::ldexp(1.0f, -14));        // smallest normal
  CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));        // smallest subnormal
  CHECK(half_to_float(0x03ff) == std::ldexp(1023.0f, -24));     // largest subnormal
  CHECK(half_to_float(0x3555) == 0.333251953125f);
  CHECK(half_to_float(0x7c00) == INFINITY);
  CHECK(half_to_float(0xfc00) == -INFINITY);
  CHECK(std::isnan(half_to_float(0x7e00)));
  CHECK(std::signbit(half_to_float(0x8000)));
  // Every one of the 63488 finite halves survives a round trip through double arithmetic.
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff;
    if (exp == 31) continue;
    const double mag = exp == 0 ? std::ldexp(double(man), -24) : std::ldexp(1.0 + man / 1024.0, int(exp) - 15);
    const double want = (h & 0x8000) ? -mag : mag;
    if (half_to_float(uint16_t(h)) != float(want)) FAIL("half 0x" << std::hex << h);
  }
}

TEST_CASE("half_to_float agrees bit for bit with its reference on all 65536 codes") {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float a = half_to_float(uint16_t(h)), b = half_to_float_ref(uint16_t(h));
    uint32_t ab, bb;
    std::memcpy(&ab, &a, 4);
    std::memcpy(&bb, &b, 4);
    if (ab != bb) FAIL("half 0x" << std::hex << h << ": 0x" << ab << " != 0x" << bb);
  }
}

TEST_CASE("bf16_to_float keeps the top half of the float32 bits") {
  CHECK(bf16_to_float(0x3f80) == 1.0f);
  CHECK(bf16_to_float(0xc040) == -3.0f);
  CHECK(bf16_to_float(0x0001) == bits_to_float(0x00010000));
  CHECK(bf16_to_float(0x7f80) == INFINITY);
  CHECK(std::isnan(bf16_to_float(0x7fc0)));
}

TEST_CASE("float_to_half rounds to nearest even, overflows to inf, and keeps subnormals, signed zero and NaN") {
  CHECK(float_to_half(1.0f) == 0x3c00);
  CHECK(float_to_half(-2.0f) == 0xc000);
  CHECK(float_to_half(0.0f) == 0x0000);
  CHECK(float_to_half(-0.0f) == 0x8000);
  CHECK(float_to_half(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie, 1.0 is even
  CHECK(float_to_half(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie, 1 + 2^-9 is even
  CHECK(float_to_half(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)) == 0x3c01);
  CHECK(float_to_half(65504.0f) == 0x7bff);
  CHECK(float_to_half(std::nextafter(65520.0f, 0.0f)) == 0x7bff);
  CHECK(float_to_half(65520.0f) == 0x7c00);  // halfway to 2^16: ties to the even code, inf
  CHECK(float_to_half(-65520.0f) == 0xfc00);
  CHECK(float_to_half(1e10f) == 0x7c00);
  CHECK(float_to_half(-INFINITY) == 0xfc00);
  CHECK(float_to_half(std::ldexp(1.0f, -24)) == 0x0001);      // smallest subnormal
  CHECK(float_to_half(std::ldexp(1.0f, -25)) == 0x0000);      // tie with 0, which is even
  CHECK(float_to_half(-std::ldexp(1.0f, -25)) == 0x8000);     // and the sign stays
  CHECK(float_to_half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)) == 0x0001);
  CHECK(float_to_half(3 * std::ldexp(1.0f, -25)) == 0x0002);  // tie between 1 and 2 steps
  CHECK(float_to_half(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)) == 0x0400);  // up to the smallest normal
  CHECK(float_to_half(bits_to_float(0x00000001)) == 0x0000);  // float32 subnormals vanish
  CHECK(float_to_half(bits_to_float(0x80000001)) == 0x8000);
  // NaN keeps its sign and top payload bits and is made quiet, so a signaling NaN never becomes inf.
  CHECK(float_to_half(bits_to_float(0x7fc00000)) == 0x7e00);
  CHECK(float_to_half(bits_to_float(0xffc00000)) == 0xfe00);
  CHECK(float_to_half(bits_to_float(0x7f800001)) == 0x7e00);
  CHECK(float_to_half(bits_to_float(0x7fbfe000)) == 0x7fff);
}

TEST_CASE("float_to_half agrees with its reference and with the nearest half by distance, ties and a sweep") {
  // Every float32 whose low 13 bits sit at or next to a half tie (all exponents, both signs), then a
  // sweep over all bit patterns with a prime stride.
  std::vector<uint32_t> inputs;
  for (uint32_t top = 0; top < (1u << 19); ++top)
    for (uint32_t low : {0x0u, 0x1u, 0xfffu, 0x1000u, 0x1001u, 0x1fffu}) inputs.push_back((top << 13) | low);
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 4099) inputs.push_back(uint32_t(u));
  for (uint32_t u : inputs) {
    const float f = bits_to_float(u);
    const uint16_t got = float_to_half(f), ref = float_to_half_ref(f);
    if (got != ref) FAIL("float " << hex(u) << ": " << hex(got) << " != reference " << hex(ref));
    if (std::isnan(f)) continue;
    const uint16_t want = std::fabs(f) >= 65536.0f ? uint16_t((u >> 16 & 0x8000u) | 0x7c00u)
                                                    : nearest_code(f, half_truncated(f), half_to_float, 0x7c00, 65536.0);
    if (got != want) FAIL("float " << hex(u) << ": " << hex(got) << " != nearest " << hex(want));
  }
}

TEST_CASE("float_to_bf16 rounds the top 16 bits to nearest even and keeps NaN, inf, subnormals and -0") {
  CHECK(float_to_bf16(1.0f) == 0x3f80);
  CHECK(float_to_bf16(bits_to_float(0x3f808000)) == 0x3f80);  // tie, even stays
  CHECK(float_to_bf16(bits_to_float(0x3f818000)) == 0x3f82);  // tie, odd rounds up
  CHECK(float_to_bf16(bits_to_float(0x3f808001)) == 0x3f81);
  CHECK(float_to_bf16(bits_to_float(0x3f807fff)) == 0x3f80);
  CHECK(float_to_bf16(-0.0f) == 0x8000);
  CHECK(float_to_bf16(bits_to_float(0x00008000)) == 0x0000);  // subnormal tie with 0
  CHECK(float_to_bf16(bits_to_float(0x00018000)) == 0x0002);
  CHECK(float_to_bf16(bits_to_float(0x007fffff)) == 0x0080);  // up to the smallest normal
  CHECK(float_to_bf16(bits_to_float(0x7f7f7fff)) == 0x7f7f);  // the largest bfloat16
  CHECK(float_to_bf16(bits_to_float(0x7f7f8000)) == 0x7f80);  // the tie above it goes to inf
  CHECK(float_to_bf16(bits_to_float(0xff7fffff)) == 0xff80);
  CHECK(float_to_bf16(INFINITY) == 0x7f80);
  CHECK(float_to_bf16(bits_to_float(0x7fc00000)) == 0x7fc0);
  CHECK(float_to_bf16(bits_to_float(0xff800001)) == 0xffc0);  // signaling NaN: quiet, never -inf
  CHECK(float_to_bf16(bits_to_float(0x7fa50000)) == 0x7fe5);
  for (uint64_t u = 0; u < (uint64_t(1) << 32); u += 65521) {
    for (uint32_t v : {uint32_t(u), uint32_t(u) | 0x8000u, (uint32_t(u) & ~0xffffu) | 0x8000u}) {
      const float f = bits_to_float(v);
      if (std::isnan(f)) continue;
      const uint16_t want = nearest_code(f, uint16_t(v >> 16), bf16_to_float, 0x7f80, std::ldexp(1.0, 128));
      const uint16_t got = float_to_bf16(f);
      if (std::isinf(f) ? got != uint16_t(v >> 16) : got != want)
        FAIL("float " << hex(v) << ": " << hex(got) << " != nearest " << hex(want));
    }
  }
}

TEST_CASE("float_to_half and float_to_bf16 give the oracle's bits on every numpy fixture value") {
  // tests/fixtures/io/rounding.json: numpy's astype(float16), and bfloat16 rounded with integer ops there.
  const auto j = fixtures::load("io/rounding.json");
  const auto f32 = j.at("f32").get<std::vector<uint32_t>>();
  const auto f16 = j.at("f16").get<std::vector<uint16_t>>(), bf16 = j.at("bf16").get<std::vector<uint16_t>>();
  REQUIRE(f32.size() > 2000);
  REQUIRE(f16.size() == f32.size());
  REQUIRE(bf16.size() == f32.size());
  for (size_t i = 0; i < f32.size(); ++i) {
    const float f = bits_to_float(f32[i]);
    if (float_to_half(f) != f16[i]) FAIL("half of " << hex(f32[i]) << ": " << hex(float_to_half(f)) << " != " << hex(f16[i]));
    if (float_to_half_ref(f) != f16[i]) FAIL("reference half of " << hex(f32[i]) << ": " << hex(float_to_half_ref(f)));
    if (float_to_bf16(f) != bf16[i])
      FAIL("bfloat16 of " << hex(f32[i]) << ": " << hex(float_to_bf16(f)) << " != " << hex(bf16[i]));
  }
}

TEST_CASE("from_float32 stores every writable dtype little-endian at any alignment") {
  const float src[3] = {1.5f, -0.0f, 65520.0f};
  Bytes buf(1 + 3 * 8);
  from_float32(DType::F64, src, 3, buf.data() + 1);
  double d[3];
  std::memcpy(d, buf.data() + 1, sizeof d);
  CHECK(d[0] == 1.5);
  CHECK(std::signbit(d[1]));
  CHECK(d[2] == 65520.0);
  from_float32(DType::F16, src, 3, buf.data() + 1);
  CHECK(buf[1] == 0x00);
  CHECK(buf[2] == 0x3e);
  CHECK(buf[4] == 0x80);
  CHECK(buf[6] == 0x7c);
  from_float32(DType::BF16, src, 3, buf.data() + 1);
  CHECK(buf[1] == 0xc0);
  CHECK(buf[2] == 0x3f);
  from_float32(DType::F32, src, 3, buf.data() + 1);
  CHECK(std::memcmp(buf.data() + 1, src, 12) == 0);
  from_float32(DType::F16, nullptr, 0, nullptr);  // an empty tensor touches no pointer
}

TEST_CASE("the FP8 formats convert exactly, all 256 codes of each") {
  for (int b = 0; b < 256; ++b) {
    CAPTURE(b);
    const double sign = (b & 0x80) ? -1.0 : 1.0;
    // E4M3 (fn): bias 7, subnormals at exp 0, only S.1111.111 is NaN, no infinities.
    const int e4 = (b >> 3) & 15, m3 = b & 7;
    const float want4 = (e4 == 15 && m3 == 7) ? NAN
                        : float(sign * (e4 == 0 ? std::ldexp(m3 / 8.0, -6) : std::ldexp(1.0 + m3 / 8.0, e4 - 7)));
    const float got4 = fp8_e4m3_to_float(uint8_t(b));
    CHECK((std::isnan(want4) ? std::isnan(got4) : got4 == want4));
    // E5M2: bias 15, exp 31 holds inf and NaN.
    const int e5 = (b >> 2) & 31, m2 = b & 3;
    const float want5 = e5 == 31 ? (m2 ? NAN : float(sign * INFINITY))
                                 : float(sign * (e5 == 0 ? std::ldexp(m2 / 4.0, -14) : std::ldexp(1.0 + m2 / 4.0, e5 - 15)));
    const float got5 = fp8_e5m2_to_float(uint8_t(b));
    CHECK((std::isnan(want5) ? std::isnan(got5) : got5 == want5));
    // E8M0: 2^(b-127), 0xFF is NaN.
    const float got8 = fp8_e8m0_to_float(uint8_t(b));
    CHECK((b == 255 ? std::isnan(got8) : got8 == float(std::ldexp(1.0, b - 127))));
  }
  CHECK(fp8_e4m3_to_float(0x7e) == 448.0f);  // the largest E4M3 value
  CHECK(std::signbit(fp8_e4m3_to_float(0x80)));
}

TEST_CASE("to_float32 reads unaligned little-endian elements of every dtype") {
  Bytes buf(1 + 8 * 3);
  auto at1 = [&](const Bytes& b) {
    std::memcpy(buf.data() + 1, b.data(), b.size());  // misaligned on purpose
    return buf.data() + 1;
  };
  float out[3];
  to_float32(DType::F64, at1(bytes_of<double>({1.5, -1e300, 1e-50})), 3, out);
  CHECK(out[0] == 1.5f);
  CHECK(out[1] == -INFINITY);
  CHECK(out[2] == 0.0f);
  to_float32(DType::I64, at1(bytes_of<int64_t>({-5, int64_t(1) << 40, 7})), 3, out);
  CHECK(out[0] == -5.0f);
  CHECK(out[1] == std::ldexp(1.0f, 40));
  to_float32(DType::U32, at1(bytes_of<uint32_t>({4000000000u, 0, 1})), 3, out);
  CHECK(out[0] == 4e9f);
  to_float32(DType::BOOL, at1(Bytes{0, 1, 2}), 3, out);
  CHECK(out[2] == 1.0f);
}

TEST_CASE("to_float32 of zero elements touches no pointer (fuzz finding: memcpy from null)") {
  // The fuzzer found memcpy(nullptr, ..., 0) for an empty F32 tensor read into an empty vector.
  for (DType dt : {DType::F32, DType::F64, DType::BF16, DType::U8}) to_float32(dt, nullptr, 0, nullptr);
  const Bytes f = st_file("{\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}");
  CHECK(read_st(f, "e").empty());
}

TEST_CASE("a zero dim beside dims whose product overflows gives an empty tensor (fuzz finding: signed overflow)") {
  // The fuzzer found shape (9223372036850, 78540, 78547, 0): valid, 0 elements, but the size was
  // computed by multiplying in order, overflowing int64 before the 0.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036850, 78540, 78547, 0), }";
  header += std::string(size_t(63 - (10 + header.size()) % 64), ' ') + "\n";
  Bytes npy = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, uint8_t(header.size() & 255), uint8_t(header.size() >> 8)};
  npy.insert(npy.end(), header.begin(), header.end());
  const auto h = parse_npy_header(npy.data(), npy.size(), npy.size());
  CHECK(h.nbytes() == 0);
  CHECK(read_npy(npy.data(), npy.size()).values.empty());
  const Bytes f = st_file("{\"e\":{\"dtype\":\"F32\",\"shape\":[9223372036850,78540,78547,0],\"data_offsets\":[0,0]}}");
  CHECK(read_st(f, "e").empty());
}

// --- safetensors -------------------------------------------------------------------------------------

TEST_CASE("a safetensors file round trips through write_safetensors and parse_safetensors") {
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {-0.5f, 1e-30f, INFINITY};
  const Bytes file = write_safetensors({{"layer.0.w", {2, 3}, a.data()}, {"b", {3}, b.data()}, {"empty", {0, 4}, nullptr}},
                                       {{"format", "pt"}, {"note", "made in a test"}});
  CHECK((file.size() - 8 - 4 * 9) % 8 == 0);  // data section is 8-byte aligned
  const auto h = parse_safetensors(file.data(), file.size());
  REQUIRE(h.tensors.size() == 3);
  CHECK(h.tensors[0].name == "layer.0.w");  // the file's order, not sorted
  CHECK(h.tensors[0].shape == Shape{2, 3});
  CHECK(h.tensors[0].dtype == DType::F32);
  CHECK(h.tensors[2].shape == Shape{0, 4});
  CHECK(h.metadata.size() == 2);
  CHECK(h.metadata[1] == std::pair<std::string, std::string>{"note", "made in a test"});
  CHECK(same_bits(read_st(file, "layer.0.w"), a));
  CHECK(same_bits(read_st(file, "b"), b));
  CHECK(read_st(file, "empty").empty());
}

TEST_CASE("safetensors tensors of every dtype read back exactly") {
  struct Case {
    const char* dtype;
    Bytes data;
    std::vector<float> want;
  };
  const Case cases[] = {
      {"F32", bytes_of<float>({1.5f, -0.0f, 3.4e38f}), {1.5f, -0.0f, 3.4e38f}},
      {"F64", bytes_of<double>({0.1, -2.0, 1e10}), {float(0.1), -2.0f, 1e10f}},
      {"F16", bytes_of<uint16_t>({0x3c00, 0x0001, 0xfc00}), {1.0f, std::ldexp(1.0f, -24), -INFINITY}},
      {"BF16", bytes_of<uint16_t>({0x3f80, 0xc040, 0x4049}), {1.0f, -3.0f, 3.140625f}},
      {"I64", bytes_of<int64_t>({-1, 0, 1 << 20}), {-1.0f, 0.0f, 1048576.0f}},
      {"I32", bytes_of<int32_t>({-7, 65536, 2147483647}), {-7.0f, 65536.0f, 2147483648.0f}},
      {"I16", bytes_of<int16_t>({-32768, 1, 32767}), {-32768.0f, 1.0f, 32767.0f}},
      {"I8", bytes_of<int8_t>({-128, 0, 127}), {-128.0f, 0.0f, 127.0f}},
      {"U32", bytes_of<uint32_t>({0, 1, 16777216}), {0.0f, 1.0f, 16777216.0f}},
      {"U64", bytes_of<uint64_t>({0, 1, ~uint64_t(0)}), {0.0f, 1.0f, 18446744073709551616.0f}},
      {"F8_E4M3", bytes_of<uint8_t>({0x38, 0xfe, 0x01}), {1.0f, -448.0f, std::ldexp(1.0f, -9)}},
      {"F8_E5M2", bytes_of<uint8_t>({0x3c, 0xfc, 0x7b}), {1.0f, -INFINITY, 57344.0f}},
      {"F8_E8M0", bytes_of<uint8_t>({127, 0, 254}), {1.0f, std::ldexp(1.0f, -127), std::ldexp(1.0f, 127)}},
      {"U16", bytes_of<uint16_t>({0, 1, 65535}), {0.0f, 1.0f, 65535.0f}},
      {"U8", bytes_of<uint8_t>({0, 128, 255}), {0.0f, 128.0f, 255.0f}},
      {"BOOL", bytes_of<uint8_t>({0, 1, 1}), {0.0f, 1.0f, 1.0f}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.dtype);
    const std::string json = std::string("{\"t\":{\"dtype\":\"") + c.dtype + "\",\"shape\":[3],\"data_offsets\":[0," +
                             std::to_string(c.data.size()) + "]}}";
    CHECK(same_bits(read_st(st_file(json, c.data), "t"), c.want));
  }
}

TEST_CASE("a safetensors tensor is read from the header bytes and its own byte range alone") {
  const std::vector<float> a(100, 1.0f), b = {7, 8};
  const Bytes file = write_safetensors({{"a", {10, 10}, a.data()}, {"b", {2}, b.data()}});
  const uint64_t n = safetensors_header_size(file.data(), 8, file.size());  // only 8 bytes seen
  const Bytes json(file.begin() + 8, file.begin() + 8 + long(n));           // only the header seen
  const auto h = parse_safetensors_header(json.data(), json.size(), file.size());
  const auto& e = h.at("b");
  const Bytes slice(file.begin() + long(h.data_offset() + e.begin), file.begin() + long(h.data_offset() + e.end));
  std::vector<float> out(2);
  to_float32(e.dtype, slice.data(), e.numel(), out.data());
  CHECK(out == b);
}

TEST_CASE("safetensors accepts scalars, empty tensors, gaps between tensors and header padding") {
  const Bytes data = bytes_of<float>({42.0f, 0.0f, 5.0f});
  const Bytes file = st_file(
      "{\"s\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4]},"
      "\"z\":{\"dtype\":\"BF16\",\"shape\":[3,0],\"data_offsets\":[4,4]},"
      "\"g\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]}}    ",
      data);
  CHECK(read_st(file, "s") == std::vector<float>{42.0f});
  CHECK(read_st(file, "z").empty());
  CHECK(read_st(file, "g") == std::vector<float>{5.0f});
}

TEST_CASE("malformed safetensors files are refused with the problem and its values") {
  const std::string ok_entry = "\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}";
  const Bytes eight(8, 0);

  CHECK(st_error(Bytes{1, 2, 3}) == "safetensors: file is 3 bytes, too short for the 8-byte header length");
  CHECK(st_error(Bytes{}) == "safetensors: file is 0 bytes, too short for the 8-byte header length");
  {
    Bytes f = st_file("{}");
    f[0] = 200;  // the length claims far more than the file holds
    CHECK(st_error(f) ==
          "safetensors: header length 200 is beyond the file (10 bytes, so at most 2 header bytes): "
          "the file is truncated or not safetensors");
  }
  {
    Bytes prefix = {0x00, 0xc2, 0xeb, 0x0b, 0, 0, 0, 0};  // 200000000
    CHECK(error_of([&] { safetensors_header_size(prefix.data(), 8, 1ull << 40); }) ==
          "safetensors: header length 200000000 is above the 100000000-byte limit");
    Bytes huge = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(error_of([&] { safetensors_header_size(huge.data(), 8, 100); }) ==
          "safetensors: header length 18446744073709551615 is above the 100000000-byte limit");
  }
  CHECK(st_error(st_file("", {})) == "safetensors: header length 0 is too short for a JSON object");
  CHECK(st_error("{\"w\": [1, 2") .rfind("safetensors: header is not JSON (parse error", 0) == 0);
  CHECK(st_error("not json at all").rfind("safetensors: header is not JSON (", 0) == 0);
  CHECK(st_error("{\"a\":1e99999}").rfind("safetensors: header is not JSON (", 0) == 0);
  CHECK(st_error("[1, 2, 3]") == "safetensors: header is JSON but not an object (it is array)");
  CHECK(st_error("{\"w\": 5}") == "safetensors: tensor 'w' is not an object but number");
  CHECK(st_error("{\"w\":{\"dtype\":\"F7\",\"shape\":[2],\"data_offsets\":[0,8]}}", Bytes(8)) ==
        "safetensors: tensor 'w' has unknown dtype 'F7' (supported: F64, F32, F16, BF16, F8_E4M3, F8_E5M2, "
        "F8_E8M0, I64, I32, I16, I8, U64, U32, U16, U8, BOOL)");
  CHECK(st_error("{\"w\":{\"dtype\":\"F4\",\"shape\":[2],\"data_offsets\":[0,1]}}", Bytes(1))
            .rfind("safetensors: tensor 'w' has unknown dtype 'F4'", 0) == 0);
  CHECK(st_error("{\"w\":{\"shape\":[2],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has no \"dtype\" string");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has no \"shape\" array");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2]}}", eight) ==
        "safetensors: tensor 'w' has no \"data_offsets\" pair of non-negative integers");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8,9]}}", eight) ==
        "safetensors: tensor 'w' has no \"data_offsets\" pair of non-negative integers");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[-8,0]}}", eight) ==
        "safetensors: tensor 'w' has no \"data_offsets\" pair of non-negative integers");
  CHECK(st_error("{" + ok_entry + "}", Bytes(4)) ==
        "safetensors: tensor 'w' has data_offsets [0, 8] outside the data section (4 bytes)");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", eight) ==
        "safetensors: tensor 'w' has data_offsets [8, 0] that run backwards");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2,-3],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has negative dimension -3 in shape [2,-3]");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2.5],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has a shape [2.5] that is not a list of sizes");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[3],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' of shape [3] and dtype F32 needs 3 x 4 bytes but data_offsets [0, 8] hold 8");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[2147483648,2147483648],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' of shape [2147483648, 2147483648] and dtype F32 needs 4611686018427387904 x 4 "
        "bytes but data_offsets [0, 8] hold 8");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296,4],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has shape [4294967296, 4294967296, 4] with more elements than fit in 64 bits");
  CHECK(st_error("{\"w\":{\"dtype\":\"F32\",\"shape\":[18446744073709551615],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: tensor 'w' has a shape [18446744073709551615] that is not a list of sizes");
  CHECK(st_error("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                 "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                 Bytes(12)) == "safetensors: tensors 'a' [0, 8] and 'b' [4, 12] overlap");
  CHECK(st_error("{\"__metadata__\": [1]," + ok_entry + "}", eight) ==
        "safetensors: __metadata__ is not an object but array");
  CHECK(st_error(std::string(40, '[') + std::string(40, ']')) ==
        "safetensors: header nests deeper than 16 levels");
  CHECK(st_error("{" + ok_entry + "," + ok_entry + "}", eight) == "safetensors: header names 'w' twice");
  CHECK(st_error("{\"\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}", eight) ==
        "safetensors: a tensor has an empty name");
  {
    const Bytes f = st_file("{" + ok_entry + "}", eight);
    const auto h = parse_safetensors(f.data(), f.size());
    CHECK(error_of([&] { h.at("nope"); }) == "safetensors: no tensor named 'nope' (the file has 1 tensors)");
  }
}

// The WebAssembly build reads the header's JSON in JS (wasm/js/safetensors-json.js): tests/js/io.test.mjs pins
// these same messages there, so both readers give a file the same first error in the same words.
TEST_CASE("the JSON reader's messages: nlohmann's words and positions, the first problem in the file's order") {
  const Bytes eight(8, 0);
  const auto w = [](const std::string& v) { return "{\"w\":" + v + "}"; };
  const std::pair<std::string, std::string> cases[] = {
      {"{\"w\": [1, 2", "header is not JSON (parse error at line 1, column 12: syntax error while parsing array - unexpected end of input; expected ']')"},
      {"not json at all", "header is not JSON (parse error at line 1, column 2: syntax error while parsing value - invalid literal; last read: 'no')"},
      {"{\"a\":\"x\ny\"}", "header is not JSON (parse error at line 2, column 0: syntax error while parsing value - invalid string: control character U+000A (LF) must be escaped to \\u000A or \\n; last read: '\"x<U+000A>')"},
      {"{\"a\"\n:\n01}", "header is not JSON (parse error at line 3, column 2: syntax error while parsing object - unexpected number literal; expected '}')"},
      {"{\"a\":1} x", "header is not JSON (parse error at line 1, column 9: syntax error while parsing value - invalid literal; last read: '1} x'; expected end of input)"},
      {"{\"a\":1e99999}", "header is not JSON (number overflow parsing '1e99999')"},
      {"{\"a\":tru}", "header is not JSON (parse error at line 1, column 9: syntax error while parsing value - invalid literal; last read: '\"a\":tru}')"},
      {"{\"a\\ud800b\":1}", "header is not JSON (parse error at line 1, column 10: syntax error while parsing object key - invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF; last read: '\"a\\ud800b'; expected string literal)"},
      {"{\"a\\udc00\":1}", "header is not JSON (parse error at line 1, column 9: syntax error while parsing object key - invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF; last read: '\"a\\udc00'; expected string literal)"},
      {"\"text\"", "header is JSON but not an object (it is string)"},
      {w("5"), "tensor 'w' is not an object but number"},
      {w("{\"dtype\":\"F32\",\"shape\":[2,2.0,1e14,1e15,0.25e-3,1e-5,-0.0],\"data_offsets\":[0,8]}"), "tensor 'w' has a shape [2,2.0,100000000000000.0,1e+15,0.00025,1e-05,-0.0] that is not a list of sizes"},
      {w("{\"dtype\":\"F32\",\"shape\":[18446744073709551616],\"data_offsets\":[0,8]}"), "tensor 'w' has a shape [1.8446744073709552e+19] that is not a list of sizes"},
      {w("{\"dtype\":\"F32\",\"shape\":[{\"b\":1,\"a\":[null,true]}],\"data_offsets\":[0,8]}"), "tensor 'w' has a shape [{\"a\":[null,true],\"b\":1}] that is not a list of sizes"},
      {w("{\"dtype\":\"F32\",\"shape\":[-9223372036854775808],\"data_offsets\":[0,8]}"), "tensor 'w' has negative dimension -9223372036854775808 in shape [-9223372036854775808]"},
      {w("{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,9223372036854775808]}"), "tensor 'w' has no \"data_offsets\" pair of non-negative integers"},
      {w("{\"dtype\":\"F32\",\"dtype\":7,\"shape\":[2],\"data_offsets\":[0,8]}"), "tensor 'w' has no \"dtype\" string"},
      {w("{\"dtype\":\"F32\",\"shape\":{}}"), "tensor 'w' has no \"shape\" array"},
      {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]},\"b\":5}", "tensor 'a' of shape [2] and dtype F32 needs 2 x 4 bytes but data_offsets [0, 4] hold 4"},
      {"{\"a\":{\"dtype\":\"X\",\"shape\":\"no\"}}", "tensor 'a' has unknown dtype 'X' (supported: F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, I64, I32, I16, I8, U64, U32, U16, U8, BOOL)"},
      {"{\"\":5}", "a tensor has an empty name"},
      {"{\"z\":1,\"b\":1,\"z\":2,\"b\":2}", "header names 'b' twice"},
  };
  for (const auto& c : cases) {  // not a structured binding: clang 14 (em++ 3.1.6) refuses to CAPTURE one
    const std::string& json = c.first;
    CAPTURE(json);
    CHECK(st_error(json, eight) == "safetensors: " + c.second);
  }
  // Nothing past a NUL byte is read; a byte order mark is skipped.
  const Bytes nul = st_file(std::string("\xef\xbb\xbf{\"w\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}") + '\0' + " junk", {7});
  CHECK(parse_safetensors(nul.data(), nul.size()).tensors.at(0).name == "w");
  // Metadata keys in byte order, the last value of a key kept, other values as their JSON text.
  const Bytes meta = st_file("{\"__metadata__\":{\"n\":3,\"b\":\"x\",\"f\":[1.5,1e300],\"b\":\"y\"}}");
  const auto h = parse_safetensors(meta.data(), meta.size());
  CHECK(h.metadata == std::vector<std::pair<std::string, std::string>>{{"b", "y"}, {"f", "[1.5,1e+300]"}, {"n", "3"}});
}

TEST_CASE("a 20 MB safetensors header of 200k tensors parses whole, in the file's order") {
  // Regression: nlohmann's ordered_json and its callback parser are both quadratic in the number of keys,
  // which made a 10k-tensor header take seconds. Names run backwards so the order is not the sorted one.
  // (Its speed is measured by tests/bench/io.mjs, not asserted here.)
  const int n = 200000;
  std::string json = "{\"__metadata__\":{\"format\":\"pt\"}";
  for (int i = 0; i < n; ++i)
    json += ",\"layers." + std::to_string(n - i) + ".weight\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[" +
            std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  json += "}";
  Bytes data(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) data[size_t(i)] = uint8_t(i % 251);
  const Bytes f = st_file(json, data);
  const auto h = parse_safetensors(f.data(), f.size());
  REQUIRE(h.tensors.size() == size_t(n));
  CHECK(h.tensors.front().name == "layers.200000.weight");
  CHECK(h.tensors.back().name == "layers.1.weight");
  CHECK(h.tensors[12345].name == "layers." + std::to_string(n - 12345) + ".weight");
  CHECK(h.tensors[12345].begin == 12345);
  REQUIRE(h.metadata.size() == 1);
  CHECK(h.metadata[0].second == "pt");
  float v = 0;
  read_safetensors_tensor(h, h.at("layers.1.weight"), f.data(), f.size(), &v);
  CHECK(v == float((n - 1) % 251));
}

TEST_CASE("safetensors names are UTF-8: a header that is not is refused with the offending byte and offset") {
  const std::string tail = "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}}";
  CHECK(st_error("{\"a\xff" + tail) == "safetensors: header is not valid UTF-8 (byte 0xff at offset 3)");
  CHECK(st_error("{\"a\xed\xa0\x80" + tail) == "safetensors: header is not valid UTF-8 (byte 0xed at offset 3)");  // U+D800
  CHECK(st_error("{\"a\xc0\xaf" + tail) == "safetensors: header is not valid UTF-8 (byte 0xc0 at offset 3)");  // overlong '/'
  CHECK(st_error("{\"a\xf4\x90\x80\x80" + tail) == "safetensors: header is not valid UTF-8 (byte 0xf4 at offset 3)");  // > U+10FFFF
  CHECK(st_error("{\"ab\xe6\x9d" + tail) == "safetensors: header is not valid UTF-8 (byte 0xe6 at offset 4)");  // truncated
  // A lone surrogate written as a JSON escape is refused by the JSON parser, naming the rule.
  CHECK(st_error("{\"a\\ud800b" + tail).find("surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF") !=
        std::string::npos);
  CHECK(st_error("{\"a\\udc00" + tail).find("surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF") != std::string::npos);
  // Every valid form reads back as written: 2-, 3- and 4-byte characters, and an escaped pair.
  const Bytes f = st_file("{\"\xc3\xa9\xe6\x9d\x83\xf0\x9f\x98\x80\\ud83d\\ude00" + tail);
  CHECK(parse_safetensors(f.data(), f.size()).tensors.at(0).name == "\xc3\xa9\xe6\x9d\x83\xf0\x9f\x98\x80\xf0\x9f\x98\x80");
}

TEST_CASE("a long name is cut between UTF-8 characters in messages, so the message stays UTF-8") {
  std::string name = "a";
  for (int i = 0; i < 40; ++i) name += "\xe6\x9d\x83";  // byte 80 falls inside a 3-byte character
  const std::string msg = st_error("{\"" + name + "\": 5}");
  CHECK(msg == "safetensors: tensor '" + name.substr(0, 79) + "...' is not an object but number");
}

TEST_CASE("safetensors metadata values that are not strings are kept as their JSON text") {
  const Bytes f = st_file("{\"__metadata__\":{\"a\":\"x\",\"n\":3}}");
  const auto h = parse_safetensors(f.data(), f.size());
  CHECK(h.tensors.empty());
  REQUIRE(h.metadata.size() == 2);
  CHECK(h.metadata[1].second == "3");
}

TEST_CASE("F16 and BF16 tensors written by write_safetensors read back as the rounded values, bit for bit") {
  const auto j = fixtures::load("io/rounding.json");
  const auto f32 = j.at("f32").get<std::vector<uint32_t>>();
  const auto f16 = j.at("f16").get<std::vector<uint16_t>>(), bf16 = j.at("bf16").get<std::vector<uint16_t>>();
  std::vector<float> x(f32.size()), want16(f32.size()), want_bf(f32.size());
  for (size_t i = 0; i < f32.size(); ++i) {
    x[i] = bits_to_float(f32[i]);
    want16[i] = half_to_float(f16[i]);
    want_bf[i] = bf16_to_float(bf16[i]);
  }
  const int64_t n = int64_t(x.size());
  const Bytes file = write_safetensors({{"h", {n}, x.data(), DType::F16},
                                        {"odd", {3}, x.data(), DType::BF16},  // 6 bytes: the next starts unaligned
                                        {"b", {2, n / 2}, x.data(), DType::BF16},
                                        {"f", {n}, x.data(), DType::F32}});
  const auto h = parse_safetensors(file.data(), file.size());
  CHECK(h.at("h").dtype == DType::F16);
  CHECK(h.at("h").nbytes() == uint64_t(2 * n));
  CHECK(h.at("b").dtype == DType::BF16);
  CHECK(h.at("b").begin == uint64_t(2 * n + 6));
  CHECK(same_bits(read_st(file, "h"), want16));
  CHECK(same_bits(read_st(file, "odd"), std::vector<float>(want_bf.begin(), want_bf.begin() + 3)));
  CHECK(same_bits(read_st(file, "b"), std::vector<float>(want_bf.begin(), want_bf.begin() + (n / 2) * 2)));
  CHECK(same_bits(read_st(file, "f"), x));
  // The stored bytes are the oracle's codes themselves.
  CHECK(std::memcmp(file.data() + h.data_offset(), f16.data(), size_t(2 * n)) == 0);
}

TEST_CASE("write_npy writes the bytes numpy.save writes for float16, float32 and float64 arrays") {
  const auto j = fixtures::load("io/rounding.json");
  const auto f32 = j.at("f32").get<std::vector<uint32_t>>();
  std::vector<float> x(f32.size());
  std::memcpy(x.data(), f32.data(), x.size() * 4);
  const Shape s = {int64_t(x.size())};
  CHECK(write_npy(s, x.data(), DType::F16) == fixture_bytes("io/rounding_f2.npy"));
  CHECK(write_npy(s, x.data()) == fixture_bytes("io/rounding_f4.npy"));
  const float small[4] = {1.5f, -0.0f, INFINITY, 1e-45f};
  CHECK(write_npy({4}, small, DType::F64) == fixture_bytes("io/small_f8.npy"));
  // numpy pads a header that would end on a 64-byte boundary with 64 more spaces.
  CHECK(write_npy(j.at("header_boundary_shape").get<Shape>(), nullptr) == fixture_bytes("io/header_boundary_f4.npy"));
  // And what it writes reads back as the rounded values.
  const Bytes f = write_npy({2, 3}, x.data(), DType::F16);
  const auto a = read_npy(f.data(), f.size());
  std::vector<float> want(6);
  for (size_t i = 0; i < 6; ++i) want[i] = half_to_float(float_to_half(x[i]));
  CHECK(a.shape == Shape{2, 3});
  CHECK(same_bits(a.values, want));
}

TEST_CASE("the writers refuse dtypes their formats cannot hold, naming the tensor and the dtype") {
  const float x = 1.0f;
  CHECK(error_of([&] { write_safetensors({{"w", {1}, &x, DType::F64}}); }) ==
        "safetensors: cannot write tensor 'w' as F64 (writable: F32, F16, BF16)");
  CHECK(error_of([&] { write_safetensors({{"a", {1}, &x}, {"q", {1}, &x, DType::I8}}); }) ==
        "safetensors: cannot write tensor 'q' as I8 (writable: F32, F16, BF16)");
  CHECK(error_of([&] { write_npy({1}, &x, DType::BF16); }) ==
        "npy: cannot write dtype BF16: numpy has no bfloat16 (write F32 or F16, or use safetensors)");
  CHECK(error_of([&] { write_npy({1}, &x, DType::U8); }) == "npy: cannot write dtype U8 from float32 values (writable: F32, F16, F64)");
}

TEST_CASE("write_safetensors refuses names it cannot write") {
  const float x = 1.0f;
  CHECK(error_of([&] { write_safetensors({{"a", {1}, &x}, {"a", {1}, &x}}); }) ==
        "safetensors: cannot write two tensors named 'a'");
  CHECK(error_of([&] { write_safetensors({{"__metadata__", {1}, &x}}); }) ==
        "safetensors: cannot write a tensor named __metadata__ (reserved)");
  CHECK(error_of([&] { write_safetensors({{"a", {-1}, &x}}); }) ==
        "safetensors: tensor 'a' has negative dimension -1 in shape [-1]");
  // What embind's conversion of a lone surrogate produced (it took the next character as the pair's
  // other half) or any other bytes that are not UTF-8: refused, not written into the header.
  CHECK(error_of([&] { write_safetensors({{"w\xed\xa0\x80", {1}, &x}}); }) ==
        "safetensors: cannot write a tensor name that is not valid UTF-8 (byte 0xed at offset 1, after 'w')");
  CHECK(error_of([&] { write_safetensors({{"\xff", {1}, &x}}); }) ==
        "safetensors: cannot write a tensor name that is not valid UTF-8 (byte 0xff at offset 0)");
  CHECK(error_of([&] { write_safetensors({{"w", {1}, &x}}, {{"k\x80", "v"}}); }) ==
        "safetensors: cannot write a metadata key that is not valid UTF-8 (byte 0x80 at offset 1, after 'k')");
  CHECK(error_of([&] { write_safetensors({{"w", {1}, &x}}, {{"k", "v\xc3"}}); }) ==
        "safetensors: cannot write a metadata value that is not valid UTF-8 (byte 0xc3 at offset 1, after 'v')");
}

// --- .npy ----------------------------------------------------------------------------------------------

TEST_CASE("a .npy file round trips through write_npy and read_npy in every rank") {
  const std::vector<float> v = {1, -2, 3.5f, NAN, -0.0f, 6};
  for (const Shape& s : {Shape{}, Shape{6}, Shape{2, 3}, Shape{1, 2, 3}, Shape{2, 0}}) {
    CAPTURE(tp::shape_str(s));
    const Bytes f = write_npy(s, v.data());
    CHECK((f.size() - (f.size() - 64 * ((f.size() + 63) / 64 - 1))) % 64 == 0);
    const auto a = read_npy(f.data(), f.size());
    CHECK(a.shape == s);
    int64_t n = 1;
    for (auto d : s) n *= d;
    CHECK(same_bits(a.values, std::vector<float>(v.begin(), v.begin() + n)));
  }
}

TEST_CASE("write_npy writes the header numpy writes") {
  const float x[6] = {};
  const Bytes f = write_npy({2, 3}, x);
  const std::string want = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  CHECK(std::string(f.begin() + 10, f.begin() + 10 + long(want.size())) == want);
  CHECK(f.size() == 128 + 24);  // numpy 1.24 pads this header to 128 bytes too
  CHECK(f[8] == 118);
  CHECK(f[127] == '\n');
  const Bytes one = write_npy({3}, x);
  const std::string want1 = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
  CHECK(std::string(one.begin() + 10, one.begin() + 10 + long(want1.size())) == want1);
}

TEST_CASE(".npy arrays of every dtype read back exactly") {
  struct Case {
    const char* descr;
    Bytes data;
    std::vector<float> want;
  };
  const Case cases[] = {
      {"<f4", bytes_of<float>({1.5f, -0.0f, 1e-45f}), {1.5f, -0.0f, 1e-45f}},
      {"<f8", bytes_of<double>({0.1, -2.0, 1e10}), {float(0.1), -2.0f, 1e10f}},
      {"<f2", bytes_of<uint16_t>({0x3c00, 0x8001, 0x7bff}), {1.0f, -std::ldexp(1.0f, -24), 65504.0f}},
      {"|i1", bytes_of<int8_t>({-128, 0, 127}), {-128.0f, 0.0f, 127.0f}},
      {"|u1", bytes_of<uint8_t>({0, 128, 255}), {0.0f, 128.0f, 255.0f}},
      {"<i4", bytes_of<int32_t>({-7, 65536, 16777217}), {-7.0f, 65536.0f, 16777216.0f}},
      {"<i2", bytes_of<int16_t>({-32768, 1, 32767}), {-32768.0f, 1.0f, 32767.0f}},
      {"<i8", bytes_of<int64_t>({-1, 0, 3}), {-1.0f, 0.0f, 3.0f}},
      {"<u2", bytes_of<uint16_t>({0, 1, 65535}), {0.0f, 1.0f, 65535.0f}},
      {"<u4", bytes_of<uint32_t>({0, 1, 7}), {0.0f, 1.0f, 7.0f}},
      {"|b1", bytes_of<uint8_t>({1, 0, 1}), {1.0f, 0.0f, 1.0f}},
      {"<u8", bytes_of<uint64_t>({1, 2, uint64_t(1) << 63}), {1.0f, 2.0f, 9223372036854775808.0f}},
      {"=f4", bytes_of<float>({1, 2, 3}), {1.0f, 2.0f, 3.0f}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.descr);
    const Bytes f = npy_file(std::string("{'descr': '") + c.descr + "', 'fortran_order': False, 'shape': (3,), }", c.data);
    const auto a = read_npy(f.data(), f.size());
    CHECK(a.shape == Shape{3});
    CHECK(same_bits(a.values, c.want));
  }
}

TEST_CASE(".npy versions 2 and 3 and header variations numpy accepts are read") {
  const Bytes data = bytes_of<float>({1, 2});
  for (int major : {2, 3}) {
    const Bytes f = npy_file("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", data, major);
    CHECK(read_npy(f.data(), f.size()).values == std::vector<float>{1, 2});
  }
  // Key order, double quotes, no trailing comma, Python 2 longs.
  const Bytes f = npy_file("{\"shape\": (1L, 2L), \"fortran_order\": False, \"descr\": \"<f4\"}", data);
  const auto a = read_npy(f.data(), f.size());
  CHECK(a.shape == Shape{1, 2});
}

TEST_CASE("Fortran-ordered .npy arrays are converted to C order") {
  // numpy: np.asfortranarray(np.arange(6).reshape(2, 3)) stores 0 3 1 4 2 5.
  const Bytes f2 = npy_file("{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }",
                            bytes_of<double>({0, 3, 1, 4, 2, 5}));
  CHECK(read_npy(f2.data(), f2.size()).values == std::vector<float>{0, 1, 2, 3, 4, 5});
  // 3-d: element (i, j, k) of shape (2, 3, 4) sits at i + 2*j + 6*k in Fortran order.
  std::vector<float> fort(24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) fort[i + 2 * j + 6 * k] = float(100 * i + 10 * j + k);
  Bytes data(96);
  std::memcpy(data.data(), fort.data(), 96);
  const Bytes f3 = npy_file("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 4), }", data);
  const auto a = read_npy(f3.data(), f3.size());
  for (int i = 0, n = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k, ++n) CHECK(a.values[size_t(n)] == float(100 * i + 10 * j + k));
}

TEST_CASE("malformed .npy files are refused with the problem and its values") {
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  const Bytes eight(8, 0);
  auto with = [&](const std::string& d, const Bytes& data) { return npy_error(npy_file(d, data)); };

  CHECK(npy_error(Bytes{0x93, 'N', 'U'}) == "npy: file is 3 bytes, too short for the .npy preamble");
  CHECK(npy_error(Bytes{'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0}) == "npy: not a .npy file (it does not start with \\x93NUMPY)");
  {
    Bytes f = npy_file(dict, eight);
    f[6] = 4;
    CHECK(npy_error(f) == "npy: unsupported format version 4.0 (supported: 1.0, 2.0, 3.0)");
    Bytes g = npy_file(dict, eight, 2);
    g.resize(10);
    CHECK(npy_error(g) == "npy: file is 10 bytes, too short for the version 2 header length");
  }
  {
    Bytes f = npy_file(dict, eight);
    f.resize(40);
    CHECK(npy_error(f) == "npy: header length 118 is beyond the file (40 bytes): the file is truncated");
  }
  {
    Bytes f = npy_file(dict, {}, 2);
    f[8] = 0; f[9] = 0; f[10] = 0; f[11] = 0x10;  // 256 MiB
    CHECK(npy_error(f) == "npy: header length 268435456 is above the 100000000-byte limit");
  }
  CHECK(with(dict, Bytes(7)) == "npy: shape [2] of '<f4' needs 2 x 4 bytes but the file has 7 after the header (truncated)");
  CHECK(with(dict, Bytes(9)) == "npy: shape [2] of '<f4' needs 2 x 4 bytes but the file has 9 after the header");
  CHECK(with("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", eight) ==
        "npy: big-endian dtype '>f4' is not supported; save with arr.astype('<f4')");
  CHECK(with("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", eight) ==
        "npy: unsupported dtype '<c8' (supported: f8, f4, f2, i8, i4, i2, i1, u8, u4, u2, u1, b1)");
  CHECK(with("{'descr': '<U10', 'fortran_order': False, 'shape': (1,), }", Bytes(40))
            .rfind("npy: unsupported dtype '<U10'", 0) == 0);
  CHECK(with("{'descr': 'f4', 'fortran_order': False, 'shape': (2,), }", eight) == "npy: unknown dtype 'f4'");
  CHECK(with("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", eight) ==
        "npy: structured dtypes (a list as 'descr') are not supported; save a plain numeric array");
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -1), }", eight)
            .rfind("npy: 'shape' has a negative dimension", 0) == 0);
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", eight)
            .rfind("npy: header is not a numpy header dict: dimension does not fit in 64 bits", 0) == 0);
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4), }", eight) ==
        "npy: array has shape [4294967296, 4294967296, 4] with more elements than fit in 64 bits");
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': (2147483648, 2147483648), }", eight) ==
        "npy: shape [2147483648, 2147483648] of '<f4' needs 4611686018427387904 x 4 bytes but the file has 8 "
        "after the header (truncated)");
  CHECK(with("{'descr': '<f4', 'shape': (2,), }", eight) == "npy: header lacks 'fortran_order'");
  CHECK(with("{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }", eight)
            .rfind("npy: header is not a numpy header dict: expected a string, True, False or a tuple", 0) == 0);
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': [2], }", eight)
            .rfind("npy: header is not a numpy header dict", 0) == 0);
  CHECK(with("{'descr': 1}", eight).rfind("npy: header is not a numpy header dict", 0) == 0);
  CHECK(with("not a dict", eight).rfind("npy: header is not a numpy header dict: expected '{'", 0) == 0);
  CHECK(with("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } trailing", eight)
            .rfind("npy: header is not a numpy header dict: unexpected text after the dict", 0) == 0);
  CHECK(with("{'descr': '<f4", eight).rfind("npy: header is not a numpy header dict: unterminated string", 0) == 0);
}
