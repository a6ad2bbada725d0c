// Views and layout: reshape, transpose, permute, select, narrow, expand, stack, cat; eye and arange.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "for_size.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

// The views stay at the file's -O3: at minsize (TP_FOR_SIZE), with checked_numel, broadcast_shapes and
// reduced_dims, they took ~1.0 KB gzipped off the module but 4-10% more time per call on small tensors
// through the JS API (reshape, narrow, expand +0.06-0.1 us, matmul of a vector +0.25 us; Node, 2026-12-03).
// Their failed checks throw from TP_COLD_FAIL lambdas (for_size.hpp): the -O3 code carries a call there,
// not the message's pieces.

Tensor eye(int64_t n, int64_t m) {
  if (m < 0) m = n;
  if (n < 0 || m < 0) fail("eye", "sizes must be non-negative, got ", n, " x ", m);
  checked_numel("eye", {n, m});
  Tensor t = Tensor::zeros({n, m});
  TP_SCALAR_LOOP for (int64_t i = 0; i < std::min(n, m); ++i) t.data()[i * m + i] = 1.f;
  return t;
}

Tensor arange(double start, double end, double step, DType dtype) {
  if (!std::isfinite(start) || !std::isfinite(end) || !std::isfinite(step))
    fail("arange", "start, end and step must be finite, got ", start, ", ", end, ", ", step);
  if (step == 0) fail("arange", "step must be non-zero");
  if ((end - start) * step < 0)
    fail("arange", "step ", step, " goes away from end ", end, " when starting at ", start);
  const double count = std::ceil((end - start) / step);
  if (count > double(kMaxBytes / itemsize(dtype))) fail("arange", "would make ", count, " elements, too many");
  const int64_t n = int64_t(std::max(0.0, count));
  Tensor t = Tensor::empty({n}, dtype, "arange");
  if (dtype == DType::Float32) {
    float* p = t.data();
    // Scalar here and below: WebAssembly SIMD has no int64 -> double lanes, so vectorized, each lane's
    // double(i) went out and back one at a time.
    TP_SCALAR_LOOP for (int64_t i = 0; i < n; ++i) p[i] = float(start + double(i) * step);
    return t;
  }
  // Other dtypes: each value computed in double, then converted (exact for integers within 2^53).
  double buf[256];
  uint8_t* out = static_cast<uint8_t*>(t.raw());
  for (int64_t i0 = 0; i0 < n; i0 += 256) {
    const int64_t m = std::min<int64_t>(256, n - i0);
    TP_SCALAR_LOOP for (int64_t i = 0; i < m; ++i) buf[i] = start + double(i0 + i) * step;
    store_block(dtype, buf, m, out + i0 * itemsize(dtype), 1);
  }
  return t;
}

namespace {
// The product of shape's dims but dim `skip`, saturated at INT64_MAX (0 if any is 0).
int64_t product_but(const Shape& shape, int64_t skip) {
  int64_t k = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (int64_t(i) == skip) continue;
    if (shape[i] == 0) return 0;
    k = k > std::numeric_limits<int64_t>::max() / shape[i] ? std::numeric_limits<int64_t>::max() : k * shape[i];
  }
  return k;
}
}  // namespace

Tensor reshape(const Tensor& x, Shape shape) {
  int64_t infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer >= 0) [&]() TP_COLD_FAIL { fail("reshape", "only one dimension can be -1, got ", shape); }();
      infer = int64_t(i);
    } else if (shape[i] < 0) {
      [&]() TP_COLD_FAIL { fail("reshape", "invalid dimension ", shape[i], " in ", shape); }();
    }
  }
  const int64_t n = x.numel();
  const auto cannot = [&](const auto&... why) TP_COLD_FAIL {
    fail("reshape", "cannot reshape a tensor of shape ", x.shape(), " (", n, " elements) into ",
         shape, why...);
  };
  if (infer >= 0) {
    const int64_t k = product_but(shape, infer);
    if (k == 0) cannot(": with a 0 among the other dims, -1 could be any size");
    if (n % k != 0) cannot(": ", n, " is not a multiple of ", k);
    shape[size_t(infer)] = n / k;
  }
  const int64_t m = product_but(shape, -1);
  if (m != n)
    [&]() TP_COLD_FAIL {
      cannot(" (", m == std::numeric_limits<int64_t>::max() ? "more than 2^63" : std::to_string(m), " elements)");
    }();
  checked_numel("reshape", shape);  // an empty shape's other dims must still give 64-bit strides
  const Tensor c = x.contiguous();
  return c.view(shape, contiguous_strides(shape), c.offset());
}

Tensor transpose(const Tensor& x, int64_t d0, int64_t d1) {
  if (x.dim() < 2 && d0 == d1 && (d0 == 0 || d0 == -1)) return x;
  if (x.dim() < 1) return x;
  const size_t a = size_t(wrap_dim("transpose", d0, x.dim())), b = size_t(wrap_dim("transpose", d1, x.dim()));
  Shape shape = x.shape(), strides = x.strides();
  std::swap(shape[a], shape[b]);
  std::swap(strides[a], strides[b]);
  return x.view(shape, strides, x.offset());
}

Tensor permute(const Tensor& x, const Shape& dims) {
  if (int64_t(dims.size()) != x.dim())
    [&]() TP_COLD_FAIL { fail("permute", "got ", dims.size(), " dims ", dims, " for a ", x.dim(), "-d tensor"); }();
  Shape shape(dims.size()), strides(dims.size());
  std::vector<uint8_t> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = size_t(wrap_dim("permute", dims[i], x.dim()));
    if (seen[d]) [&]() TP_COLD_FAIL { fail("permute", "dim ", dims[i], " appears twice in ", dims); }();
    seen[d] = true;
    shape[i] = x.shape()[d];
    strides[i] = x.strides()[d];
  }
  return x.view(shape, strides, x.offset());
}

Tensor select(const Tensor& x, int64_t dim, int64_t index) {
  if (x.dim() == 0) fail("select", "cannot select from a 0-d tensor");
  const size_t d = size_t(wrap_dim("select", dim, x.dim()));
  const int64_t n = x.shape()[d];
  if (index < -n || index >= n)
    [&]() TP_COLD_FAIL { fail("select", "index ", index, " is out of range for dim ", dim, " of size ", n); }();
  if (index < 0) index += n;
  Shape shape = x.shape(), strides = x.strides();
  const int64_t offset = x.offset() + index * strides[d];
  shape.erase(shape.begin() + int64_t(d));
  strides.erase(strides.begin() + int64_t(d));
  return x.view(shape, strides, offset);
}

Tensor narrow(const Tensor& x, int64_t dim, int64_t start, int64_t length) {
  if (x.dim() == 0) fail("narrow", "cannot narrow a 0-d tensor");
  const size_t d = size_t(wrap_dim("narrow", dim, x.dim()));
  const int64_t n = x.shape()[d];
  if (start < 0 && start >= -n) start += n;
  if (start < 0 || length < 0 || start + length > n)
    [&]() TP_COLD_FAIL {
      fail("narrow", "start ", start, " and length ", length, " do not fit in dim ", dim, " of size ", n);
    }();
  Shape shape = x.shape();
  shape[d] = length;
  return x.view(shape, x.strides(), x.offset() + start * x.strides()[d]);
}

Tensor expand(const Tensor& x, const Shape& shape) {
  if (int64_t(shape.size()) < x.dim())
    [&]() TP_COLD_FAIL { fail("expand", "cannot expand shape ", x.shape(), " to fewer dims ", shape); }();
  checked_numel("expand", shape);
  const size_t lead = shape.size() - size_t(x.dim());
  Shape strides(shape.size(), 0);
  for (size_t i = 0; i < size_t(x.dim()); ++i) {
    const int64_t have = x.shape()[i], want = shape[lead + i];
    if (have == want) strides[lead + i] = x.strides()[i];
    else if (have != 1)
      [&]() TP_COLD_FAIL { fail("expand", "shape ", x.shape(), " cannot be broadcast to ", shape); }();
  }
  return x.view(shape, strides, x.offset());
}

Tensor unsqueeze(const Tensor& x, int64_t dim) {
  const size_t d = size_t(wrap_dim("unsqueeze", dim, x.dim() + 1));
  // Built element by element rather than by vector::insert, whose instance (this its only caller) was
  // 1.3 KB of the WebAssembly module at -O3; zero-filled (a memset) with the new dim set after, not
  // filled with ones, which -O3 wrote as two vectorised fill loops for vectors of at most 17 values.
  Shape shape(size_t(x.dim()) + 1), strides(shape.size());
  for (size_t i = 0, j = 0; i < shape.size(); ++i) {
    if (i == d) {
      shape[i] = strides[i] = 1;
      continue;
    }
    shape[i] = x.shape()[j];
    strides[i] = x.strides()[j++];
  }
  return x.view(shape, strides, x.offset());
}

namespace {
// Copies src into the same-shaped view dst (dst's storage is written through), converting its dtype.
void copy_into(Tensor dst, const Tensor& src) {
  TP_ASSERT(dst.shape() == src.shape());
  src.convert_into(std::move(dst));  // the walk clone and to() take (one strided_rows instance)
}
}  // namespace

Tensor cat(const std::vector<Tensor>& xs, int64_t dim) {
  if (xs.empty()) fail("cat", "expected a non-empty list of tensors");
  for (size_t i = 0; i < xs.size(); ++i)
    if (xs[i].dim() == 0) fail("cat", "zero-dimensional tensors cannot be concatenated (tensor ", i, ")");
  // torch's legacy rule: a 1-d empty tensor (shape [0]) joins anything, as nothing.
  const auto skipped = [](const Tensor& x) { return x.dim() == 1 && x.numel() == 0; };
  const auto kept = std::find_if(xs.begin(), xs.end(), [&](const Tensor& x) { return !skipped(x); });
  const Tensor& first = kept == xs.end() ? xs[0] : *kept;
  const size_t d = size_t(wrap_dim("cat", dim, first.dim()));
  Shape shape = first.shape();
  shape[d] = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const Tensor& x = xs[i];
    if (skipped(x) && &x != &first) continue;
    bool ok = x.dim() == first.dim();
    for (size_t k = 0; ok && k < shape.size(); ++k) ok = k == d || x.shape()[k] == first.shape()[k];
    if (!ok)
      fail("cat", "tensor ", i, " has shape ", x.shape(), ", which does not match ",
           first.shape(), " except in dim ", dim);
    shape[d] += x.shape()[d];
  }
  DType dtype = first.dtype();  // torch.cat promotes its inputs' dtypes
  for (const Tensor& x : xs) dtype = promote_types(dtype, x.dtype());
  Tensor out = Tensor::empty(shape, dtype);
  int64_t at = 0;
  for (const Tensor& x : xs) {
    if (skipped(x) && &x != &first) continue;
    copy_into(narrow(out, int64_t(d), at, x.shape()[d]), x);
    at += x.shape()[d];
  }
  return out;
}

Tensor stack(const std::vector<Tensor>& xs, int64_t dim) {
  if (xs.empty()) fail("stack", "expected a non-empty list of tensors");
  const int64_t d = wrap_dim("stack", dim, xs[0].dim() + 1);
  std::vector<Tensor> parts;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i].shape() != xs[0].shape())
      fail("stack", "tensor ", i, " has shape ", xs[i].shape(), " but tensor 0 has ",
           xs[0].shape(), "; all must match");
    parts.push_back(unsqueeze(xs[i], d));
  }
  return cat(parts, d);
}

}  // namespace tp
