// Tensor files: safetensors and .npy, read from bytes and written to bytes, in their stored element types.
// This layer knows stored types (io::DType) and float32 arrays: to_float32() converts any stored type to
// float32, the float32 writers store F32 or round to F16, BF16 (or widen to F64), and the raw writers copy
// bytes already in the stored type. Loading into and saving from tp::Tensor of any dtype is io_tensor.hpp.
//
// Reading works in steps so a caller can touch only the bytes it needs (a 1.5 GB model in a browser):
//   safetensors: first 8 bytes -> safetensors_header_size(); the JSON after them -> parse_safetensors_header()
//                (natively; the WebAssembly module reads the JSON in JS, wasm/js/safetensors-json.js, and
//                hands check_safetensors_header() the members it found); then only
//                [data_offset() + begin, data_offset() + end) of one tensor -> to_float32().
//   .npy:        first bytes -> npy_header_size(); the header -> parse_npy_header(); the data -> decode_npy_data().
// Every malformed input throws tp::Error("safetensors: ..." or "npy: ...") naming the problem and its values.
// This part of the core depends on nothing else in it (only error.hpp, and nlohmann-json for the native
// JSON reader, io_safetensors_json.cpp), so the fuzz targets in tests/fuzz compile it alone.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "tensorpad/error.hpp"

namespace tp::io {

using Shape = std::vector<int64_t>;  // the same type as tp::Shape

// --- Element types -------------------------------------------------------------------------------

// The stored element types we can read (io_tensor.hpp says which tensor dtype each loads as).
// F8_E4M3 (torch float8_e4m3fn: no infinities, NaN = S.1111.111), F8_E5M2 (a float16 cut to its top
// byte) and F8_E8M0 (a power of two, 0xFF = NaN; the scales of MX formats) are the FP8 checkpoints' types.
enum class DType : uint8_t {
  F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0, I64, I32, I16, I8, U64, U32, U16, U8, BOOL
};

const char* dtype_name(DType dt);         // safetensors spelling: "F32", "BF16", "U8", ...
size_t dtype_size(DType dt);              // bytes per element
bool dtype_from_name(const std::string& name, DType* out);  // false for a name we do not read
std::string supported_dtypes();           // "F64, F32, ..." for error messages

// Converts n little-endian elements of type dt at src (any alignment) to float32 at dst.
// Exact for F32, F16, BF16, the F8 types, I16, I8, U16, U8, BOOL; F64, I64, I32, U64, U32 round to nearest.
void to_float32(DType dt, const void* src, int64_t n, float* dst);

// Converts n float32 values at src to n little-endian elements of type dt at dst (any alignment).
// dt is F32, F64 (exact), F16 or BF16 (float_to_half, float_to_bf16); callers validate, this only asserts.
void from_float32(DType dt, const float* src, int64_t n, void* dst);

// float32 -> half and bfloat16: round to nearest, ties to even, as numpy's astype(float16) and torch do.
// Too large rounds to +-inf (half: |f| >= 65520, the midpoint above 65504), too small to half subnormals
// and then to +-0; the sign of zero is kept. NaN stays NaN with its sign and top payload bits, made
// quiet (a signaling NaN whose kept payload would be zero must not turn into an infinity).
uint16_t float_to_half(float f);      // bit tricks, used by from_float32
uint16_t float_to_half_ref(float f);  // the value rounded in double arithmetic: the oracle of the fast one
uint16_t float_to_bf16(float f);      // the top 16 bits, rounded

// Scalar conversions, exact (every half, bfloat16 and FP8 value is a float32 value).
float half_to_float(uint16_t h);      // branch-light, used by to_float32
float half_to_float_ref(uint16_t h);  // field by field with ldexp: the oracle of the fast one
inline float bf16_to_float(uint16_t b);
float fp8_e4m3_to_float(uint8_t b);
float fp8_e5m2_to_float(uint8_t b);
float fp8_e8m0_to_float(uint8_t b);

// numel of a shape, refusing negative dimensions and products that overflow int64 (op names the format).
int64_t checked_numel(const char* op, const std::string& what, const Shape& shape);

// --- safetensors -----------------------------------------------------------------------------------

constexpr uint64_t kMaxSafetensorsHeader = 100'000'000;  // the limit of the reference implementation

struct SafetensorsEntry {
  std::string name;
  DType dtype;
  Shape shape;
  uint64_t begin = 0, end = 0;  // byte range inside the data section (after the header)
  int64_t numel() const;
  uint64_t nbytes() const { return end - begin; }
};

struct SafetensorsHeader {
  uint64_t header_size = 0;  // JSON bytes after the 8-byte length
  uint64_t data_size = 0;    // bytes after the header: file_size - 8 - header_size
  std::vector<SafetensorsEntry> tensors;                       // in the header's order
  std::vector<std::pair<std::string, std::string>> metadata;   // "__metadata__", in the header's order
  uint64_t data_offset() const { return 8 + header_size; }     // file offset of the data section
  const SafetensorsEntry& at(const std::string& name) const;   // throws naming the missing tensor
};

// Reads the 8-byte little-endian header length from the file's first prefix_len bytes and checks it
// against the file size and kMaxSafetensorsHeader. Returns the JSON header's byte count.
uint64_t safetensors_header_size(const uint8_t* prefix, size_t prefix_len, uint64_t file_size);

// Parses and validates the JSON header (json_len bytes, as given by safetensors_header_size) of a
// file of file_size bytes: dtypes, shapes, offsets inside the data, no overlaps, sizes matching shapes.
// The JSON is read with nlohmann (io_safetensors_json.cpp), which the WebAssembly module does not link.
SafetensorsHeader parse_safetensors_header(const uint8_t* json, size_t json_len, uint64_t file_size);

// One member of the header's root object as a JSON reader found it, before its values are checked: a
// tensor, or a __metadata__ that is not an object. A reader fills the fields in the order
// check_safetensors_header checks them and stops at the member's first JSON-level problem, so both readers
// (nlohmann natively, wasm/js/safetensors-json.js in the WebAssembly build) report the same first error.
struct SafetensorsMember {
  enum Problem : uint8_t {
    kNone,
    kNotObject,          // the value is not an object (text: its JSON type, "array", "number", ...)
    kNoDtype,            // no "dtype" string
    kNoShape,            // no "shape" array
    kNegativeDim,        // a negative dimension (detail: it) in the shape (text: the shape as JSON)
    kShapeNotSizes,      // the shape's first bad entry is not a size (text: the shape as JSON)
    kNoOffsets,          // no "data_offsets" pair of integers in [0, 2^63)
    kMetadataNotObject,  // __metadata__ is not an object (text: its JSON type)
  };
  Problem problem = kNone;
  std::string name;            // the key, UTF-8
  std::string dtype;           // set when the problem comes after kNoDtype
  std::string text, detail;    // for the problem's message
  Shape shape;                 // set when the problem comes after kShapeNotSizes
  uint64_t begin = 0, end = 0;
};

// Validates what a JSON reader found (the root object's members in the file's order, names already
// checked to be distinct; metadata sorted by key as a std::map holds it) for a header of json_len bytes
// in a file of file_size bytes, as parse_safetensors_header does.
SafetensorsHeader check_safetensors_header(const std::vector<SafetensorsMember>& members,
                                           std::vector<std::pair<std::string, std::string>> metadata,
                                           uint64_t json_len, uint64_t file_size);

// Both steps on a whole file in memory.
SafetensorsHeader parse_safetensors(const uint8_t* file, size_t file_size);

// Converts one entry of a whole file in memory to float32 (dst holds entry.numel() floats).
void read_safetensors_tensor(const SafetensorsHeader& h, const SafetensorsEntry& entry,
                             const uint8_t* file, size_t file_size, float* dst);

// An array to write: shape, C-order contiguous data, and the type to store it as. Either data, float32
// values stored as dtype F32, F16 or BF16 (rounded to nearest even); or raw, elements already of dtype
// (any type but the FP8 ones), copied as they are.
struct NamedArray {
  std::string name;
  Shape shape;
  const float* data;
  DType dtype = DType::F32;
  const void* raw = nullptr;  // when set, data is ignored
};

// Writes the tensors in the given order, each in its dtype, header padded with spaces to a multiple
// of 8 bytes. Throws naming the tensor for a dtype it cannot write (float32 data: other than F32, F16,
// BF16; raw: an FP8 type).
std::vector<uint8_t> write_safetensors(const std::vector<NamedArray>& arrays,
                                       const std::vector<std::pair<std::string, std::string>>& metadata = {});

// Appends s (valid UTF-8) to out as a JSON string, as the header writer above writes names and metadata:
// quotes, backslashes and control characters escaped, the rest as it is. Also what the bindings use to
// hand a checked header to JS.
void append_json_string(std::string& out, const std::string& s);

// --- .npy ------------------------------------------------------------------------------------------

struct NpyHeader {
  int major = 1, minor = 0;      // format version (1, 2 or 3)
  std::string descr;             // as written, e.g. "<f4"
  DType dtype = DType::F32;
  bool fortran_order = false;
  Shape shape;
  uint64_t data_offset = 0;      // file offset of the data
  int64_t numel() const;         // 0 when a dim is 0, however large the others
  uint64_t nbytes() const;       // numel * dtype size
};

// From the first prefix_len bytes (10 suffice for v1, 12 for v2/v3) returns the full header's size,
// i.e. the file offset of the data, checked against the file size.
uint64_t npy_header_size(const uint8_t* prefix, size_t prefix_len, uint64_t file_size);

// Parses the header (the first header_len >= npy_header_size bytes of the file) and checks that the
// file holds exactly the data its shape and dtype need.
NpyHeader parse_npy_header(const uint8_t* header, size_t header_len, uint64_t file_size);

// Copies the data (h.nbytes() bytes) to dst in C order, still in the stored type (dst holds h.nbytes()
// bytes); Fortran-ordered data is transposed element by element.
void npy_c_order(const NpyHeader& h, const uint8_t* data, size_t data_len, uint8_t* dst);

// Converts the data (h.nbytes() bytes) to float32 in C order (dst holds numel floats);
// Fortran-ordered data is transposed to C order.
void decode_npy_data(const NpyHeader& h, const uint8_t* data, size_t data_len, float* dst);

// Both steps on a whole file in memory.
struct DecodedArray {
  Shape shape;
  std::vector<float> values;
};
DecodedArray read_npy(const uint8_t* file, size_t file_size);

// Writes a little-endian, C-order .npy byte for byte as numpy.save does (version 1.0, or 2.0 if the
// header needs it): dtype F32 ('<f4'), F16 ('<f2', rounded to nearest even) or F64 ('<f8'). numpy has
// no bfloat16, so BF16 (like any other dtype) is refused.
std::vector<uint8_t> write_npy(const Shape& shape, const float* data, DType dtype = DType::F32);

// Writes an .npy as numpy.save does from numel(shape) elements already stored as dtype (little-endian,
// C order) at raw: F64 '<f8', F32 '<f4', F16 '<f2', I64 '<i8', I32 '<i4', I16 '<i2', I8 '|i1', U64 '<u8',
// U32 '<u4', U16 '<u2', U8 '|u1', BOOL '|b1'. BF16 and the FP8 types (no numpy dtype) are refused.
std::vector<uint8_t> write_npy_raw(const Shape& shape, const void* raw, DType dtype);

// --- inline definitions ----------------------------------------------------------------------------

inline float bf16_to_float(uint16_t b) {
  // bfloat16 is the top half of a float32: widening is exact, NaN payloads included.
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace tp::io
