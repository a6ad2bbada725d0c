// Tensor files as tp::Tensor of any dtype: the tensor dtype each stored type loads as, the stored type each
// tensor dtype saves as, and the conversions between them. The formats themselves are io.hpp's.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tensorpad/io.hpp"
#include "tensorpad/tensor.hpp"

namespace tp::io {

// The tensor dtype a stored type loads as: its own where the core has it (F64 F32 F16 BF16 I64 I32 I16 I8
// U8 BOOL), the exact widening for U16 (int32) and U32 (int64), and float32 for the FP8 types (exact) and
// U64 (rounded: there is no unsigned 64-bit tensor).
tp::DType load_dtype(DType stored);

// The stored type a tensor dtype saves as: float32 -> F32, bfloat16 -> BF16, bool -> BOOL, ... (all ten).
DType stored_dtype(tp::DType d);

// Converts n stored elements at src (little-endian, any alignment) into n contiguous elements of dtype `to`
// at dst, with Tensor::to's rules; a stored BOOL byte other than 0 is true.
void decode_elements(DType stored, const void* src, int64_t n, tp::DType to, void* dst);

// One entry of a whole safetensors file in memory as a tensor of dtype `to`.
Tensor read_safetensors_tensor(const SafetensorsHeader& h, const SafetensorsEntry& e, const uint8_t* file,
                               size_t file_size, tp::DType to);

// The data of an .npy (data_len >= h.nbytes() bytes) as a C-order tensor of dtype `to`.
Tensor decode_npy_tensor(const NpyHeader& h, const uint8_t* data, size_t data_len, tp::DType to);

// A whole .npy file in memory as a C-order tensor of dtype `to`, or of load_dtype(its dtype).
Tensor read_npy_tensor(const uint8_t* file, size_t file_size, tp::DType to);
Tensor read_npy_tensor(const uint8_t* file, size_t file_size);

// An .npy of t stored as `as` (t converted with Tensor::to; a float32 tensor stored as F16 or F64 rounds as
// write_npy does). Refuses BF16 and the FP8 types, which numpy has no dtype for.
std::vector<uint8_t> write_npy_tensor(const Tensor& t, DType as);

// A tensor to write into a safetensors file, and the stored type to write it as.
struct NamedTensor {
  std::string name;
  Tensor tensor;
  DType as;
};
std::vector<uint8_t> write_safetensors_tensors(const std::vector<NamedTensor>& tensors,
                                               const std::vector<std::pair<std::string, std::string>>& metadata = {});

}  // namespace tp::io
