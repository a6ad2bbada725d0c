// tp::Tensor: a float32 strided view (shape, strides, offset) on shared, counted storage.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "tensorpad/error.hpp"

namespace tp {

using Shape = std::vector<int64_t>;

// The largest tensor the core will allocate: 2^29 floats (2 GiB). Absurd shapes are refused
// before any allocation, so `zeros([1e6, 1e6])` is an error, not an out-of-memory abort.
constexpr int64_t kMaxElements = int64_t(1) << 29;

// Owns one float buffer and keeps the process-wide count of live bytes (tp.memory()).
class Storage {
 public:
  explicit Storage(int64_t n);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  float* data() { return data_.get(); }
  int64_t size() const { return size_; }
  static int64_t live_bytes();
  static int64_t live_buffers();

 private:
  std::unique_ptr<float[]> data_;
  int64_t size_;
};

// Checks every dimension is in [0, kMaxElements] and the product fits; returns the element count.
int64_t checked_numel(const char* op, const Shape& shape);

// Row-major strides of a contiguous tensor of this shape.
Shape contiguous_strides(const Shape& shape);

// Maps a possibly negative dim into [0, ndim), or throws "op: dim d out of range for a n-d tensor".
int64_t wrap_dim(const char* op, int64_t dim, int64_t ndim);

class Tensor {
 public:
  Tensor();  // a 0-d tensor holding 0

  // `op` names the calling operation in the error for a refused shape.
  static Tensor empty(const Shape& shape, const char* op = "empty");  // uninitialised
  static Tensor zeros(const Shape& shape, const char* op = "zeros");
  static Tensor full(const Shape& shape, float value, const char* op = "full");
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

  float* data() { return storage_->data() + offset_; }
  const float* data() const { return storage_->data() + offset_; }
  float item() const;  // the single value of a one-element tensor

 private:
  Tensor(std::shared_ptr<Storage> storage, Shape shape);

  std::shared_ptr<Storage> storage_;
  Shape shape_;
  Shape strides_;
  int64_t offset_ = 0;
};

}  // namespace tp
