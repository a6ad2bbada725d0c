// Loading stored element types into tensors of any dtype and saving tensors in their dtype (io_tensor.hpp).
#include "tensorpad/io_tensor.hpp"

#include <algorithm>
#include <cstring>

namespace tp::io {

namespace {

// The tensor dtype with the same bytes as a stored type, if there is one.
bool same_bytes(DType stored, tp::DType* out) {
  switch (stored) {
    case DType::F64: *out = tp::DType::Float64; return true;
    case DType::F32: *out = tp::DType::Float32; return true;
    case DType::F16: *out = tp::DType::Float16; return true;
    case DType::BF16: *out = tp::DType::BFloat16; return true;
    case DType::I64: *out = tp::DType::Int64; return true;
    case DType::I32: *out = tp::DType::Int32; return true;
    case DType::I16: *out = tp::DType::Int16; return true;
    case DType::I8: *out = tp::DType::Int8; return true;
    case DType::U8: *out = tp::DType::UInt8; return true;
    case DType::BOOL: *out = tp::DType::Bool; return true;
    default: return false;
  }
}

}  // namespace

tp::DType load_dtype(DType stored) {
  tp::DType d;
  if (same_bytes(stored, &d)) return d;
  if (stored == DType::U16) return tp::DType::Int32;
  if (stored == DType::U32) return tp::DType::Int64;
  return tp::DType::Float32;
}

DType stored_dtype(tp::DType d) {
  switch (d) {
    case tp::DType::Float32: return DType::F32;
    case tp::DType::Float64: return DType::F64;
    case tp::DType::Float16: return DType::F16;
    case tp::DType::BFloat16: return DType::BF16;
    case tp::DType::Int32: return DType::I32;
    case tp::DType::Int64: return DType::I64;
    case tp::DType::UInt8: return DType::U8;
    case tp::DType::Int8: return DType::I8;
    case tp::DType::Bool: return DType::BOOL;
    case tp::DType::Int16: return DType::I16;
  }
  TP_ASSERT(false);
  return DType::F32;
}

void decode_elements(DType stored, const void* src_v, int64_t n, tp::DType to, void* dst_v) {
  TP_ASSERT(n >= 0);
  if (n == 0) return;  // empty tensors may come with null pointers
  const auto* src = static_cast<const uint8_t*>(src_v);
  auto* dst = static_cast<uint8_t*>(dst_v);
  const size_t ssize = dtype_size(stored), dsize = size_t(itemsize(to));
  tp::DType own;
  const bool has_own = same_bytes(stored, &own);
  if (has_own && own == to && stored != DType::BOOL) {
    std::memcpy(dst, src, size_t(n) * ssize);
    return;
  }
  // Other pairs convert a block at a time through an aligned copy (file data need not be aligned) in the
  // type that holds the stored values exactly: the stored bytes themselves, int64 for U16/U32, float32
  // for the FP8 types and U64 (to_float32 rounds U64 once).
  constexpr int64_t B = 512;
  alignas(8) uint8_t raw[B * 8];
  int64_t wide[B];
  float f[B];
  for (int64_t i0 = 0; i0 < n; i0 += B) {
    const int64_t m = std::min(B, n - i0);
    const uint8_t* s = src + size_t(i0) * ssize;
    uint8_t* d = dst + size_t(i0) * dsize;
    if (stored == DType::BOOL) {
      for (int64_t k = 0; k < m; ++k) raw[k] = s[k] != 0;
      convert_strided(tp::DType::Bool, raw, 1, to, d, 1, m);
    } else if (has_own) {
      std::memcpy(raw, s, size_t(m) * ssize);
      convert_strided(own, raw, 1, to, d, 1, m);
    } else if (stored == DType::U16 || stored == DType::U32) {
      for (int64_t k = 0; k < m; ++k) {
        uint32_t v = 0;
        std::memcpy(&v, s + size_t(k) * ssize, ssize);  // little-endian: the low bytes
        wide[k] = int64_t(v);
      }
      store_block(to, wide, m, d, 1);
    } else {
      to_float32(stored, s, m, f);
      convert_strided(tp::DType::Float32, f, 1, to, d, 1, m);
    }
  }
}

Tensor read_safetensors_tensor(const SafetensorsHeader& h, const SafetensorsEntry& e, const uint8_t* file,
                               size_t file_size, tp::DType to) {
  if (h.data_offset() + e.end > file_size)
    fail("safetensors", "tensor '", e.name, "' ends at byte ", h.data_offset() + e.end, " beyond the ", file_size,
         "-byte file");
  Tensor t = Tensor::empty(e.shape, to, "safetensors");
  decode_elements(e.dtype, file + h.data_offset() + e.begin, e.numel(), to, t.raw());
  return t;
}

Tensor decode_npy_tensor(const NpyHeader& h, const uint8_t* data, size_t data_len, tp::DType to) {
  Tensor t = Tensor::empty(h.shape, to, "npy");
  std::vector<uint8_t> c_order;
  if (h.fortran_order && h.shape.size() > 1) {
    c_order.resize(size_t(h.nbytes()));
    npy_c_order(h, data, data_len, c_order.data());
    data = c_order.data();
  } else if (data_len < h.nbytes()) {
    fail("npy", "given ", data_len, " data bytes but the array needs ", h.nbytes());
  }
  decode_elements(h.dtype, data, h.numel(), to, t.raw());
  return t;
}

Tensor read_npy_tensor(const uint8_t* file, size_t file_size, tp::DType to) {
  const NpyHeader h = parse_npy_header(file, file_size, file_size);
  return decode_npy_tensor(h, file + h.data_offset, file_size - h.data_offset, to);
}

Tensor read_npy_tensor(const uint8_t* file, size_t file_size) {
  const NpyHeader h = parse_npy_header(file, file_size, file_size);
  return read_npy_tensor(file, file_size, load_dtype(h.dtype));
}

namespace {

// A float32 tensor stored as F32, F16 or BF16 goes through from_float32, the writers' rounding of float32
// values (NaN payloads kept as io.hpp states); anything else is converted with Tensor::to first.
bool from_float(const Tensor& t, DType as) {
  return t.dtype() == tp::DType::Float32 && (as == DType::F32 || as == DType::F16 || as == DType::BF16);
}

// t converted to the tensor dtype with the bytes of `as`, compact; op names the writer in the error.
Tensor stored_as(const char* op, const std::string& who, const Tensor& t, DType as) {
  tp::DType d;
  if (!same_bytes(as, &d)) fail(op, "cannot write ", who, " as ", dtype_name(as), " (writable: F64, F32, F16, BF16, I64, I32, I16, I8, U8, BOOL)");
  return t.to(d).contiguous();
}

}  // namespace

std::vector<uint8_t> write_npy_tensor(const Tensor& t, DType as) {
  if (as == DType::BF16)
    fail("npy", "cannot write dtype BF16: numpy has no bfloat16 (write F32 or F16, or use safetensors)");
  if (from_float(t, as)) {
    const Tensor c = t.contiguous();
    return write_npy(c.shape(), c.data(), as);
  }
  const Tensor c = stored_as("npy", "an array", t, as);
  return write_npy_raw(c.shape(), c.raw(), as);
}

std::vector<uint8_t> write_safetensors_tensors(const std::vector<NamedTensor>& tensors,
                                               const std::vector<std::pair<std::string, std::string>>& metadata) {
  std::vector<Tensor> compact;  // keeps converted copies alive while writing
  compact.reserve(tensors.size());
  std::vector<NamedArray> arrays;
  for (const auto& nt : tensors) {
    if (from_float(nt.tensor, nt.as)) {
      compact.push_back(nt.tensor.contiguous());
      arrays.push_back({nt.name, compact.back().shape(), compact.back().data(), nt.as});
    } else {
      compact.push_back(stored_as("safetensors", "tensor '" + nt.name + "'", nt.tensor, nt.as));
      arrays.push_back({nt.name, compact.back().shape(), nullptr, nt.as, compact.back().raw()});
    }
  }
  return write_safetensors(arrays, metadata);
}

}  // namespace tp::io
