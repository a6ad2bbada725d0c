// DType names, sizes and promotion, and the element conversions every dtype-generic path goes through.
#include "tensorpad/dtype.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <type_traits>

#include "for_size.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/half.hpp"
#include "tensorpad/io.hpp"

namespace tp {

namespace {

struct Info {
  const char* name;
  int64_t size;
};
// Indexed by DType.
constexpr Info kInfo[kNumDTypes] = {{"float32", 4}, {"float64", 8}, {"float16", 2}, {"bfloat16", 2}, {"int32", 4},
                                    {"int64", 8},   {"uint8", 1},   {"int8", 1},    {"bool", 1},     {"int16", 2}};

struct Alias {
  const char* name;
  DType d;
};
constexpr Alias kAliases[] = {{"float", DType::Float32}, {"double", DType::Float64}, {"half", DType::Float16},
                              {"int", DType::Int32},     {"long", DType::Int64},    {"short", DType::Int16}};

// x86's cvttsd2si: truncation toward zero, and the "integer indefinite" INT_MIN for NaN or out of range.
int32_t trunc_i32(double v) { return v > -2147483649.0 && v < 2147483648.0 ? int32_t(v) : INT32_MIN; }
int64_t trunc_i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? int64_t(v) : INT64_MIN;
}
float f16_to_f(uint16_t b) { return io::half_to_float(b); }
float bf16_to_f(uint16_t b) { return io::bf16_to_float(b); }

// The loops below are many (dtype x compute type) and stay scalar (TP_SCALAR_LOOP): vectorised copies of
// each would add tens of KB to the WebAssembly core, and the float32 paths that matter for speed never come here.

template <class S, class C, class F>
void load_loop(const void* src, int64_t stride, int64_t n, C* out, F f) {
  const S* s = static_cast<const S*>(src);
  TP_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) out[i] = C(f(s[i * stride]));
}

template <class C>
void load_impl(DType d, const void* src, int64_t stride, int64_t n, C* out) {
  const auto id = [](auto v) { return v; };
  switch (d) {
    case DType::Float32: return load_loop<float>(src, stride, n, out, id);
    case DType::Float64: return load_loop<double>(src, stride, n, out, id);
    case DType::Float16: return load_loop<uint16_t>(src, stride, n, out, f16_to_f);
    case DType::BFloat16: return load_loop<uint16_t>(src, stride, n, out, bf16_to_f);
    case DType::Int32: return load_loop<int32_t>(src, stride, n, out, id);
    case DType::Int64: return load_loop<int64_t>(src, stride, n, out, id);
    case DType::UInt8: return load_loop<uint8_t>(src, stride, n, out, id);
    case DType::Int8: return load_loop<int8_t>(src, stride, n, out, id);
    case DType::Bool: return load_loop<uint8_t>(src, stride, n, out, [](uint8_t v) { return v != 0; });
    case DType::Int16: return load_loop<int16_t>(src, stride, n, out, id);
  }
}

template <class D, class C, class F>
void store_loop(const C* in, int64_t n, void* dst, int64_t stride, F f) {
  D* o = static_cast<D*>(dst);
  TP_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) o[i * stride] = D(f(in[i]));
}

// From a floating compute type (float or double) to d, with torch's rules (see dtype.hpp).
template <class C>
void store_float(DType d, const C* in, int64_t n, void* dst, int64_t stride) {
  switch (d) {
    case DType::Float32: return store_loop<float>(in, n, dst, stride, [](C v) { return float(v); });
    case DType::Float64: return store_loop<double>(in, n, dst, stride, [](C v) { return double(v); });
    case DType::Float16: return store_loop<uint16_t>(in, n, dst, stride, [](C v) { return io::float_to_half(float(v)); });
    case DType::BFloat16: return store_loop<uint16_t>(in, n, dst, stride, [](C v) { return io::float_to_bf16(float(v)); });
    case DType::Int32: return store_loop<int32_t>(in, n, dst, stride, [](C v) { return trunc_i32(v); });
    case DType::Int64: return store_loop<int64_t>(in, n, dst, stride, [](C v) { return trunc_i64(v); });
    case DType::UInt8: return store_loop<uint8_t>(in, n, dst, stride, [](C v) { return uint8_t(uint32_t(trunc_i32(v))); });
    case DType::Int8: return store_loop<int8_t>(in, n, dst, stride, [](C v) { return int8_t(trunc_i32(v)); });
    case DType::Bool: return store_loop<uint8_t>(in, n, dst, stride, [](C v) { return v != 0; });
    case DType::Int16: return store_loop<int16_t>(in, n, dst, stride, [](C v) { return int16_t(trunc_i32(v)); });
  }
}

}  // namespace

int64_t itemsize(DType d) { return kInfo[int(d)].size; }
const char* dtype_name(DType d) { return kInfo[int(d)].name; }

DType parse_dtype(const char* op, std::string_view name) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (name == kInfo[i].name) return DType(i);
  for (const Alias& a : kAliases)
    if (name == a.name) return a.d;
  std::string list;
  for (int i = 0; i < kNumDTypes; ++i) list += std::string(i ? ", " : "") + kInfo[i].name;
  fail(op, "unknown dtype \"", name, "\" (expected one of ", list, ")");
}

bool is_floating(DType d) { return d <= DType::BFloat16; }
bool is_integral(DType d) { return !is_floating(d) && d != DType::Bool; }

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  const bool fa = is_floating(a), fb = is_floating(b);
  if (fa != fb) return fa ? a : b;
  if (fa) {
    if (a == DType::Float64 || b == DType::Float64) return DType::Float64;
    return DType::Float32;  // float32 with a 16-bit float, or float16 with bfloat16
  }
  // Two different integer types. uint8 is the only unsigned one: with int8 neither holds the other.
  if (a == DType::UInt8 || b == DType::UInt8) {
    const DType s = a == DType::UInt8 ? b : a;
    return s == DType::Int8 ? DType::Int16 : s;
  }
  return itemsize(a) >= itemsize(b) ? a : b;
}

double to_double(DType d, const void* p) {
  double v;
  load_impl<double>(d, p, 1, 1, &v);
  return v;
}

void from_double(DType d, double v, void* p) { store_float<double>(d, &v, 1, p, 1); }

namespace {
// Side by side float16/bfloat16 values widen 8 at a time with the GEMM's SIMD conversion (bit-identical to
// the scalar one, tested there): element by element, the conversion made float16 add 25x slower than
// float32's (tests/bench/dtypes.mjs). Double compute goes through float, which holds every value exactly.
template <class C>
bool load_half(DType d, const void* src, int64_t stride, int64_t n, C* out) {
  if (stride != 1 || (d != DType::Float16 && d != DType::BFloat16)) return false;
  const Half kind = d == DType::Float16 ? Half::F16 : Half::BF16;
  const auto* s = static_cast<const uint16_t*>(src);
  if constexpr (std::is_same_v<C, float>) {
    kernels::widen_half(kind, s, out, n);
  } else {
    float buf[256];
    for (int64_t i0 = 0; i0 < n; i0 += 256) {
      const int64_t m = std::min<int64_t>(256, n - i0);
      kernels::widen_half(kind, s + i0, buf, m);
      for (int64_t i = 0; i < m; ++i) out[i0 + i] = buf[i];
    }
  }
  return true;
}
}  // namespace

void load_block(DType d, const void* src, int64_t stride, int64_t n, float* out) {
  if (!load_half(d, src, stride, n, out)) load_impl(d, src, stride, n, out);
}
void load_block(DType d, const void* src, int64_t stride, int64_t n, double* out) {
  if (!load_half(d, src, stride, n, out)) load_impl(d, src, stride, n, out);
}
void load_block(DType d, const void* src, int64_t stride, int64_t n, int64_t* out) {
  // Float sources never come here in integer compute (callers pick float compute for them), but a
  // float source is truncated toward zero as in from_double, not converted with UB.
  if (is_floating(d)) {
    double buf[256];
    for (int64_t i0 = 0; i0 < n; i0 += 256) {
      const int64_t m = std::min<int64_t>(256, n - i0);
      load_impl<double>(d, static_cast<const uint8_t*>(src) + i0 * stride * itemsize(d), stride, m, buf);
      for (int64_t i = 0; i < m; ++i) out[i0 + i] = trunc_i64(buf[i]);
    }
    return;
  }
  load_impl(d, src, stride, n, out);
}

void store_block(DType d, const float* in, int64_t n, void* dst, int64_t stride) { store_float(d, in, n, dst, stride); }
void store_block(DType d, const double* in, int64_t n, void* dst, int64_t stride) { store_float(d, in, n, dst, stride); }
void store_block(DType d, const int64_t* in, int64_t n, void* dst, int64_t stride) {
  const auto cast = [](int64_t v) { return v; };
  switch (d) {
    case DType::Float32: return store_loop<float>(in, n, dst, stride, [](int64_t v) { return float(v); });
    case DType::Float64: return store_loop<double>(in, n, dst, stride, [](int64_t v) { return double(v); });
    case DType::Float16: return store_loop<uint16_t>(in, n, dst, stride, [](int64_t v) { return io::float_to_half(float(v)); });
    case DType::BFloat16: return store_loop<uint16_t>(in, n, dst, stride, [](int64_t v) { return io::float_to_bf16(float(v)); });
    // Narrowing wraps (two's complement), as torch's integer casts.
    case DType::Int32: return store_loop<int32_t>(in, n, dst, stride, [](int64_t v) { return int32_t(uint32_t(v)); });
    case DType::Int64: return store_loop<int64_t>(in, n, dst, stride, cast);
    case DType::UInt8: return store_loop<uint8_t>(in, n, dst, stride, [](int64_t v) { return uint8_t(v); });
    case DType::Int8: return store_loop<int8_t>(in, n, dst, stride, [](int64_t v) { return int8_t(uint8_t(v)); });
    case DType::Bool: return store_loop<uint8_t>(in, n, dst, stride, [](int64_t v) { return v != 0; });
    case DType::Int16: return store_loop<int16_t>(in, n, dst, stride, [](int64_t v) { return int16_t(uint16_t(v)); });
  }
}

namespace {
template <class T>
void copy_elements(const void* src, int64_t ss, void* dst, int64_t ds, int64_t n) {
  const T* s = static_cast<const T*>(src);
  T* o = static_cast<T*>(dst);
  TP_SCALAR_LOOP
  for (int64_t i = 0; i < n; ++i) o[i * ds] = s[i * ss];
}
}  // namespace

void convert_strided(DType sd, const void* src, int64_t ss, DType dd, void* dst, int64_t ds, int64_t n) {
  constexpr int64_t B = 256;
  const auto* s = static_cast<const uint8_t*>(src);
  auto* o = static_cast<uint8_t*>(dst);
  if (sd == dd) {  // a copy of the bytes (NaN payloads and all)
    switch (itemsize(sd)) {
      case 1: return copy_elements<uint8_t>(src, ss, dst, ds, n);
      case 2: return copy_elements<uint16_t>(src, ss, dst, ds, n);
      case 4: return copy_elements<uint32_t>(src, ss, dst, ds, n);
      default: return copy_elements<uint64_t>(src, ss, dst, ds, n);
    }
  }
  const int64_t sstep = ss * itemsize(sd), dstep = ds * itemsize(dd);
  if (!is_floating(sd)) {  // integers and bools load exactly into int64; int64 -> float rounds once
    int64_t buf[B];
    for (int64_t i0 = 0; i0 < n; i0 += B) {
      const int64_t m = std::min(B, n - i0);
      load_impl<int64_t>(sd, s + i0 * sstep, ss, m, buf);
      store_block(dd, buf, m, o + i0 * dstep, ds);
    }
    return;
  }
  double buf[B];
  for (int64_t i0 = 0; i0 < n; i0 += B) {
    const int64_t m = std::min(B, n - i0);
    load_block(sd, s + i0 * sstep, ss, m, buf);
    store_float<double>(dd, buf, m, o + i0 * dstep, ds);
  }
}

}  // namespace tp
