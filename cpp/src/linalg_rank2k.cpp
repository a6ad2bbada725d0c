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
  if (j1 <= j0) return;
  // Columns go in blocks of kCols = 4, with B1 and B2 of the block packed side by side per p (8 doubles),
  // and rows in blocks of kRows, whose A1 and A2 rows are packed by groups of 4 (8 doubles per p), so a
  // 4x4 tile reads both operands in order while its 8 f64x2 sums run over p. Rows above a column's
  // diagonal (lower) and the last rows (fewer than 4) go entry by entry: every entry is the same sum in the
  // same order either way. A last block of fewer than 4 columns runs the same tile with zero columns packed
  // after its own, whose sums go to a scratch column (such columns went entry by entry before: with the
  // tridiagonalization's 12 chunks per panel that cost svdvals 3072x1024 ~0.01 s). Packing A took its
  // updates from 0.051 to 0.046 s.
  constexpr int64_t kRows = 128, kCols = 4;
  // One buffer per thread (one thread_local, not three: each costs the pthreads core its own set-up code):
  // the packed B columns, the packed A rows of one row block, a scratch column.
  thread_local std::vector<double> buffer;
  const int64_t blocks = (j1 - j0 + kCols - 1) / kCols, nb = blocks * 2 * kCols * b, na = kRows * 2 * b;
  buffer.resize(size_t(nb + na + m));
  double* const packed = buffer.data();
  double* const packed_a = packed + nb;
  double* const scratch = packed_a + na;
  std::fill(packed, packed + nb, 0.0);
  for (int64_t j = j0; j < j1; ++j)
    for (int64_t p = 0; p < b; ++p) {
      const int64_t q = (j - j0) / kCols, c = (j - j0) % kCols;
      packed[(q * b + p) * 2 * kCols + c] = o.b1[j * o.b1j + p * o.b1p];
      packed[(q * b + p) * 2 * kCols + kCols + c] = o.b2[j * o.b2j + p * o.b2p];
    }
  const int64_t first_row = lower ? j0 : r0;
  for (int64_t ib = first_row; ib < m; ib += kRows) {
    const int64_t ie = std::min(m, ib + kRows);
    // The row block's A1 and A2 by groups of 4 rows from ib (the tiles' rows), per p the group's 4 rows of
    // A1 then of A2: each tile reads them in order, 8 doubles per p, instead of 2 lines lda apart.
    for (int64_t g = 0; ib + 4 * g + 4 <= ie; ++g)
      for (int64_t p = 0; p < b; ++p)
        for (int64_t r = 0; r < 4; ++r) {
          packed_a[(g * b + p) * 8 + r] = o.a1[p * o.lda1 + ib + 4 * g + r];
          packed_a[(g * b + p) * 8 + 4 + r] = o.a2[p * o.lda2 + ib + 4 * g + r];
        }
    for (int64_t q = 0; q < blocks; ++q) {
      const int64_t j = j0 + kCols * q, cols = std::min(kCols, j1 - j);
      // Rows of this row block that all the block's columns take whole: below its diagonal corner.
      int64_t i = lower ? std::max(ib, j + kCols) : ib;
      if (lower && ib <= j + kCols - 1 && j < ie)  // the corner: entries on and below the diagonal
        for (int64_t c = 0; c < cols; ++c)
          for (int64_t r = j + c; r < std::min(j + kCols, ie); ++r)
            if (r >= ib) W(r, j + c) -= entry(o, r, j + c);
      const double* bq = packed + q * b * 2 * kCols;
      double* w[kCols];
      for (int64_t c = 0; c < kCols; ++c) w[c] = c < cols ? W.col(j + c) : scratch;
      for (; i + 4 <= ie; i += 4) {
        d2 s[kCols][2];
        for (int64_t c = 0; c < kCols; ++c) s[c][0] = s[c][1] = d2{0, 0};
        const double* a = packed_a + (i - ib) / 4 * 8 * b;
        for (int64_t p = 0; p < b; ++p, a += 8) {
          const d2 x0 = load2(a), x1 = load2(a + 2), y0 = load2(a + 4), y1 = load2(a + 6);
          const double* bp = bq + p * 2 * kCols;
          for (int64_t c = 0; c < kCols; ++c) {
            const d2 c1 = {bp[c], bp[c]}, c2 = {bp[kCols + c], bp[kCols + c]};
            s[c][0] += x0 * c1 + y0 * c2;
            s[c][1] += x1 * c1 + y1 * c2;
          }
        }
        for (int64_t c = 0; c < kCols; ++c) {
          store2(w[c] + i, load2(w[c] + i) - s[c][0]);
          store2(w[c] + i + 2, load2(w[c] + i + 2) - s[c][1]);
        }
      }
      for (; i < ie; ++i)
        for (int64_t c = 0; c < cols; ++c) W(i, j + c) -= entry(o, i, j + c);
    }
  }
}

}  // namespace tp::linalg::detail

namespace tp::linalg::detail {

bool float_updates_fit(const ColMat& W) {
  double amax = 0.0;
  for (double x : W.a) amax = std::max(amax, std::fabs(x));
  return amax >= 0x1p-32 && amax <= 0x1p32;
}

void pack_rank2k_float_part(const Rank2kOperands& o, int64_t r0, int64_t rows, int64_t i0, int64_t i1, int64_t c0,
                            int64_t j0, int64_t j1, float sign, float* Af, float* Bf) {
  const int64_t b = o.b, k2 = 2 * b;
  for (int64_t p = 0; p < b; ++p)
    for (int64_t i = i0; i < i1; ++i) {
      Af[p * rows + i] = float(o.a1[p * o.lda1 + r0 + i]);
      Af[(b + p) * rows + i] = float(o.a2[p * o.lda2 + r0 + i]);
    }
  for (int64_t j = j0; j < j1; ++j)
    for (int64_t p = 0; p < b; ++p) {
      Bf[j * k2 + p] = sign * float(o.b1[(c0 + j) * o.b1j + p * o.b1p]);
      Bf[j * k2 + b + p] = sign * float(o.b2[(c0 + j) * o.b2j + p * o.b2p]);
    }
}

}  // namespace tp::linalg::detail
