// Stored element types of tensor files, their conversion to float32 and the writers' rounding back.
#include <cmath>
#include <cstring>
#include <limits>

#include "tensorpad/io.hpp"
#include "for_size.hpp"

namespace tp::io {

namespace {

struct DTypeInfo {
  DType dtype;
  const char* name;
  size_t size;
};

// One table drives names, sizes and the list in error messages.
constexpr DTypeInfo kDTypes[] = {
    {DType::F64, "F64", 8},         {DType::F32, "F32", 4},         {DType::F16, "F16", 2},
    {DType::BF16, "BF16", 2},       {DType::F8_E4M3, "F8_E4M3", 1}, {DType::F8_E5M2, "F8_E5M2", 1},
    {DType::F8_E8M0, "F8_E8M0", 1}, {DType::I64, "I64", 8},         {DType::I32, "I32", 4},
    {DType::I16, "I16", 2},         {DType::I8, "I8", 1},           {DType::U64, "U64", 8},
    {DType::U32, "U32", 4},         {DType::U16, "U16", 2},         {DType::U8, "U8", 1},
    {DType::BOOL, "BOOL", 1},
};

const DTypeInfo& info(DType dt) {
  for (const auto& d : kDTypes)
    if (d.dtype == dt) return d;
  TP_ASSERT(false);
  return kDTypes[0];
}

// Loads element i of type T from possibly unaligned little-endian bytes (every target we build is LE).
template <class T>
T load(const uint8_t* p, int64_t i) {
  T v;
  std::memcpy(&v, p + i * int64_t(sizeof(T)), sizeof(T));
  return v;
}

// Stores v as element i of possibly unaligned little-endian bytes.
template <class T>
void store(uint8_t* p, int64_t i, T v) {
  std::memcpy(p + i * int64_t(sizeof(T)), &v, sizeof(T));
}

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

template <class T>
void convert(const uint8_t* src, int64_t n, float* dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(load<T>(src, i));
}

}  // namespace

const char* dtype_name(DType dt) { return info(dt).name; }
size_t dtype_size(DType dt) { return info(dt).size; }

bool dtype_from_name(const std::string& name, DType* out) {
  for (const auto& d : kDTypes)
    if (name == d.name) {
      *out = d.dtype;
      return true;
    }
  return false;
}

std::string supported_dtypes() {
  std::string s;
  for (const auto& d : kDTypes) s += std::string(s.empty() ? "" : ", ") + d.name;
  return s;
}

float half_to_float_ref(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t man = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    // Zero or subnormal: man * 2^-24 is exactly representable as a normal float32.
    float mag = std::ldexp(float(man), -24);
    std::memcpy(&bits, &mag, 4);
    bits |= sign;
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (man << 13);  // inf, or NaN keeping its payload
  } else {
    bits = sign | ((exp + 112u) << 23) | (man << 13);  // rebias 15 -> 127
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float half_to_float(uint16_t h) {
  // Move exponent and mantissa into float32 position and rebias the exponent by adding 112 << 23.
  // Infinities and NaN get another 112 so their exponent is all ones. Zeros and subnormals are read
  // as 2^-14 * (1 + m/1024) and the 2^-14 subtracted again, exactly (Sterbenz), leaving m * 2^-24.
  uint32_t o = uint32_t(h & 0x7fffu) << 13;
  const uint32_t exp = o & 0x0f800000u;
  o += 112u << 23;
  if (exp == 0x0f800000u) {
    o += 112u << 23;
  } else if (exp == 0) {
    o += 1u << 23;
    float f;
    std::memcpy(&f, &o, 4);
    f -= 6.103515625e-05f;  // 2^-14
    std::memcpy(&o, &f, 4);
  }
  o |= uint32_t(h & 0x8000u) << 16;
  float f;
  std::memcpy(&f, &o, 4);
  return f;
}

uint16_t float_to_half(float f) {
  // f is a float32; the result is IEEE half bits, rounded to nearest even (F. Giesen's float_to_half_fast3_rtne,
  // with NaN kept instead of made canonical).
  uint32_t u = float_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000u;
  u &= 0x7fffffffu;
  uint32_t h;
  if (u >= 0x47800000u) {
    // |f| >= 2^16, inf or NaN. NaN keeps its top 10 payload bits; the quiet bit keeps it from being inf.
    h = u > 0x7f800000u ? 0x7e00u | ((u >> 13) & 0x3ffu) : 0x7c00u;
  } else if (u < 0x38800000u) {
    // |f| < 2^-14, a half subnormal or zero. In 0.5 + |f| the float32 ulp is 2^-24, the half subnormal
    // step, so the float addition itself rounds to nearest even; the bits above 0.5's are the result
    // (1024 when it rounds up to the smallest normal, whose bits are 0x0400 too).
    h = float_bits(bits_float(u) + 0.5f) - float_bits(0.5f);
  } else {
    // A normal half, or one that rounds up to inf. Rebias the exponent (127 -> 15) and add just under half
    // a half-ulp, plus one when the kept mantissa is odd: ties go to even. A mantissa carry moves into the
    // exponent, and past 65504 into 0x7c00, inf.
    const uint32_t odd = (u >> 13) & 1u;
    u -= 112u << 23;
    u += 0xfffu + odd;
    h = u >> 13;
  }
  return uint16_t(h | sign);
}

uint16_t float_to_half_ref(float f) {
  // f is a float32; the result is half bits. The half nearest |f| is q * step with q an integer: step is
  // 2^-24 below 2^-14 (subnormals) and 2^(E-10) for |f| in [2^E, 2^(E+1)). |f| / step is exact in double,
  // and nearbyint rounds it to nearest even (the default rounding mode).
  const uint32_t u = float_bits(f);
  const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
  if (std::isnan(f)) return uint16_t(sign | 0x7e00u | ((u >> 13) & 0x3ffu));
  const double mag = std::fabs(double(f));
  if (mag >= 65520.0) return uint16_t(sign | 0x7c00u);  // 65520 is halfway from 65504 to 2^16: ties to inf (even)
  if (mag < std::ldexp(1.0, -14)) return uint16_t(sign | uint16_t(std::nearbyint(std::ldexp(mag, 24))));
  int e;
  std::frexp(mag, &e);  // mag = m * 2^e with m in [0.5, 1): E = e - 1
  const double q = std::nearbyint(std::ldexp(mag, 11 - e));  // |f| / 2^(E-10), in [1024, 2048]
  // Biased exponent E + 15; q = 2048 carries into the next exponent through the addition.
  return uint16_t(sign | ((uint32_t(e - 1 + 15) << 10) + uint32_t(q) - 1024u));
}

uint16_t float_to_bf16(float f) {
  // f is a float32; the result is its top 16 bits rounded to nearest even: add just under half of the
  // dropped range, plus one when the kept part is odd. Past the largest bfloat16 the carry reaches inf.
  const uint32_t u = float_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x0040u);  // NaN: made quiet, never inf
  return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

float fp8_e4m3_to_float(uint8_t b) {
  const float sign = (b & 0x80) ? -1.0f : 1.0f;
  const int exp = (b >> 3) & 0xf, man = b & 0x7;
  if (exp == 15 && man == 7) return NAN;  // the only NaN; there are no infinities
  // Subnormals are man * 2^-9; normals (1 + man/8) * 2^(exp-7). Both are exact in float32.
  return sign * (exp == 0 ? std::ldexp(float(man), -9) : std::ldexp(float(8 + man), exp - 10));
}

float fp8_e5m2_to_float(uint8_t b) {
  return half_to_float(uint16_t(b) << 8);  // E5M2 is the top byte of an IEEE half
}

float fp8_e8m0_to_float(uint8_t b) {
  if (b == 0xff) return NAN;
  return std::ldexp(1.0f, int(b) - 127);  // 2^-127 is a float32 subnormal: still exact
}

// The stored types a model or a tensor file rarely holds (every one but F32, F16 and BF16): their loops
// compiled for size, out of line. At the file's -O3 each of these 13 loops was vectorised with its own
// prologue and remainder (to_float32 was 8.2 KB of the module, the largest conversion code in it); F32,
// F16 and BF16, a checkpoint's weights, keep to_float32's vectorised loops. noinline keeps LTO from
// inlining it back into to_float32, where it would be compiled for speed again.
namespace {
#if defined(__clang__)
__attribute__((minsize, noinline))
#endif
void to_float32_rare(DType dt, const uint8_t* src, int64_t n, float* dst) {
  switch (dt) {
    case DType::F64:
      // Out-of-range doubles become +-inf, as numpy's astype(float32) does (and without UB).
      for (int64_t i = 0; i < n; ++i) {
        double v = load<double>(src, i);
        constexpr double fmax = std::numeric_limits<float>::max();
        dst[i] = (v > fmax || v < -fmax) && std::isfinite(v) ? (v > 0 ? INFINITY : -INFINITY) : float(v);
      }
      return;
    case DType::F8_E4M3:
      for (int64_t i = 0; i < n; ++i) dst[i] = fp8_e4m3_to_float(src[i]);
      return;
    case DType::F8_E5M2:
      for (int64_t i = 0; i < n; ++i) dst[i] = fp8_e5m2_to_float(src[i]);
      return;
    case DType::F8_E8M0:
      for (int64_t i = 0; i < n; ++i) dst[i] = fp8_e8m0_to_float(src[i]);
      return;
    case DType::I64: convert<int64_t>(src, n, dst); return;
    case DType::I32: convert<int32_t>(src, n, dst); return;
    case DType::I16: convert<int16_t>(src, n, dst); return;
    case DType::I8: convert<int8_t>(src, n, dst); return;
    case DType::U64: convert<uint64_t>(src, n, dst); return;
    case DType::U32: convert<uint32_t>(src, n, dst); return;
    case DType::U16: convert<uint16_t>(src, n, dst); return;
    case DType::U8: convert<uint8_t>(src, n, dst); return;
    case DType::BOOL:
      for (int64_t i = 0; i < n; ++i) dst[i] = src[i] ? 1.0f : 0.0f;
      return;
    default: break;
  }
  TP_ASSERT(false);
}
}  // namespace

void to_float32(DType dt, const void* src_v, int64_t n, float* dst) {
  TP_ASSERT(n >= 0);
  if (n == 0) return;  // empty tensors may come with null pointers, which memcpy must never see
  const auto* src = static_cast<const uint8_t*>(src_v);
  switch (dt) {
    case DType::F32: std::memcpy(dst, src, size_t(n) * 4); return;
    case DType::F16:
      for (int64_t i = 0; i < n; ++i) dst[i] = half_to_float(load<uint16_t>(src, i));
      return;
    case DType::BF16:
      for (int64_t i = 0; i < n; ++i) dst[i] = bf16_to_float(load<uint16_t>(src, i));
      return;
    default: to_float32_rare(dt, src, n, dst);
  }
}

void from_float32(DType dt, const float* src, int64_t n, void* dst_v) {
  // src is n float32 values; dst receives n elements of dt, dtype_size(dt) bytes each, little-endian.
  TP_ASSERT(n >= 0);
  if (n == 0) return;
  auto* dst = static_cast<uint8_t*>(dst_v);
  switch (dt) {
    case DType::F32: std::memcpy(dst, src, size_t(n) * 4); return;
    case DType::F64:
      for (int64_t i = 0; i < n; ++i) store<double>(dst, i, src[i]);
      return;
    case DType::F16:
      for (int64_t i = 0; i < n; ++i) store<uint16_t>(dst, i, float_to_half(src[i]));
      return;
    case DType::BF16:
      for (int64_t i = 0; i < n; ++i) store<uint16_t>(dst, i, float_to_bf16(src[i]));
      return;
    default: break;
  }
  TP_ASSERT(false && "from_float32 writes F32, F64, F16 and BF16 only");
}

// Once per stored tensor, over its dims: compiled for size (TP_FOR_SIZE).
TP_FOR_SIZE int64_t checked_numel(const char* op, const std::string& what, const Shape& shape) {
  // More dimensions than numpy allows is not a tensor anyone saved on purpose.
  if (shape.size() > 64) fail(op, what, " has ", shape.size(), " dimensions (at most 64)");
  int64_t n = 1;
  bool zero = false;
  for (int64_t d : shape) {
    if (d < 0) fail(op, what, " has negative dimension ", d, " in shape ", shape);
    if (d == 0) zero = true;
  }
  if (zero) return 0;
  for (int64_t d : shape) {
    if (n > std::numeric_limits<int64_t>::max() / d)
      fail(op, what, " has shape ", shape, " with more elements than fit in 64 bits");
    n *= d;
  }
  return n;
}

}  // namespace tp::io
