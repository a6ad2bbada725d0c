// tp::Tensor: a strided view (shape, strides, offset) of one dtype on shared, counted byte storage.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "tensorpad/dtype.hpp"
#include "tensorpad/error.hpp"

namespace tp {

using Shape = std::vector<int64_t>;

// The largest tensor the core will allocate: 2 GiB (2^29 float32, 2^31 bools). Absurd shapes are refused
// before any allocation, so `zeros([1e6, 1e6])` is an error, not an out-of-memory abort.
constexpr int64_t kMaxBytes = int64_t(1) << 31;
constexpr int64_t kMaxElements = kMaxBytes / 4;  // of float32, for callers that make float32 tensors

// Owns one byte buffer (aligned as malloc aligns) and keeps the process-wide count of live bytes (tp.memory()).
class Storage {
 public:
  explicit Storage(int64_t nbytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  uint8_t* bytes() { return data_.get(); }
  int64_t nbytes() const { return size_; }
  static int64_t live_bytes();
  static int64_t live_buffers();

 private:
  std::unique_ptr<uint8_t[]> data_;
  int64_t size_;
};

// Checks every dimension is >= 0 and the tensor fits in kMaxBytes with elements of `item` bytes; returns
// the element count.
int64_t checked_numel(const char* op, const Shape& shape, DType dtype = DType::Float32);

// Row-major strides of a contiguous tensor of this shape.
Shape contiguous_strides(const Shape& shape);

// Maps a possibly negative dim into [0, ndim), or throws "op: dim d out of range for a n-d tensor".
int64_t wrap_dim(const char* op, int64_t dim, int64_t ndim);

class Tensor {
 public:
  Tensor();  // a 0-d float32 tensor holding 0

  // float32 unless a dtype is given; `op` names the calling operation in the error for a refused shape.
  static Tensor empty(const Shape& shape, const char* op = "empty");  // uninitialised
  static Tensor empty(const Shape& shape, DType dtype, const char* op = "empty");
  static Tensor zeros(const Shape& shape, const char* op = "zeros");
  static Tensor zeros(const Shape& shape, DType dtype, const char* op = "zeros");
  static Tensor full(const Shape& shape, float value, const char* op = "full");
  // value converted to dtype as Tensor::to converts (3.7 -> int32 3, NaN -> bool true).
  static Tensor full(const Shape& shape, double value, DType dtype, const char* op = "full");
  static Tensor scalar(float value);
  static Tensor from(const Shape& shape, const float* data);  // copies

  // A view on the same storage (no copy).
  Tensor view(const Shape& shape, const Shape& strides, int64_t offset) const;

  const Shape& shape() const { return shape_; }
  const Shape& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int64_t dim() const { return int64_t(shape_.size()); }
  int64_t numel() const;
  int64_t size(int64_t d) const;  // negative d counts from the end
  bool is_contiguous() const;
  bool shares_storage(const Tensor& other) const { return storage_ == other.storage_; }

  Tensor contiguous() const;  // itself when already contiguous, else a compact copy
  Tensor clone() const;       // always a compact copy
  // A compact copy converted to dtype with torch's rules (dtype.hpp); itself when dtype is its own.
  Tensor to(DType dtype) const;

  DType dtype() const { return dtype_; }
  // The elements of a float32 tensor: every float32 kernel reads and writes through these. Any other
  // dtype throws "dtype: expected a float32 tensor, got int32 of shape [..]" (checked in release builds
  // too: a kernel reading int32 bytes as floats would return garbage, not fail).
  float* data() {
    if (dtype_ != DType::Float32) dtype_mismatch(DType::Float32);
    return reinterpret_cast<float*>(storage_->bytes()) + offset_;
  }
  const float* data() const { return const_cast<Tensor*>(this)->data(); }
  // Typed access, checked the same way: data_as<int32_t>(), data_as<float16_t>(), data_as<bool>() ...
  template <class T>
  T* data_as() {
    if (dtype_ != dtype_of<T>::value) dtype_mismatch(dtype_of<T>::value);
    return reinterpret_cast<T*>(storage_->bytes()) + offset_;
  }
  template <class T>
  const T* data_as() const { return const_cast<Tensor*>(this)->data_as<T>(); }
  // The first element's bytes, whatever the dtype (offset applied); strides count elements of dtype().
  void* raw() { return storage_->bytes() + offset_ * itemsize(dtype_); }
  const void* raw() const { return storage_->bytes() + offset_ * itemsize(dtype_); }

  float item() const;          // the single value of a one-element tensor, as float
  double item_double() const;  // the same as double (exact for every dtype but int64 beyond 2^53)
  // Writes this tensor's elements into out (same shape; any dtype, any layout: a view of another
  // tensor too), converting; returns out.
  Tensor convert_into(Tensor out) const;

 private:
  Tensor(std::shared_ptr<Storage> storage, Shape shape, DType dtype);
  [[noreturn]] void dtype_mismatch(DType want) const;

  std::shared_ptr<Storage> storage_;
  Shape shape_;
  Shape strides_;
  int64_t offset_ = 0;
  DType dtype_ = DType::Float32;
};

}  // namespace tp
