// The trailing update of the blocked reductions (tridiagonal and bidiagonal): a rank-2b product
// subtracted from columns of a double work matrix, register-blocked in f64x2.
#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"

namespace tp::linalg::detail {

namespace {

// sum over p of A1(i, p) B1(j, p) + A2(i, p) B2(j, p), in p order.
inline double entry(const Rank2kOperands& o, int64_t i, int64_t j) {
  double s = 0.0;
  for (int64_t p = 0; p < o.b; ++p)
    s += o.a1[p * o.lda1 + i] * o.b1[j * o.b1j + p * o.b1p] + o.a2[p * o.lda2 + i] * o.b2[j * o.b2j + p * o.b2p];
  return s;
}

}  // namespace

void rank2k_update(ColMat& W, int64_t r0, int64_t j0, int64_t j1, bool lower, const Rank2kOperands& o) {
  const int64_t m = W.rows, b = o.b;
  // Columns go in blocks of 4, with B1 and B2 of the block packed side by side per p (8 doubles), and rows in
  // blocks of kRows, so the 2b columns of A1 and A2 they read (kRows x 2b doubles) stay in cache across
  // the column blocks. A 4x4 tile holds 8 f64x2 sums while p runs. Rows above a column's diagonal (lower)
  // and tiles cut by the ends go entry by entry: every entry is the same sum in the same order either way.
  constexpr int64_t kRows = 128;
  thread_local std::vector<double> packed;
  const int64_t blocks = (j1 - j0) / 4;
  packed.resize(size_t(blocks * 8 * b));
  for (int64_t q = 0; q < blocks; ++q)
    for (int64_t p = 0; p < b; ++p)
      for (int64_t c = 0; c < 4; ++c) {
        const int64_t j = j0 + 4 * q + c;
        packed[size_t((q * b + p) * 8 + c)] = o.b1[j * o.b1j + p * o.b1p];
        packed[size_t((q * b + p) * 8 + 4 + c)] = o.b2[j * o.b2j + p * o.b2p];
      }
  const int64_t first_row = lower ? j0 : r0;
  for (int64_t ib = first_row; ib < m; ib += kRows) {
    const int64_t ie = std::min(m, ib + kRows);
    for (int64_t q = 0; q < blocks; ++q) {
      const int64_t j = j0 + 4 * q;
      // Rows of this row block that all four columns take whole: below the block's diagonal corner.
      int64_t i = lower ? std::max(ib, j + 4) : ib;
      if (lower && ib <= j + 3 && j < ie)  // the corner: rows j..j+3, entries on and below the diagonal
        for (int64_t c = 0; c < 4; ++c)
          for (int64_t r = j + c; r < std::min(j + 4, ie); ++r)
            if (r >= ib) W(r, j + c) -= entry(o, r, j + c);
      const double* bq = packed.data() + q * b * 8;
      double* w0 = W.col(j);
      double* w1 = w0 + m;
      double* w2 = w1 + m;
      double* w3 = w2 + m;
      for (; i + 4 <= ie; i += 4) {
        d2 s00 = {0, 0}, s10 = s00, s01 = s00, s11 = s00, s02 = s00, s12 = s00, s03 = s00, s13 = s00;
        const double* a1 = o.a1 + i;
        const double* a2 = o.a2 + i;
        for (int64_t p = 0; p < b; ++p, a1 += o.lda1, a2 += o.lda2) {
          const d2 x0 = load2(a1), x1 = load2(a1 + 2), y0 = load2(a2), y1 = load2(a2 + 2);
          const double* bp = bq + p * 8;
          d2 c1 = {bp[0], bp[0]}, c2 = {bp[4], bp[4]};
          s00 += x0 * c1 + y0 * c2;
          s10 += x1 * c1 + y1 * c2;
          c1 = d2{bp[1], bp[1]}, c2 = d2{bp[5], bp[5]};
          s01 += x0 * c1 + y0 * c2;
          s11 += x1 * c1 + y1 * c2;
          c1 = d2{bp[2], bp[2]}, c2 = d2{bp[6], bp[6]};
          s02 += x0 * c1 + y0 * c2;
          s12 += x1 * c1 + y1 * c2;
          c1 = d2{bp[3], bp[3]}, c2 = d2{bp[7], bp[7]};
          s03 += x0 * c1 + y0 * c2;
          s13 += x1 * c1 + y1 * c2;
        }
        store2(w0 + i, load2(w0 + i) - s00);
        store2(w0 + i + 2, load2(w0 + i + 2) - s10);
        store2(w1 + i, load2(w1 + i) - s01);
        store2(w1 + i + 2, load2(w1 + i + 2) - s11);
        store2(w2 + i, load2(w2 + i) - s02);
        store2(w2 + i + 2, load2(w2 + i + 2) - s12);
        store2(w3 + i, load2(w3 + i) - s03);
        store2(w3 + i + 2, load2(w3 + i + 2) - s13);
      }
      for (; i < ie; ++i)
        for (int64_t c = 0; c < 4; ++c) W(i, j + c) -= entry(o, i, j + c);
    }
  }
  for (int64_t j = j0 + 4 * blocks; j < j1; ++j)  // the last columns, fewer than 4
    for (int64_t i = lower ? j : r0; i < m; ++i) W(i, j) -= entry(o, i, j);
}

}  // namespace tp::linalg::detail

namespace tp::linalg::detail {

bool float_updates_fit(const ColMat& W) {
  double amax = 0.0;
  for (double x : W.a) amax = std::max(amax, std::fabs(x));
  return amax >= 0x1p-32 && amax <= 0x1p32;
}

void pack_rank2k_float(const Rank2kOperands& o, int64_t r0, int64_t rows, int64_t c0, int64_t cols, float sign,
                       std::vector<float>& Af, std::vector<float>& Bf) {
  const int64_t b = o.b, k2 = 2 * b;
  Af.resize(size_t(rows * k2));
  Bf.resize(size_t(cols * k2));
  for (int64_t p = 0; p < b; ++p)
    for (int64_t i = 0; i < rows; ++i) {
      Af[size_t(p * rows + i)] = float(o.a1[p * o.lda1 + r0 + i]);
      Af[size_t((b + p) * rows + i)] = float(o.a2[p * o.lda2 + r0 + i]);
    }
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t p = 0; p < b; ++p) {
      Bf[size_t(j * k2 + p)] = sign * float(o.b1[(c0 + j) * o.b1j + p * o.b1p]);
      Bf[size_t(j * k2 + b + p)] = sign * float(o.b2[(c0 + j) * o.b2j + p * o.b2p]);
    }
}

void rank2k_update_float(ColMat& W, int64_t r0, int64_t c0, bool lower, const Rank2kOperands& o, int64_t c1) {
  // W (m, n) double, column-major; the update of rows [r0, m) and columns [c0, c1) (c1 < 0: n) (lower: rows from each
  // column's diagonal, r0 == c0). In float: Af (rows, 2b) column-major holds [A1 A2] and Bf (cols, 2b)
  // row-major [B1 B2], so that the update's transpose, (cols, rows) row-major, is the GEMM Bf Af^T and is
  // W's own column-major layout. Column blocks of kBlock keep the float buffer small and, for the lower
  // triangle, skip the blocks above the diagonal.
  constexpr int64_t kBlock = 256;
  const int64_t m = W.rows, n = W.cols, b = o.b, k2 = 2 * b;
  const int64_t rows = m - r0, cols = (c1 < 0 ? n : c1) - c0;
  if (rows <= 0 || cols <= 0 || b == 0) return;
  TP_ASSERT(!lower || r0 == c0);
  std::vector<float> Af, Bf, Cf(size_t(std::min(kBlock, cols) * rows));
  pack_rank2k_float(o, r0, rows, c0, cols, 1.0f, Af, Bf);
  for (int64_t jb = 0; jb < cols; jb += kBlock) {
    const int64_t bc = std::min(kBlock, cols - jb);
    const int64_t ib = lower ? jb : 0;  // first row (relative to r0) this block needs
    const int64_t br = rows - ib;
    // Cf (bc, br) row-major: Cf(j, i) = sum_q Bf(jb + j, q) Af(ib + i, q).
    kernels::sgemm(bc, br, k2, Bf.data() + jb * k2, k2, 1, Af.data() + ib, rows, 1, Cf.data(), br, false);
    for (int64_t j = 0; j < bc; ++j) {
      double* w = W.col(c0 + jb + j) + r0 + ib;
      const float* c = Cf.data() + j * br;
      for (int64_t i = lower ? j : 0; i < br; ++i) w[i] -= double(c[i]);
    }
  }
}

}  // namespace tp::linalg::detail
