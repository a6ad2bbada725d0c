// Storage accounting, shape checks, and the Tensor container's own members.
#include "tensorpad/tensor.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#include <malloc.h>
#include <unistd.h>
#include <wasm_simd128.h>
#endif

#include "tensorpad/strided.hpp"
#include "for_size.hpp"

namespace tp {

namespace {
std::atomic<int64_t> g_live_bytes{0};
std::atomic<int64_t> g_live_buffers{0};
// dst (rows x cols, row-major) receives src where src(i, j) = src[i + j * col_stride]: the matrix is
// stored by columns. Tiles of 16 x 16 keep the strided reads within 16 cache lines.
__attribute__((noinline)) void transpose_tiles(const float* src, int64_t col_stride, float* dst, int64_t rows,
                                               int64_t cols) {
  constexpr int64_t T = 16;
  for (int64_t i0 = 0; i0 < rows; i0 += T)
    for (int64_t j0 = 0; j0 < cols; j0 += T) {
      const int64_t i1 = std::min(rows, i0 + T), j1 = std::min(cols, j0 + T);
      for (int64_t i = i0; i < i1; ++i)
        for (int64_t j = j0; j < j1; ++j) dst[i * cols + j] = src[i + j * col_stride];
    }
}

// n contiguous floats, 4 a step and the last 4 overlapping, or one by one below 4: no loop that clang's
// loop-idiom pass turns into a memcpy call (the engine's memory.copy costs ~10 ns a call, which made the
// 64-float rows of a permuted [1, 64, 8, 64] view ~25% slower to clone). Scalar reference: memcpy (native).
inline void copy_floats(float* __restrict b, const float* __restrict a, int64_t n) {
#if defined(__wasm_simd128__)
  if (n >= 4) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) wasm_v128_store(b + i, wasm_v128_load(a + i));
    if (i < n) wasm_v128_store(b + n - 4, wasm_v128_load(a + n - 4));
    return;
  }
  for (int64_t i = 0; i < n; ++i) b[i] = a[i];
#else
  std::memcpy(b, a, size_t(n) * sizeof(float));
#endif
}

// Storage's error: why an allocation of `nbytes` failed, in terms a reader can act on: in WebAssembly,
// the heap's limit, how much of it is free and whether the free space is in pieces too small (freed
// tensors between live ones). Natively the operating system has refused and there is nothing more to
// tell. The sizes go to fail() as numbers (pieces), not as concatenated strings: the strings' temporaries
// and their cleanups were ~3 KB of the WebAssembly module's code, inlined into Storage's constructor.
// Runs once, on the way out: compiled for size, out of line.
[[noreturn]]
#if defined(__clang__)
__attribute__((minsize, noinline, cold))
#endif
void fail_out_of_memory(int64_t nbytes) {
  constexpr const char* kOp = "alloc";
  constexpr const char* kWhat = "out of memory allocating ";
#ifdef __EMSCRIPTEN__
  const auto mb = [](double b) { return int64_t(b / 1048576.0 + 0.5); };
  const double limit = double(emscripten_get_heap_max()), top = double(reinterpret_cast<uintptr_t>(sbrk(0)));
  // mallinfo counts in int: read it as the unsigned 32-bit count it is (a free 3 GB is not negative).
  const double free_inside = double(uint32_t(mallinfo().fordblks)), growable = limit - top;
  if (growable >= double(nbytes) + 65536)
    fail(kOp, kWhat, nbytes, " bytes: the engine refused to grow the heap beyond ", mb(top), " MB (its limit is ",
         mb(limit), " MB)");
  // Fragmentation is the story only when a real share of the heap (an eighth or more) sits in free holes:
  // a heap filled by live tensors with a few MB of gaps left is full, and says so below.
  if (free_inside + growable >= double(nbytes) && free_inside * 8 >= top)
    fail(kOp, kWhat, nbytes, " bytes: ", mb(free_inside), " MB of the heap are free but not in one piece that large "
         "(memory freed between tensors that are still live), and the heap can grow by only ", mb(growable),
         " MB more (its limit is ", mb(limit), " MB)");
  fail(kOp, kWhat, nbytes, " bytes: the heap is at ", mb(top), " MB of its ", mb(limit), " MB limit, ",
       mb(free_inside), " MB of it free");
#else
  fail(kOp, kWhat, nbytes, " bytes");
#endif
}
}  // namespace

Storage::Storage(int64_t nbytes) : size_(nbytes) {
  TP_ASSERT(nbytes >= 0 && nbytes <= kMaxBytes);
  // Allocated in 8-byte units so every dtype's elements are aligned (malloc aligns to at least 8).
  data_.reset(reinterpret_cast<uint8_t*>(new (std::nothrow) uint64_t[size_t(std::max<int64_t>((nbytes + 7) / 8, 1))]));
  if (!data_) fail_out_of_memory(nbytes);
  g_live_bytes += nbytes;
  ++g_live_buffers;
}

Storage::~Storage() {
  g_live_bytes -= size_;
  --g_live_buffers;
}

int64_t Storage::live_bytes() { return g_live_bytes.load(); }
int64_t Storage::live_buffers() { return g_live_buffers.load(); }

int64_t checked_numel(const char* op, const Shape& shape, DType dtype) {
  const int64_t max_elements = kMaxBytes / itemsize(dtype);
  if (shape.size() > 16) fail(op, "shape ", shape, " has ", shape.size(), " dims; at most 16 are supported");
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) fail(op, "shape ", shape, " has a negative dimension");
    empty = empty || d == 0;
  }
  // A 0 anywhere makes the tensor empty however large the other dims are (as torch: zeros(0, 2**40)),
  // but its strides are still products of those dims and must fit in 64 bits.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d == 0) continue;
    if (n > std::numeric_limits<int64_t>::max() / d)
      fail(op, "shape ", shape, " has 0 elements but its other dims multiply past 2^63 (their strides would overflow)");
    n *= d;
    if (!empty && n > max_elements)
      fail(op, "shape ", shape, " is too large (more than ", max_elements, " elements",
           dtype == DType::Float32 ? "" : " of ", dtype == DType::Float32 ? "" : dtype_name(dtype), ")");
  }
  return empty ? 0 : n;
}

Shape contiguous_strides(const Shape& shape) {
  Shape s(shape.size());
  int64_t acc = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    s[size_t(d)] = acc;
    acc *= std::max<int64_t>(shape[size_t(d)], 1);
  }
  return s;
}

int64_t wrap_dim(const char* op, int64_t dim, int64_t ndim) {
  const int64_t lo = ndim == 0 ? -1 : -ndim, hi = ndim == 0 ? 0 : ndim - 1;
  if (dim < lo || dim > hi)
    fail(op, "dim ", dim, " is out of range for a ", ndim, "-d tensor (expected ", lo, "..", hi, ")");
  return dim < 0 ? dim + std::max<int64_t>(ndim, 1) : dim;
}

Tensor::Tensor() : storage_(std::make_shared<Storage>(4)) { data()[0] = 0.f; }

Tensor::Tensor(std::shared_ptr<Storage> storage, Shape shape, DType dtype)
    : storage_(std::move(storage)), shape_(std::move(shape)), strides_(contiguous_strides(shape_)), dtype_(dtype) {}

Tensor Tensor::empty(const Shape& shape, const char* op) { return empty(shape, DType::Float32, op); }

Tensor Tensor::empty(const Shape& shape, DType dtype, const char* op) {
  const int64_t n = checked_numel(op, shape, dtype);
  return Tensor(std::make_shared<Storage>(n * itemsize(dtype)), shape, dtype);
}

Tensor Tensor::zeros(const Shape& shape, const char* op) { return full(shape, 0.f, op); }

Tensor Tensor::zeros(const Shape& shape, DType dtype, const char* op) {
  Tensor t = empty(shape, dtype, op);
  if (t.numel()) std::memset(t.raw(), 0, size_t(t.numel() * itemsize(dtype)));  // 0 is all-zero bytes in every dtype
  return t;
}

Tensor Tensor::full(const Shape& shape, double value, DType dtype, const char* op) {
  if (dtype == DType::Float32) return full(shape, float(value), op);
  Tensor t = empty(shape, dtype, op);
  uint8_t one[8];
  from_double(dtype, value, one);
  const int64_t size = itemsize(dtype), n = t.numel();
  uint8_t* p = static_cast<uint8_t*>(t.raw());
  if (size == 1) {
    std::memset(p, one[0], size_t(n));
  } else {
    for (int64_t i = 0; i < n; ++i) std::memcpy(p + i * size, one, size_t(size));
  }
  return t;
}

Tensor Tensor::full(const Shape& shape, float value, const char* op) {
  Tensor t = empty(shape, op);
  std::fill_n(t.data(), t.numel(), value);
  return t;
}

Tensor Tensor::scalar(float value) { return full({}, value); }

Tensor Tensor::from(const Shape& shape, const float* data) {
  Tensor t = empty(shape);
  if (t.numel()) std::memcpy(t.data(), data, size_t(t.numel()) * sizeof(float));
  return t;
}

Tensor Tensor::view(const Shape& shape, const Shape& strides, int64_t offset) const {
  TP_ASSERT(shape.size() == strides.size());
  Tensor t = *this;
  t.shape_ = shape;
  t.strides_ = strides;
  t.offset_ = offset;
  return t;
}

int64_t Tensor::numel() const {
  // Multiplying in order could overflow before reaching a 0 (checked_numel allows [2^40, 2^40, 0]).
  int64_t n = 1;
  for (int64_t d : shape_) {
    if (d == 0) return 0;
    n *= d;
  }
  return n;
}

int64_t Tensor::size(int64_t d) const { return shape_[size_t(wrap_dim("size", d, dim()))]; }

bool Tensor::is_contiguous() const {
  int64_t expect = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (shape_[size_t(d)] != 1 && strides_[size_t(d)] != expect) return false;
    expect *= shape_[size_t(d)];
  }
  return true;
}

Tensor Tensor::contiguous() const { return is_contiguous() ? *this : clone(); }


Tensor Tensor::clone() const {
  Tensor out = empty(shape_, dtype_);
  if (out.numel() == 0) return out;
  if (is_contiguous()) {
    std::memcpy(out.raw(), raw(), size_t(out.numel() * itemsize(dtype_)));
    return out;
  }
  return convert_into(std::move(out));
}

Tensor Tensor::to(DType dtype) const {
  if (dtype == dtype_) return *this;
  Tensor out = empty(shape_, dtype, "to");
  return out.numel() == 0 ? out : convert_into(std::move(out));
}

// Writes this tensor's elements into `out` (same shape, any dtype and layout), converting; float32 to
// float32 (clone of a view, cat's parts) copies. One walk (one strided_rows instance) for all of it: a
// walk for each was ~1.5 KB of the WebAssembly module.
Tensor Tensor::convert_into(Tensor out) const {
  const DType dtype = out.dtype_;
  const uint8_t* src = storage_->bytes();
  uint8_t* dst = static_cast<uint8_t*>(out.raw());
  const int64_t ss = itemsize(dtype_), ds = itemsize(dtype);
  const bool f32 = dtype_ == DType::Float32 && dtype == DType::Float32;
  const int64_t nd = dim();
  // When the last two dims of a float32 view are a transposed matrix (x.T, x.transpose(-2, -1)), each
  // matrix is copied in square tiles so both the reads and the writes stay within a few cache lines:
  // the walk then visits the outer dims with a unit last dim. Otherwise it goes row by row.
  const bool tiles =
      f32 && nd >= 2 && out.is_contiguous() && strides_[size_t(nd - 2)] == 1 && shape_[size_t(nd - 1)] > 1 &&
      shape_[size_t(nd - 2)] > 1;
  const int64_t rows = tiles ? shape_[size_t(nd - 2)] : 0, cols = tiles ? shape_[size_t(nd - 1)] : 0;
  const int64_t col_stride = tiles ? strides_[size_t(nd - 1)] : 0;
  const Shape* walk[3] = {&shape_, &strides_, &out.strides_};
  Shape outer[3];
  if (tiles) {
    for (int k = 0; k < 3; ++k) {
      outer[k] = Shape(walk[k]->begin(), walk[k]->end() - 1);  // out's outer strides count whole matrices
      outer[k].back() = k == 0 ? 1 : 0;
      walk[k] = &outer[k];
    }
  }
  strided_rows<2>(*walk[0], {walk[1], walk[2]}, {offset_, 0},
                  // Inlined into the walk: as a call per row it made the rows of a permuted view ~25% slower.
                  [&](const std::array<int64_t, 2>& o, int64_t n, const std::array<int64_t, 2>& s)
                      __attribute__((always_inline)) {
                    if (!f32) return convert_strided(dtype_, src + o[0] * ss, s[0], dtype, dst + o[1] * ds, s[1], n);
                    if (tiles)
                      return transpose_tiles(reinterpret_cast<const float*>(src) + o[0], col_stride,
                                             reinterpret_cast<float*>(dst) + o[1], rows, cols);
                    const float* __restrict a = reinterpret_cast<const float*>(src) + o[0];
                    float* __restrict b = reinterpret_cast<float*>(dst) + o[1];
                    // unit-stride rows (a permute that keeps the last dim, cat's parts)
                    if (s[0] == 1 && s[1] == 1) return copy_floats(b, a, n);
                    for (int64_t i = 0; i < n; ++i) b[i * s[1]] = a[i * s[0]];
                  });
  return out;
}

float Tensor::item() const {
  if (dtype_ == DType::Float32) {
    if (numel() != 1) fail("item", "a tensor of shape ", shape_, " has ", numel(), " elements, not one");
    return data()[0];
  }
  return float(item_double());
}

double Tensor::item_double() const {
  if (numel() != 1) fail("item", "a tensor of shape ", shape_, " has ", numel(), " elements, not one");
  return to_double(dtype_, raw());
}

// An error, once: compiled for size.
TP_FOR_SIZE void Tensor::dtype_mismatch(DType want) const {
  fail("dtype", "expected a ", dtype_name(want), " tensor, got ", dtype_name(dtype_), " of shape ", shape_);
}

}  // namespace tp
