// Singular values without vectors: the eigenvalues of the double Gram matrix of A (the smaller of A^T A
// and A A^T), built one panel of rows at a time; also the double Gram product that svdLowrank uses.
#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

// Zero padding to whole 4x2 tiles and an even length changes no dot product.
static int64_t even(int64_t r) { return (r + 1) / 2 * 2; }
static int64_t mult4(int64_t c) { return (c + 3) / 4 * 4; }

// Splits the 4-row tiles [0, tiles) of a lower triangle into `parts` runs of about equal work (tile t
// holds t + 1 units: the tiles left of the diagonal and its own). bounds[p] .. bounds[p+1] is run p.
static std::vector<int64_t> triangle_shares(int64_t tiles, int parts) {
  std::vector<int64_t> bounds(size_t(parts + 1), tiles);
  bounds[0] = 0;
  const double total = double(tiles) * double(tiles + 1);
  int64_t t = 0;
  for (int p = 1; p < parts; ++p) {
    while (t < tiles && double(t) * double(t + 1) < total * p / parts) ++t;
    bounds[size_t(p)] = t;
  }
  return bounds;
}

// A panel holds kRows rows of X (r, c) in double, in slivers of 4 columns: sliver s (columns 4s..4s+3)
// starts at 4s * kRows, and within it each pair of rows (i, i+1) is 8 doubles, column by column
// (X(i, 4s), X(i+1, 4s), X(i, 4s+1), ...). A 4x2 tile's dot products then read every operand through one
// pointer that steps 8 doubles per row pair: with the columns kRows apart instead (one pointer per column,
// the layout before), a stand-alone copy of the two loops took 0.31 s against 0.25 s on the tiles of the
// 3072x1024 Gram matrix (CPU medians of 6 alternated trials, WebAssembly in Node, AMD EPYC x2 at load
// 33-40), with the same sums.
constexpr int64_t kRows = kGramRows;
// The tiles go by blocks of kGramBlock j columns, every i sliver below them before the next block: the
// block's slivers (64 x 256 doubles, 128 KB) stay in L2, where a sweep of j over all columns streamed the
// 2 MB panel from L3 once per i sliver. 3072x1024 Gram stage 0.145-0.172 -> 0.138-0.152 CPU s (bench_svdvals,
// 7 alternated runs, load 4-7; 128 columns alike); each entry is the same tile sum: the same bits.
constexpr int64_t kGramBlock = 64;
static int64_t panel_at(int64_t i, int64_t j) { return (j / 4) * 4 * kRows + (i / 2) * 8 + (j % 4) * 2 + i % 2; }

// The 4x2 tile of dot products over rows [0, rows) (even) of the panel P between columns i0..i0+3 (i0 a
// multiple of 4) and j0, j0+1 (j0 even), added to G(i0 + a, j0 + b). Lane 0 sums the even rows, lane 1 the
// odd ones, each in row order; G gets lane 0 + lane 1. The scalar reference, the same sums from A itself,
// is in tests/cpp/test_linalg.cpp (the Gram matrix's SIMD tiles ...), which compares them bit for bit.
static void gram_tile(const double* P, int64_t rows, int64_t i0, int64_t j0, ColMat& G) {
  const double* x = P + panel_at(0, i0);
  const double* y = P + panel_at(0, j0);
  d2 s00 = {0, 0}, s01 = s00, s10 = s00, s11 = s00, s20 = s00, s21 = s00, s30 = s00, s31 = s00;
  for (const double* end = x + 4 * rows; x < end; x += 8, y += 8) {
    const d2 x0 = load2(x), x1 = load2(x + 2), x2 = load2(x + 4), x3 = load2(x + 6);
    const d2 y0 = load2(y), y1 = load2(y + 2);
    s00 += x0 * y0; s01 += x0 * y1;
    s10 += x1 * y0; s11 += x1 * y1;
    s20 += x2 * y0; s21 += x2 * y1;
    s30 += x3 * y0; s31 += x3 * y1;
  }
  const d2 acc[4][2] = {{s00, s01}, {s10, s11}, {s20, s21}, {s30, s31}};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 2; ++b) G(i0 + a, j0 + b) += acc[a][b][0] + acc[a][b][1];
}

// The lower triangle of X^T X for an (r, c) matrix X delivered in panels of kRows rows:
// fill(context, r0, rl, j0, j1, P) writes rows [r0, r0+rl) of columns [j0, j1), X(r0 + i, j) to
// P[panel_at(i, j)]. Only one panel of doubles exists at a time, so memory stays O(c^2 + kRows c) however tall
// X is. Within a panel, 4x2 tiles (gram_tile): the four i columns stay in L1 while j sweeps. With several
// threads (kernels::sgemm_threads()) the fill splits by columns and the tiles by equal shares of the
// triangle; every element is still summed by one thread in the same order, so G does not depend on the count.
// Not a template on the fill (a call per panel and part): one copy of the split and the tiles for both fills.
using GramFill = void (*)(const void* context, int64_t r0, int64_t rl, int64_t c0, int64_t c1, double* P);
static ColMat gram_streamed(int64_t r, int64_t c, GramFill fill, const void* context) {
  const int64_t cp = mult4(c), tiles = cp / 4;
  // A split is worth it from ~0.2 ms of work per panel (a wake-up of the pool costs microseconds).
  const bool split = kernels::sgemm_threads() > 1 && kRows * cp * cp / 2 >= (int64_t(1) << 18);
  const int parts = split ? int(std::min<int64_t>(kernels::sgemm_threads(), tiles)) : 1;
  const std::vector<int64_t> shares = triangle_shares(tiles, parts);
  LineVector P(size_t(kRows * cp), 0.0);  // columns from c stay zero
  ColMat G(cp, cp);
  for (int64_t r0 = 0; r0 < r; r0 += kRows) {
    const int64_t rl = std::min(kRows, r - r0), rle = even(rl);
    tp::detail::run_parts(parts, [=, &P](int part) {
      const int64_t j0 = c * part / parts, j1 = c * (part + 1) / parts;
      fill(context, r0, rl, j0, j1, P.data());
      if (rle != rl)
        TP_SCALAR_LOOP for (int64_t j = j0; j < j1; ++j) P[size_t(panel_at(rl, j))] = 0.0;
    });
    tp::detail::run_parts(parts, [=, &shares, &P, &G](int part) {
      const int64_t lo = 4 * shares[size_t(part)], hi = 4 * shares[size_t(part + 1)];
      for (int64_t jb = 0; jb < hi; jb += kGramBlock)
        for (int64_t i0 = std::max(lo, jb); i0 < hi; i0 += 4)
          for (int64_t j0 = jb; j0 < std::min(jb + kGramBlock, i0 + 4); j0 += 2) gram_tile(P.data(), rle, i0, j0, G);
    });
  }
  ColMat out(c, c);
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = j; i < c; ++i) out(i, j) = G(i, j);
  return out;
}

struct GramInput {
  const float* A;
  int64_t m, n;
};

ColMat gram_lower_rows(const float* A, int64_t m, int64_t n) {
  const GramInput in{A, m, n};
  return gram_streamed(m, n, [](const void* context, int64_t r0, int64_t rl, int64_t c0, int64_t c1, double* P) {
    const GramInput& g = *static_cast<const GramInput*>(context);
    // A row of A lands in one cache line per sliver, which the next row fills further.
    for (int64_t i = 0; i < rl; ++i) {
      const float* a = g.A + (r0 + i) * g.n;
      for (int64_t j = c0; j < c1; ++j) P[panel_at(i, j)] = a[j];
    }
  }, &in);
}

void svdvals_double(const float* A, int64_t m, int64_t n, std::vector<double>& S) {
  // The Gram matrix of the columns of A (tall: A^T A) or of its rows (wide: A A^T), whichever is
  // smaller, converted to double one panel at a time.
  ColMat G;
  if (m < n) {
    const GramInput in{A, m, n};
    G = gram_streamed(n, m, [](const void* context, int64_t r0, int64_t rl, int64_t c0, int64_t c1, double* P) {
      const GramInput& g = *static_cast<const GramInput*>(context);
      for (int64_t j = c0; j < c1; ++j)
        for (int64_t i = 0; i < rl; ++i) P[panel_at(i, j)] = g.A[j * g.n + r0 + i];
    }, &in);
  } else {
    G = gram_lower_rows(A, m, n);
  }
  const int64_t k = G.rows;
  std::vector<double> lambda, e, tau;
  if (k >= kBlockedQrFrom) tridiagonalize_blocked(G, lambda, e, tau, false);
  else tridiagonalize_unblocked(G, lambda, e, tau);
  // The values by the root-free QL iteration (dsterf's: no square root per step; 3072x1024: 0.020 -> 0.014
  // s), implicit QL's rotations if it ran out of iterations (which throw past their own bound). The Gram
  // matrix of float32 data has entries within ~1e-90..1e81, whose squares double holds.
  const std::vector<double> diagonal = lambda;
  if (!tridiagonal_values_root_free(lambda, e, kMaxQlIterationsPerValue)) {
    lambda = diagonal;
    tridiagonal_ql(lambda, e, nullptr, kMaxQlIterationsPerValue);
  }
  const std::vector<int64_t> order = sorted_order(lambda, true);  // descending
  zeros(S, k);
  for (int64_t i = 0; i < k; ++i) S[size_t(i)] = std::sqrt(std::max(lambda[size_t(order[size_t(i)])], 0.0));
}

}  // namespace tp::linalg::detail
