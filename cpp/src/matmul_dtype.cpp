// matmul of dtypes other than float32: float64 computed in double; float16 and bfloat16 computed in
// float32 and rounded back (torch's CPU also accumulates them in float); other dtypes refused.
#include <algorithm>

#include "tensorpad/ops.hpp"

namespace tp {

namespace {

// out (m, n) = a (m, k) @ b (k, n), strided operands, in double; i-p-j order so b and out run along rows.
void dgemm_ref(int64_t m, int64_t n, int64_t k, const double* a, int64_t as0, int64_t as1, const double* b,
               int64_t bs0, int64_t bs1, double* out) {
  std::fill_n(out, m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p) {
      const double av = a[i * as0 + p * as1];
      const double* brow = b + p * bs0;
      double* orow = out + i * n;
      for (int64_t j = 0; j < n; ++j) orow[j] += av * brow[j * bs1];
    }
}

}  // namespace

void check_floating(const char* op, const Tensor& x) {
  if (!is_floating(x.dtype()))
    fail(op, "expected a floating tensor, got ", dtype_name(x.dtype()), " of shape ", x.shape());
}

Tensor matmul_typed(const Tensor& a, const Tensor& b) {
  check_floating("matmul", a);
  check_floating("matmul", b);
  if (a.dtype() != b.dtype())
    fail("matmul", "operands must have the same dtype (as torch), got ", dtype_name(a.dtype()), " ",
         a.shape(), " and ", dtype_name(b.dtype()), " ", b.shape());
  if (a.dtype() != DType::Float64) return matmul(a.to(DType::Float32), b.to(DType::Float32)).to(a.dtype());
  // float64: matmul's shape rules and messages, then the product per batch in double.
  if (a.dim() == 0 || b.dim() == 0)
    fail("matmul", "both operands need at least 1 dim, got shapes ", a.shape(), " and ", b.shape());
  const Tensor a2 = a.dim() == 1 ? unsqueeze(a, 0) : a, b2 = b.dim() == 1 ? unsqueeze(b, 1) : b;
  const int64_t m = a2.size(-2), k = a2.size(-1), n = b2.size(-1);
  if (k != b2.size(-2))
    fail("matmul", "shapes ", a.shape(), " and ", b.shape(), " do not align (", k, " != ",
         b2.size(-2), ")");
  const Shape batch = broadcast_shapes("matmul", Shape(a2.shape().begin(), a2.shape().end() - 2),
                                       Shape(b2.shape().begin(), b2.shape().end() - 2));
  Shape fa = batch, fb = batch, fo = batch;
  fa.push_back(m); fa.push_back(k);
  fb.push_back(k); fb.push_back(n);
  fo.push_back(m); fo.push_back(n);
  const Tensor ea = expand(a2, fa), eb = expand(b2, fb);
  Tensor out = Tensor::empty(fo, DType::Float64, "matmul");
  const size_t bd = batch.size();
  const int64_t nb = m * n > 0 ? out.numel() / (m * n) : 0;
  std::vector<int64_t> idx(bd, 0);
  const double* pa = ea.data_as<double>();
  const double* pb = eb.data_as<double>();
  double* po = out.data_as<double>();
  for (int64_t i = 0; i < nb; ++i) {
    int64_t oa = 0, ob = 0;
    for (size_t d = 0; d < bd; ++d) {
      oa += idx[d] * ea.strides()[d];
      ob += idx[d] * eb.strides()[d];
    }
    dgemm_ref(m, n, k, pa + oa, ea.strides()[bd], ea.strides()[bd + 1], pb + ob, eb.strides()[bd],
              eb.strides()[bd + 1], po + i * m * n);
    for (int64_t d = int64_t(bd) - 1; d >= 0 && ++idx[size_t(d)] == batch[size_t(d)]; --d) idx[size_t(d)] = 0;
  }
  Tensor r = out;
  if (a.dim() == 1) r = select(r, -2, 0);
  if (b.dim() == 1) r = select(r, -1, 0);
  return r;
}

}  // namespace tp
