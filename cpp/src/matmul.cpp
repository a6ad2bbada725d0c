// matmul with torch's rules (1-D, 2-D, batched with broadcast batch dims), outer, and linear (float32 or
// 16-bit weights), on the packed GEMM.
#include <algorithm>

#include "tensorpad/elementwise_dtype.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/ops.hpp"

namespace tp {

namespace {
// batch's dims, then r and c, in one allocation: a matmul of small tensors is mostly per-call work like
// this (three copies grown by push_back cost it ~8%; insert's {r, c} was an instance of its own).
Shape batch_then(const Shape& batch, int64_t r, int64_t c) {
  Shape s(batch.size() + 2);
  std::copy(batch.begin(), batch.end(), s.begin());
  s[batch.size()] = r;
  s[batch.size() + 1] = c;
  return s;
}
}  // namespace

Tensor matmul(const Tensor& a_in, const Tensor& b_in) {
  // a is (..., m, k), b is (..., k, n), out is (broadcast(...), m, n); 1-D operands gain and lose a dim.
  if (a_in.dtype() != DType::Float32 || b_in.dtype() != DType::Float32) return matmul_typed(a_in, b_in);
  if (a_in.dim() == 0 || b_in.dim() == 0)
    fail("matmul", "both operands need at least 1 dim, got shapes ", a_in.shape(), " and ",
         b_in.shape());
  const bool a_vec = a_in.dim() == 1, b_vec = b_in.dim() == 1;
  const Tensor a = a_vec ? unsqueeze(a_in, 0) : a_in;
  const Tensor b = b_vec ? unsqueeze(b_in, 1) : b_in;
  const int64_t m = a.size(-2), k = a.size(-1), kb = b.size(-2), n = b.size(-1);
  if (k != kb)
    fail("matmul", "shapes ", a_in.shape(), " and ", b_in.shape(), " do not align (", k,
         " != ", kb, ")");
  const Shape batch_a(a.shape().begin(), a.shape().end() - 2), batch_b(b.shape().begin(), b.shape().end() - 2);
  for (size_t i = 1; i <= std::min(batch_a.size(), batch_b.size()); ++i) {
    const int64_t da = batch_a[batch_a.size() - i], db = batch_b[batch_b.size() - i];
    if (da != db && da != 1 && db != 1)
      fail("matmul", "shapes ", a_in.shape(), " and ", b_in.shape(),
           " have batch dims that do not broadcast (", da, " vs ", db, ")");
  }
  const Shape batch = broadcast_shapes("matmul", batch_a, batch_b);

  const Shape full_a = batch_then(batch, m, k), full_b = batch_then(batch, k, n), out_shape = batch_then(batch, m, n);
  const Tensor ea = expand(a, full_a), eb = expand(b, full_b);
  Tensor out = Tensor::empty(out_shape);

  const int64_t nb = out.numel() / std::max<int64_t>(m * n, 1);
  const size_t bd = batch.size();
  // A linear layer, X [..., m, k] @ W [k, n]: when W is shared by every batch and X is contiguous, the
  // batch folds into one product of nb*m rows, so W's panels are packed once, not once per batch.
  bool fold = nb > 1 && m * n > 0 && ea.strides()[bd] == k && ea.strides()[bd + 1] == 1;
  int64_t expect = m * k;
  for (int64_t d = int64_t(bd) - 1; d >= 0 && fold; --d) {
    fold = batch[size_t(d)] == 1 || (eb.strides()[size_t(d)] == 0 && ea.strides()[size_t(d)] == expect);
    expect *= batch[size_t(d)];
  }
  if (fold)
    kernels::sgemm(nb * m, n, k, ea.data(), k, 1, eb.data(), eb.strides()[bd], eb.strides()[bd + 1], out.data(), n,
                   false);
  std::vector<int64_t> idx(bd, 0);
  for (int64_t i = 0; i < nb && m * n > 0 && !fold; ++i) {
    int64_t oa = 0, ob = 0;
    for (size_t d = 0; d < bd; ++d) {
      oa += idx[d] * ea.strides()[d];
      ob += idx[d] * eb.strides()[d];
    }
    kernels::sgemm(m, n, k, ea.data() + oa, ea.strides()[bd], ea.strides()[bd + 1], eb.data() + ob,
                   eb.strides()[bd], eb.strides()[bd + 1], out.data() + i * m * n, n, false);
    for (int64_t d = int64_t(bd) - 1; d >= 0 && ++idx[size_t(d)] == batch[size_t(d)]; --d) idx[size_t(d)] = 0;
  }
  Tensor r = out;
  if (a_vec) r = select(r, -2, 0);
  if (b_vec) r = select(r, -1, 0);
  return r;
}

Tensor linear(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias) {
  // x is (..., in), w is (out, in), bias is (out) or none, y is (..., out).
  if (x.dtype() != DType::Float32)
    fail("linear", "x must be float32, got ", dtype_name(x.dtype()), " of shape ", x.shape());
  if (x.dim() == 0) fail("linear", "x needs at least 1 dim [.., in], got a 0-d tensor");
  if (w.dim() != 2) fail("linear", "weight must be 2-D [out, in], got shape ", w.shape());
  const DType wt = w.dtype();
  if (wt != DType::Float32 && wt != DType::BFloat16 && wt != DType::Float16)
    fail("linear", "weight must be float32, bfloat16 or float16, got ", dtype_name(wt));
  const int64_t out = w.size(0), in = w.size(1);
  if (x.size(-1) != in)
    fail("linear", "x's last dim ", x.size(-1), " does not match the weight's ", in, " input features (x ",
         x.shape(), ", weight ", w.shape(), ")");
  if (bias) {
    if (bias->dtype() != DType::Float32 || bias->dim() != 1 || bias->size(0) != out)
      fail("linear", "bias must be float32 of shape [", out, "], got ", dtype_name(bias->dtype()), " of shape ",
           bias->shape());
  }
  const Tensor xc = x.contiguous();
  int64_t rows = 1;
  for (int64_t d = 0; d + 1 < x.dim(); ++d) rows *= x.size(d);
  Shape out_shape = x.shape();
  out_shape.back() = out;
  Tensor y = Tensor::empty(out_shape, "linear");
  if (rows == 0 || out == 0) return y;
  // B = w^T: B(p, j) = w[j, p], read through w's strides (a transposed or sliced weight costs no copy).
  const int64_t rsb = w.strides()[1], csb = w.strides()[0];
  if (wt == DType::Float32)
    kernels::sgemm(rows, out, in, xc.data(), in, 1, w.data(), rsb, csb, y.data(), out, false);
  else
    kernels::sgemm_half(rows, out, in, xc.data(), in, 1, static_cast<const uint16_t*>(w.raw()), rsb, csb,
                        wt == DType::BFloat16 ? Half::BF16 : Half::F16, y.data(), out, false);
  if (bias) {
    const float* b = bias->data();
    const int64_t sb = bias->strides()[0];
    float* yp = y.data();
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < out; ++j) yp[i * out + j] += b[j * sb];
  }
  return y;
}

Tensor outer(const Tensor& a, const Tensor& b) {
  // a is (m), b is (n), out is (m, n) with out[i, j] = a[i] * b[j].
  if (a.dim() != 1 || b.dim() != 1)
    fail("outer", "expects two 1-D tensors, got shapes ", a.shape(), " and ", b.shape());
  return binary(BinaryOp::Mul, unsqueeze(a, 1), unsqueeze(b, 0));
}

}  // namespace tp
