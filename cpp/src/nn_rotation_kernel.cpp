// Hadamard matrices, the fast Walsh-Hadamard transform, and Gram-Schmidt orthonormalisation.
#include <cmath>
#include <vector>

#include "tensorpad/nn.hpp"

namespace tp::kernels {

void hadamard_f32(int64_t n, float* H) {
  TP_ASSERT(n > 0 && (n & (n - 1)) == 0);
  // Sylvester: H(i,j) = (-1)^popcount(i & j), the closed form of H_2n = [[H, H], [H, -H]].
  const float v = float(1.0 / std::sqrt(double(n)));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) H[i * n + j] = (__builtin_popcountll(uint64_t(i & j)) & 1) ? -v : v;
}

void fwht_f32(int64_t rows, int64_t d, int64_t block, float* x) {
  TP_ASSERT(block > 0 && (block & (block - 1)) == 0 && d % block == 0);
  const float norm = float(1.0 / std::sqrt(double(block)));
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b0 = 0; b0 < d; b0 += block) {
      float* v = x + r * d + b0;
      // log2(block) butterfly stages; stage h pairs entries h apart. The inner loop is contiguous, so
      // the compiler vectorises it once h >= 4.
      for (int64_t h = 1; h < block; h *= 2) {
        for (int64_t i = 0; i < block; i += 2 * h) {
          float* lo = v + i;
          float* hi = v + i + h;
          for (int64_t j = 0; j < h; ++j) {
            const float a = lo[j], b = hi[j];
            lo[j] = a + b;
            hi[j] = a - b;
          }
        }
      }
      for (int64_t j = 0; j < block; ++j) v[j] *= norm;
    }
  }
}

void fwht_ref(int64_t rows, int64_t d, int64_t block, float* x) {
  std::vector<float> H(block * block);
  hadamard_f32(block, H.data());
  std::vector<double> out(block);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b0 = 0; b0 < d; b0 += block) {
      float* v = x + r * d + b0;
      for (int64_t j = 0; j < block; ++j) {
        double s = 0;
        for (int64_t p = 0; p < block; ++p) s += double(v[p]) * H[p * block + j];
        out[j] = s;
      }
      for (int64_t j = 0; j < block; ++j) v[j] = float(out[j]);
    }
  }
}

void orthonormalize_columns(int64_t n, const double* G, float* Q) {
  // Work on the columns of G as contiguous rows of Gᵀ.
  std::vector<double> c(n * n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) c[j * n + i] = G[i * n + j];
  for (int64_t j = 0; j < n; ++j) {
    double* cj = c.data() + j * n;
    // Modified Gram-Schmidt: remove each earlier direction from the current column as it stands.
    for (int64_t p = 0; p < j; ++p) {
      const double* cp = c.data() + p * n;
      double dot = 0;
      for (int64_t t = 0; t < n; ++t) dot += cp[t] * cj[t];
      for (int64_t t = 0; t < n; ++t) cj[t] -= dot * cp[t];
    }
    double nrm = 0;
    for (int64_t t = 0; t < n; ++t) nrm += cj[t] * cj[t];
    nrm = std::sqrt(nrm);  // R(j,j) > 0: this is already the sign-fixed Q
    TP_ASSERT(nrm > 0);
    for (int64_t t = 0; t < n; ++t) cj[t] /= nrm;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) Q[i * n + j] = float(c[j * n + i]);
}

}  // namespace tp::kernels
