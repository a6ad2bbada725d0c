// torch's ranges and layout ops beyond the basic views: linspace/logspace; split, chunk, flatten,
// unflatten, squeeze (views); flip, roll, repeat, tile, tril/triu (copies).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "tensorpad/ops.hpp"
#include "tensorpad/ops_extra.hpp"
#include "tensorpad/strided.hpp"

namespace tp {

namespace {

void check_steps(const char* op, double start, double end, int64_t steps) {
  if (steps < 0) fail(op, "number of steps must be non-negative, got ", steps);
  if (steps > kMaxElements) fail(op, steps, " steps is too many (at most 2^29)");
  if (std::isnan(start) || std::isnan(end)) fail(op, "start and end must not be NaN, got ", start, " and ", end);
}

// Element i of linspace(start, end, steps), as torch computes it: counted from the nearer end.
double linspace_at(double start, double end, int64_t steps, int64_t i) {
  if (steps == 1) return start;
  const double step = (end - start) / double(steps - 1);
  return i < steps / 2 ? start + step * double(i) : end - step * double(steps - 1 - i);
}

// Each dim in dims wrapped and marked (a repeat is an error naming the list).
std::vector<uint8_t> marked_dims(const char* op, const std::vector<int64_t>& dims, int64_t ndim) {
  std::vector<uint8_t> on(size_t(std::max<int64_t>(ndim, 1)), false);
  for (int64_t d : dims) {
    const size_t w = size_t(wrap_dim(op, d, ndim));
    if (on[w]) fail(op, "dim ", d, " appears twice in ", dims);
    on[w] = true;
  }
  return on;
}

// out (contiguous, x's shape and dtype) gets x read through `strides` from `offset` (x's storage),
// element by element as bytes: one loop per element size, whatever the dtype.
template <class E>
void copy_elements(const Shape& shape, const Shape& ostrides, const Shape& strides, int64_t offset, E* o, const E* base) {
  strided_rows<2>(shape, {&ostrides, &strides}, {0, offset},
                  [&](const std::array<int64_t, 2>& at, int64_t n, const std::array<int64_t, 2>& st) {
                    for (int64_t i = 0; i < n; ++i) o[at[0] + i * st[0]] = base[at[1] + i * st[1]];
                  });
}
Tensor copy_through(const Tensor& x, const Shape& strides, int64_t offset) {
  Tensor out = Tensor::empty(x.shape(), x.dtype());
  if (out.numel() == 0) return out;
  const Shape ostrides = contiguous_strides(x.shape());
  const int64_t isz = itemsize(x.dtype());
  const auto* base = static_cast<const uint8_t*>(x.raw()) - x.offset() * isz;  // the storage's first element
  void* o = out.raw();
  switch (isz) {
    case 1: copy_elements(x.shape(), ostrides, strides, offset, static_cast<uint8_t*>(o), base); break;
    case 2: copy_elements(x.shape(), ostrides, strides, offset, static_cast<uint16_t*>(o), reinterpret_cast<const uint16_t*>(base)); break;
    case 4: copy_elements(x.shape(), ostrides, strides, offset, static_cast<uint32_t*>(o), reinterpret_cast<const uint32_t*>(base)); break;
    default:
      TP_ASSERT(isz == 8);
      copy_elements(x.shape(), ostrides, strides, offset, static_cast<uint64_t*>(o), reinterpret_cast<const uint64_t*>(base));
  }
  return out;
}

}  // namespace

// ---- ranges ----

Tensor linspace(double start, double end, int64_t steps, DType dtype) {
  // out is (steps), each value in double, then converted to dtype
  check_steps("linspace", start, end, steps);
  Tensor t = Tensor::empty({steps}, dtype, "linspace");
  auto* p = static_cast<uint8_t*>(t.raw());
  for (int64_t i = 0; i < steps; ++i) from_double(dtype, linspace_at(start, end, steps, i), p + i * itemsize(dtype));
  return t;
}

Tensor logspace(double start, double end, int64_t steps, double base, DType dtype) {
  // out is (steps)
  check_steps("logspace", start, end, steps);
  Tensor t = Tensor::empty({steps}, dtype, "logspace");
  auto* p = static_cast<uint8_t*>(t.raw());
  for (int64_t i = 0; i < steps; ++i)
    from_double(dtype, std::pow(base, linspace_at(start, end, steps, i)), p + i * itemsize(dtype));
  return t;
}

// ---- views ----

std::vector<Tensor> split_sizes(const Tensor& x, const std::vector<int64_t>& sizes, int64_t dim) {
  // x (..., n, ...) -> pieces (..., sizes[i], ...) along dim
  if (x.dim() == 0) fail("split", "cannot split a 0-d tensor");
  const int64_t d = wrap_dim("split", dim, x.dim()), n = x.shape()[size_t(d)];
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s < 0) fail("split", "split sizes must be non-negative, got ", sizes);
    total += s;
  }
  if (total != n)
    fail("split", "split sizes ", sizes, " add up to ", total, ", but dim ", dim, " of shape ",
         x.shape(), " has size ", n);
  std::vector<Tensor> out;
  int64_t at = 0;
  for (int64_t s : sizes) {
    out.push_back(narrow(x, d, at, s));
    at += s;
  }
  return out;
}

std::vector<Tensor> split(const Tensor& x, int64_t size, int64_t dim) {
  // x (..., n, ...) -> ceil(n / size) pieces (..., size, ...), the last (..., n % size, ...) if short
  if (x.dim() == 0) fail("split", "cannot split a 0-d tensor");
  const int64_t d = wrap_dim("split", dim, x.dim()), n = x.shape()[size_t(d)];
  if (size < 0 || (size == 0 && n > 0))
    fail("split", "split size must be positive, got ", size, " for dim ", dim, " of size ", n);
  if (n == 0) return {x};  // torch: one empty piece
  std::vector<int64_t> sizes;
  for (int64_t at = 0; at < n; at += size) sizes.push_back(std::min(size, n - at));
  return split_sizes(x, sizes, d);
}

std::vector<Tensor> chunk(const Tensor& x, int64_t chunks, int64_t dim) {
  if (x.dim() == 0) fail("chunk", "cannot chunk a 0-d tensor");
  if (chunks <= 0) fail("chunk", "chunks must be positive, got ", chunks);
  const int64_t d = wrap_dim("chunk", dim, x.dim()), n = x.shape()[size_t(d)];
  if (n == 0) return std::vector<Tensor>(size_t(chunks), x);  // torch: `chunks` empty pieces
  return split(x, (n + chunks - 1) / chunks, d);
}

Tensor flatten(const Tensor& x, int64_t start, int64_t end) {
  // x (a..., s..., b...) -> (a..., prod(s), b...) with s the dims start..end
  if (x.dim() == 0) {
    wrap_dim("flatten", start, 0);
    wrap_dim("flatten", end, 0);
    return reshape(x, {1});
  }
  const int64_t s = wrap_dim("flatten", start, x.dim()), e = wrap_dim("flatten", end, x.dim());
  if (s > e) fail("flatten", "start dim ", start, " comes after end dim ", end, " (shape ", x.shape(), ")");
  Shape shape(x.shape().begin(), x.shape().begin() + s);
  int64_t merged = 1;
  for (int64_t i = s; i <= e; ++i) merged *= x.shape()[size_t(i)];
  shape.push_back(merged);
  for (auto it = x.shape().begin() + e + 1; it != x.shape().end(); ++it) shape.push_back(*it);
  return reshape(x, shape);
}

Tensor unflatten(const Tensor& x, int64_t dim, const Shape& sizes) {
  // x (a..., n, b...) -> (a..., sizes..., b...) with prod(sizes) = n
  if (x.dim() == 0) fail("unflatten", "cannot unflatten a 0-d tensor");
  const int64_t d = wrap_dim("unflatten", dim, x.dim()), n = x.shape()[size_t(d)];
  if (sizes.empty()) fail("unflatten", "sizes must be non-empty");
  Shape want = sizes;
  int64_t infer = -1, known = 1;
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i] == -1 && infer < 0) infer = int64_t(i);
    else if (want[i] < 0) fail("unflatten", "invalid sizes ", sizes, " (at most one -1, others non-negative)");
    else known *= want[i];
  }
  if (infer >= 0) {
    if (known == 0 || n % known != 0)
      fail("unflatten", "sizes ", sizes, " cannot make dim ", dim, " of size ", n);
    want[size_t(infer)] = n / known;
  } else if (known != n) {
    fail("unflatten", "sizes ", sizes, " multiply to ", known, ", but dim ", dim, " of shape ",
         x.shape(), " has size ", n);
  }
  Shape shape(x.shape().begin(), x.shape().begin() + d);
  for (const auto& e : want) shape.push_back(e);
  for (auto it = x.shape().begin() + d + 1; it != x.shape().end(); ++it) shape.push_back(*it);
  return reshape(x, shape);
}

Tensor squeeze(const Tensor& x, const std::vector<int64_t>& dims, bool all) {
  // x (..., 1, ...) -> x without the size-1 dims chosen (a view)
  const std::vector<uint8_t> listed = marked_dims("squeeze", dims, x.dim());
  Shape shape, strides;
  for (int64_t d = 0; d < x.dim(); ++d) {
    const bool drop = x.shape()[size_t(d)] == 1 && (all || listed[size_t(d)]);
    if (drop) continue;
    shape.push_back(x.shape()[size_t(d)]);
    strides.push_back(x.strides()[size_t(d)]);
  }
  return x.view(shape, strides, x.offset());
}

// ---- copies ----

Tensor flip(const Tensor& x, const std::vector<int64_t>& dims) {
  // x (...) -> same shape, reversed along each dim in dims: read through negated strides from the far end
  const std::vector<uint8_t> on = marked_dims("flip", dims, x.dim());
  Shape strides = x.strides();
  int64_t offset = x.offset();
  for (size_t d = 0; d < size_t(x.dim()); ++d) {
    if (!on[d] || x.shape()[d] == 0) continue;
    offset += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  return copy_through(x, strides, offset);
}

Tensor roll(const Tensor& x, const std::vector<int64_t>& shifts, const std::vector<int64_t>& dims) {
  // x (...) -> same shape, out[(i + shift) mod n] = x[i] along each dim
  if (shifts.empty()) fail("roll", "shifts must be non-empty");
  if (dims.empty()) {
    if (shifts.size() != 1) fail("roll", "without dims, shifts must hold one value, got ", shifts);
    return reshape(roll(reshape(x, {-1}), shifts, {0}), x.shape());
  }
  if (shifts.size() != dims.size())
    fail("roll", "shifts ", shifts, " and dims ", dims, " must have the same length");
  Tensor out = x;
  for (size_t i = 0; i < dims.size(); ++i) {
    const int64_t d = wrap_dim("roll", dims[i], x.dim());
    if (x.dim() == 0) return x.clone();
    const int64_t n = x.shape()[size_t(d)];
    if (n == 0) continue;
    const int64_t s = ((shifts[i] % n) + n) % n;
    if (s == 0) continue;
    out = cat({narrow(out, d, n - s, s), narrow(out, d, 0, n - s)}, d);
  }
  return out.shares_storage(x) ? x.clone() : out;
}

Tensor repeat(const Tensor& x, const std::vector<int64_t>& reps) {
  // x (s0..., s_{d-1}) padded to r = len(reps) dims -> (reps[0]*s0', ..., reps[r-1]*s'_{r-1})
  if (int64_t(reps.size()) < x.dim())
    fail("repeat", "got ", reps.size(), " repeats ", reps, " for a ", x.dim(),
         "-d tensor; give at least one per dim");
  Shape padded(reps.size() - size_t(x.dim()), 1);
  for (const auto& e : x.shape()) padded.push_back(e);
  Shape out_shape;
  for (size_t i = 0; i < reps.size(); ++i) {
    if (reps[i] < 0) fail("repeat", "repeats must be non-negative, got ", reps);
    out_shape.push_back(reps[i] * padded[i]);
  }
  checked_numel("repeat", out_shape);
  // Each dim i read as (reps[i], s_i) with stride 0 over the repeats: a broadcast view, copied once.
  const Tensor p = reshape(x, padded);
  Shape shape, strides;
  for (size_t i = 0; i < reps.size(); ++i) {
    shape.push_back(reps[i]); shape.push_back(padded[i]);
    strides.push_back(0); strides.push_back(p.strides()[i]);
  }
  const Tensor wide = p.view(shape, strides, p.offset());
  return reshape(copy_through(wide, wide.strides(), wide.offset()), out_shape);
}

Tensor tile(const Tensor& x, std::vector<int64_t> reps) {
  if (int64_t(reps.size()) < x.dim()) reps.insert(reps.begin(), size_t(x.dim()) - reps.size(), 1);
  return repeat(x, reps);
}

namespace {
// x (*, m, n), any dtype -> a copy with element (i, j) zeroed where zero(j - i).
template <class Zero>
Tensor triangle(const char* op, const Tensor& x, Zero zero) {
  if (x.dim() < 2) fail(op, "expects a tensor of at least 2 dims, got shape ", x.shape());
  Tensor out = x.clone();
  const int64_t m = x.size(-2), n = x.size(-1), count = m * n == 0 ? 0 : out.numel() / (m * n);
  const int64_t isz = itemsize(x.dtype());
  auto* p = static_cast<uint8_t*>(out.raw());  // zero is all-zero bytes in every dtype
  for (int64_t b = 0; b < count; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        if (zero(j - i)) std::memset(p + ((b * m + i) * n + j) * isz, 0, size_t(isz));
  return out;
}
}  // namespace

Tensor tril(const Tensor& x, int64_t diagonal) {
  return triangle("tril", x, [diagonal](int64_t k) { return k > diagonal; });
}
Tensor triu(const Tensor& x, int64_t diagonal) {
  return triangle("triu", x, [diagonal](int64_t k) { return k < diagonal; });
}

}  // namespace tp
