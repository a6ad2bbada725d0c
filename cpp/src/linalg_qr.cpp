// Reduced QR by Householder reflectors (LAPACK geqrf + orgqr), computed in double.
#include <algorithm>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg {

using namespace detail;

// A is (m,n), Q is (m,k), R is (k,n), k = min(m,n).
void qr(const float* A, int64_t m, int64_t n, float* Q, float* R) {
  if (m < 0 || n < 0) fail("linalg.qr", "negative matrix size ", m, " x ", n);
  check_finite("linalg.qr", A, m * n);
  const int64_t k = std::min(m, n);
  ColMat W = load(A, m, n, false);
  std::vector<double> tau;
  householder_qr(W, tau);
  // R is the upper triangle of W; below it W holds reflector vectors, so write exact zeros there.
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j >= i ? float(W(i, j)) : 0.0f;
  const ColMat Qc = form_q(W, tau, k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) Q[i * k + j] = float(Qc(i, j));
}

}  // namespace tp::linalg
