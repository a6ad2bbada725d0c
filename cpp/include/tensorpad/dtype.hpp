// tp::DType: the element types a tensor can hold, their names, sizes, torch's promotion rules, and
// the block conversions between them that every dtype-generic loop reads and writes through.
#pragma once
#include <cstdint>
#include <string_view>

namespace tp {

// The order is the codes the JS API uses (wasm/js/dtype.js); add new types at the end.
// Int16 exists so uint8 + int8 promotes to int16 exactly as torch.
enum class DType : uint8_t { Float32, Float64, Float16, BFloat16, Int32, Int64, UInt8, Int8, Bool, Int16 };
constexpr int kNumDTypes = 10;

// The storage types of the 16-bit floats: raw IEEE half / bfloat16 bits (data_as<float16_t>()).
struct float16_t {
  uint16_t bits;
};
struct bfloat16_t {
  uint16_t bits;
};

int64_t itemsize(DType d);       // bytes per element
const char* dtype_name(DType d);  // torch's names: "float32", "bfloat16", "int64", "bool", ...
// torch's names and aliases ("float", "double", "half", "int", "long", "short"); throws
// "op: unknown dtype "x" (expected one of float32, ...)" for anything else.
DType parse_dtype(const char* op, std::string_view name);
bool is_floating(DType d);   // float32, float64, float16, bfloat16
bool is_integral(DType d);   // int8..int64, uint8 (not bool)
// torch.promote_types: bool < integers < floats; uint8 with int8 gives int16; float16 with bfloat16 gives
// float32; otherwise the wider type of the higher category.
DType promote_types(DType a, DType b);

// The C++ type of an element, for data_as<T>().
template <class T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };
template <> struct dtype_of<float16_t> { static constexpr DType value = DType::Float16; };
template <> struct dtype_of<bfloat16_t> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<uint8_t> { static constexpr DType value = DType::UInt8; };
template <> struct dtype_of<int8_t> { static constexpr DType value = DType::Int8; };
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<int16_t> { static constexpr DType value = DType::Int16; };

// Scalar conversions with torch's rules (the CPU build of torch on x86):
// float -> integer truncates toward zero; NaN and values outside int32 give INT32_MIN before narrowing to
// int32/int16/int8/uint8 (which wrap, so -1.0 -> uint8 255), and INT64_MIN for int64 (x86's cvtt result);
// anything -> bool is x != 0 (NaN is true); float -> float16/bfloat16 rounds to nearest even (from float64
// through float32, as torch). Integers convert to each other by wrapping (two's complement).
double to_double(DType d, const void* p);           // one element at p
void from_double(DType d, double v, void* p);       // stores v converted to d at p

// Block conversions: n elements at src (element stride `stride`, in elements of d) into a buffer of the
// compute type, or from it into dst. One loop per dtype, chosen once per block: the generic elementwise,
// reduction and conversion paths move data through these in blocks of a few hundred elements.
void load_block(DType d, const void* src, int64_t stride, int64_t n, float* out);
void load_block(DType d, const void* src, int64_t stride, int64_t n, double* out);
void load_block(DType d, const void* src, int64_t stride, int64_t n, int64_t* out);
void store_block(DType d, const float* in, int64_t n, void* dst, int64_t stride);
void store_block(DType d, const double* in, int64_t n, void* dst, int64_t stride);
void store_block(DType d, const int64_t* in, int64_t n, void* dst, int64_t stride);

// Converts n elements of src_d (stride ss) to dst_d (stride ds), exactly as element-by-element
// from_double(dst_d, to_double(src_d, x)) except that integer sources go through int64 (exact, and
// int64 -> float32 rounds once).
void convert_strided(DType src_d, const void* src, int64_t ss, DType dst_d, void* dst, int64_t ds, int64_t n);

}  // namespace tp
