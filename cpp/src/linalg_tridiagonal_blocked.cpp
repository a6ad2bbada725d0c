// Blocked Householder tridiagonalization of a symmetric matrix (LAPACK dsytrd with dlatrd, lower
// triangle), in double: each panel of kPanel columns is reduced with products by the trailing matrix
// that only read it (symv), and the trailing matrix is then updated once per panel by a rank-2*kPanel
// product, A -= V Y^T + Y V^T, register-blocked. The unblocked reduction (linalg_eigh.cpp) reads and
// writes the whole trailing triangle at every column; here half the flops are that product.
// With float updates (eigh's float32 vectors) the trailing matrix is kept in float, as LAPACK's ssytrd
// keeps it: the symv reads it at 4 bytes an entry and the panel update accumulates into it by float32
// GEMMs (rank2k_stored_float_columns, not a double subtraction of their product); only each panel's
// own columns come back to double while the panel is reduced.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "linalg_detail.hpp"
#include "out_of_line.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

using tp::detail::call_out_of_line;

namespace {

// 16, not 32: the per-column corrections and dots grow with the panel, and at 32 they cost more than the
// rank-2b update gains from its wider GEMMs (Chromium, 1024, against 32:
// tridiagonalize 2 threads 1.08x, whole eigh 1.04x (1 and 2 threads)).
constexpr int64_t kPanel = 16;
// y.v in a team: a sum of dots over fixed blocks of rows from k + 1, each part's rows whole blocks, summed
// in block order by every part: the same bits on any thread count.
constexpr int64_t kDotRows = 32;

// Column j of y += A v, A symmetric with its lower triangle in W, rows from j: A(j:, j) v_j below and
// on the diagonal, and its mirror as a dot product into y_j.
void symv_column(const ColMat& W, int64_t j, const double* v, double* y) {
  const int64_t n = W.rows;
  const double* c = W.col(j);
  const double vj = v[j];
  const d2 vj2 = {vj, vj};
  double s = 0.0;
  d2 s2 = {0.0, 0.0};
  y[j] += c[j] * vj;
  int64_t i = j + 1;
  for (; i + 2 <= n; i += 2) {
    const d2 ci = load2(c + i);
    store2(y + i, load2(y + i) + ci * vj2);
    s2 += ci * load2(v + i);
  }
  for (; i < n; ++i) {
    y[i] += c[i] * vj;
    s += c[i] * v[i];
  }
  y[j] += s + (s2[0] + s2[1]);
}

// Columns [j0, j1) of y += A v (see symv_column), four columns per sweep below their diagonal corner, so
// y is read and written once per four columns. W is only read; y holds this range's partial sums.
void symv_columns(const ColMat& W, int64_t j0, int64_t j1, const double* v, double* y) {
  const int64_t n = W.rows;
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const double *c0 = W.col(j), *c1 = W.col(j + 1), *c2 = W.col(j + 2), *c3 = W.col(j + 3);
    const double* cs[4] = {c0, c1, c2, c3};
    double s[4];
    for (int q = 0; q < 4; ++q) {  // the corner: rows j..j+3
      const int64_t jj = j + q;
      y[jj] += cs[q][jj] * v[jj];
      s[q] = 0.0;
      for (int64_t r = jj + 1; r < j + 4; ++r) {
        y[r] += cs[q][r] * v[jj];
        s[q] += cs[q][r] * v[r];
      }
    }
    const d2 v0 = {v[j], v[j]}, v1 = {v[j + 1], v[j + 1]}, v2 = {v[j + 2], v[j + 2]}, v3 = {v[j + 3], v[j + 3]};
    d2 s0 = {0.0, 0.0}, s1 = s0, s2 = s0, s3 = s0;
    int64_t i = j + 4;
    for (; i + 2 <= n; i += 2) {
      const d2 x0 = load2(c0 + i), x1 = load2(c1 + i), x2 = load2(c2 + i), x3 = load2(c3 + i), vi = load2(v + i);
      store2(y + i, load2(y + i) + ((x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)));
      s0 += x0 * vi;
      s1 += x1 * vi;
      s2 += x2 * vi;
      s3 += x3 * vi;
    }
    double t[4] = {0.0, 0.0, 0.0, 0.0};
    for (; i < n; ++i) {
      y[i] += (c0[i] * v[j] + c1[i] * v[j + 1]) + (c2[i] * v[j + 2] + c3[i] * v[j + 3]);
      for (int q = 0; q < 4; ++q) t[q] += cs[q][i] * v[i];
    }
    const d2 sv[4] = {s0, s1, s2, s3};
    for (int q = 0; q < 4; ++q) y[j + q] += s[q] + (sv[q][0] + sv[q][1]) + t[q];
  }
  for (; j < j1; ++j) symv_column(W, j, v, y);
}

// symv_columns on F, the float lower triangle (column j at F + j*n), with v in float: half the bytes of
// W per pass and four lanes per operation. y's rows are summed in float across the range's columns (as
// LAPACK's ssymv sums them), in yf, and added to y in double at the end; the dot products sum in float
// over runs of kRun rows, the runs in double, so no float sum spans a whole column.
// y's rows [j0, n) are written, not added to (rows from j1 get only the float sums, rows [j0, j1) the dot
// products too): the caller need not clear them, which cost a tenth of the reduction in memset.
constexpr int64_t kRun = 64;

inline void store4(float* p, f4 v) { std::memcpy(p, &v, sizeof v); }

void symv_columns_float(const float* F, int64_t n, int64_t j0, int64_t j1, const float* v, double* y) {
  thread_local std::vector<float> yf_buffer;
  if (yf_buffer.size() < size_t(n)) yf_buffer.resize(size_t(n));
  float* yf = yf_buffer.data();
  std::fill(yf + j0, yf + n, 0.0f);
  std::fill(y + j0, y + j1, 0.0);
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const float *c0 = F + j * n, *c1 = c0 + n, *c2 = c1 + n, *c3 = c2 + n;
    const float* cs[4] = {c0, c1, c2, c3};
    double s[4];
    for (int q = 0; q < 4; ++q) {  // the corner: rows j..j+3
      const int64_t jj = j + q;
      yf[jj] += cs[q][jj] * v[jj];
      s[q] = 0.0;
      for (int64_t r = jj + 1; r < j + 4; ++r) {
        yf[r] += cs[q][r] * v[jj];
        s[q] += double(cs[q][r] * v[r]);
      }
    }
    const f4 v0 = {v[j], v[j], v[j], v[j]}, v1 = {v[j + 1], v[j + 1], v[j + 1], v[j + 1]},
             v2 = {v[j + 2], v[j + 2], v[j + 2], v[j + 2]}, v3 = {v[j + 3], v[j + 3], v[j + 3], v[j + 3]};
    d2 s0 = {0.0, 0.0}, s1 = s0, s2 = s0, s3 = s0;
    int64_t i = j + 4;
    while (i + 4 <= n) {
      const int64_t end = i + std::min(kRun, (n - i) / 4 * 4);
      f4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
      for (; i < end; i += 4) {
        const f4 x0 = load4(c0 + i), x1 = load4(c1 + i), x2 = load4(c2 + i), x3 = load4(c3 + i), vi = load4(v + i);
        store4(yf + i, load4(yf + i) + ((x0 * v0 + x1 * v1) + (x2 * v2 + x3 * v3)));
        a0 += x0 * vi;
        a1 += x1 * vi;
        a2 += x2 * vi;
        a3 += x3 * vi;
      }
      s0 += low2(a0) + high2(a0);
      s1 += low2(a1) + high2(a1);
      s2 += low2(a2) + high2(a2);
      s3 += low2(a3) + high2(a3);
    }
    double t[4] = {0.0, 0.0, 0.0, 0.0};
    for (; i < n; ++i) {
      yf[i] += (c0[i] * v[j] + c1[i] * v[j + 1]) + (c2[i] * v[j + 2] + c3[i] * v[j + 3]);
      for (int q = 0; q < 4; ++q) t[q] += double(cs[q][i] * v[i]);
    }
    const d2 sv[4] = {s0, s1, s2, s3};
    for (int q = 0; q < 4; ++q) y[j + q] += s[q] + (sv[q][0] + sv[q][1]) + t[q];
  }
  for (; j < j1; ++j) {  // the scalar reference: float products, y's rows summed in float, the dot in double
    const float* c = F + j * n;
    double s = 0.0;
    yf[j] += c[j] * v[j];
    for (int64_t i = j + 1; i < n; ++i) {
      yf[i] += c[i] * v[j];
      s += double(c[i] * v[i]);
    }
    y[j] += s;
  }
  for (int64_t i = j0; i < j1; ++i) y[i] += double(yf[i]);
  for (int64_t i = j1; i < n; ++i) y[i] = double(yf[i]);  // 0 + x is x: the bits of a cleared y
}

// Column ranges [bounds[c], bounds[c+1]) of equal work in the lower triangle of columns [lo, n):
// column j costs ~ n - j.
void triangle_chunks(int64_t lo, int64_t n, int64_t* bounds) {
  const int64_t len = n - lo;
  bounds[0] = lo;
  for (int64_t c = 1; c < kChunks; ++c)
    bounds[c] = n - int64_t(std::llround(double(len) * std::sqrt(1.0 - double(c) / kChunks)));
  bounds[kChunks] = n;
}

// Rows [r0, r1) of column k of the panel get the panel's earlier reflectors p < i: A(r, k) -= V(r, p) Y(k, p) +
// Y(r, p) V(k, p) (V_p at V0 + p*ld, Y_p at Y0 + p*ld), then reflector i's term without alpha: -= y(r) (its
// w = y + alpha v and v(k) = 1 give y(r) + (y(k) + 2 alpha) v(r); the rest, which needs alpha, the caller
// subtracts once alpha is known). By blocks of kRows rows, each taking every reflector in order while it sits
// in L1: the bits of one pass per reflector, without streaming the column through memory i times, and the
// same bits however the rows split. (All reflectors per row at once was slower: at ld = 1024 the 2i columns'
// rows share one L1 set.)
constexpr int64_t kRows = 64;

void panel_column_update(double* ck, int64_t k, int64_t r0, int64_t r1, const double* V0, const double* Y0,
                         int64_t ld, int64_t i, const double* y) {
  for (int64_t b0 = r0; b0 < r1; b0 += kRows) {
    const int64_t b1 = std::min(b0 + kRows, r1);
    for (int64_t p = 0; p <= i; ++p) {  // p = i: V's 0 times any column of V, plus y times 1, in the same loop
      const double *vp = V0 + (p < i ? p * ld : 0), *yp = p < i ? Y0 + p * ld : y;
      const double a = p < i ? yp[k] : 0.0, c = p < i ? vp[k] : 1.0;
      for (int64_t r = b0; r < b1; ++r) ck[r] -= vp[r] * a + yp[r] * c;
    }
  }
}

// The correction of y = A v for the panel's earlier reflectors p < i: y -= V (Y^T v) + Y (V^T v), given the
// 2i dot products t1 = Y^T v, t2 = V^T v, over rows [r0, r1): by blocks of kRows rows, each subtracting every
// column in order, as axpy() per column would (the same bits; y streamed once, not 2i times). Each row's
// result depends on that row alone: any split of the rows gives the same bits.
void panel_correction(double* y, int64_t r0, int64_t r1, const double* V0, const double* Y0, int64_t ld, int64_t i,
                      const double* t1, const double* t2) {
  for (int64_t b0 = r0; b0 < r1; b0 += kRows) {  // y by blocks of kRows rows, as panel_column_update
    const int64_t b1 = std::min(b0 + kRows, r1);
    for (int64_t p = 0; p < i; ++p) {
      const double *vp = V0 + p * ld, *yp = Y0 + p * ld, a = -t1[p], b = -t2[p];
      for (int64_t r = b0; r < b1; ++r) y[r] = (y[r] + a * vp[r]) + b * yp[r];
    }
  }
}

// y = A v in the fixed column ranges of triangle_chunks (the bits do not depend on the thread count that
// runs them): chunk c writes its partial sums to partial + c*stride, rows [bounds[c], n), the only rows its
// columns reach, and y[r] for r in [bounds[0], n) is the sum of the partials of the chunks that reach row r,
// in chunk order. That is sum_over_chunks' sum, whose chunks hold zeros above their first column: adding
// +0 changes nothing (a sum started at +0 is never -0), so neither the zeros' fill nor their reads are
// needed. Here the sum for rows [r0, r1), two pairs at a time (f64x2), so the chunks' additions for one
// pair overlap the other's. A stride of n plus a cache line: at n = 1024 a stride of n put the 12 partials'
// rows in one L1 set.
void sum_triangle_chunks(const double* partial, int64_t stride, const int64_t* bounds, double* y, int64_t r0,
                         int64_t r1) {
  for (int64_t s = 0; s < kChunks; ++s) {  // rows [bounds[s], bounds[s+1]) get chunks 0..s
    int64_t r = std::max(bounds[s], r0);
    const int64_t end = std::min(bounds[s + 1], r1);
    for (; r + 4 <= end; r += 4) {
      d2 a = {0.0, 0.0}, b = a;
      for (int64_t c = 0; c <= s; ++c) {
        a += load2(partial + c * stride + r);
        b += load2(partial + c * stride + r + 2);
      }
      store2(y + r, a);
      store2(y + r + 2, b);
    }
    for (; r < end; ++r) {
      double sum = 0.0;
      for (int64_t c = 0; c <= s; ++c) sum += partial[c * stride + r];
      y[r] = sum;
    }
  }
}

// Columns [c0, c1) of F(t0:, t0:) -= V Y^T + Y V^T on the lower triangle of F, the float trailing matrix
// (column j at F + j*n), by float32 GEMMs that accumulate into F itself: with Af = [A1 A2] (rows, 2b)
// column-major and Bf = -[B1 B2] (cols, 2b) row-major (pack_rank2k_float_part), the update's transpose,
// (cols, rows) row-major, is F's own column-major layout. Column blocks of kBlock start at their diagonal;
// a block's entries above the diagonal are updated too, and never read: kBlock^2/2 wasted per block. At
// 256 that was a third of the flops of the later, shorter columns, so the thread taking them did ~25% more
// than the other (native profile, n = 1024); 64 wastes little and costs one more pack of Af's rows per
// block (tridiagonalization native 1 thread 126 -> 111 ms, 2 threads' critical path 76 -> 66 ms). Every
// entry is one sgemm sum in the same order (k2 <= kc) whatever the range: split over threads, the bits do
// not change.
void rank2k_stored_float_columns(float* F, int64_t n, int64_t t0, int64_t c0, int64_t c1, const float* Af,
                                 const float* Bf, int64_t k2) {
  constexpr int64_t kBlock = 64;
  const int64_t rows = n - t0;
  for (int64_t jb = c0 - t0; jb < c1 - t0; jb += kBlock) {
    const int64_t bc = std::min(kBlock, c1 - t0 - jb);
    kernels::sgemm(bc, rows - jb, k2, Bf + jb * k2, k2, 1, Af + jb, rows, 1, F + (t0 + jb) * n + t0 + jb, n, true);
  }
}

}  // namespace

void tridiagonalize_blocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tau,
                            bool float_updates) {
  const int64_t n = W.rows;
  float_updates = float_updates && n >= kFloatUpdatesFrom && float_updates_fit(W);
  zeros(d, n);
  zeros(e, std::max<int64_t>(n - 1, 0));
  zeros(tau, std::max<int64_t>(n - 1, 0));
  // Y (n, kPanel) column-major, indexed by global row: column p is the w of the panel's reflector p.
  const int64_t stride = n + 8;  // of the symv chunks' partial sums (sum_triangle_chunks)
  // Per part of a team (below): its own copy of v (vb) and its float copy (vfb). ys: y = A v of the
  // column, kept for the next column's t1 (w = y + alpha v is written to Y while other parts read that dot);
  // ydots: y.v's blocks.
  const int max_parts = int(std::min<int64_t>(kernels::sgemm_threads(), kChunks));
  LineVector Yv(size_t(n * kPanel), 0.0), partial(size_t(kChunks * stride), 0.0), t1(static_cast<size_t>(kPanel)),
      t2(static_cast<size_t>(kPanel)), ys(static_cast<size_t>(n)), vb(size_t(max_parts * n)),
      ydots(size_t(n / kDotRows + 1));
  // With float updates the trailing matrix lives in F, a float lower triangle (n, n column-major) that
  // y = A v reads (with v in float) and the panel updates accumulate into, as LAPACK's float32 ssytrd
  // keeps it; each panel's columns come back to W in double when the panel begins. Af, Bf: a panel's
  // update's operands (pack_rank2k_float_part's layout).
  std::vector<float> F(float_updates ? size_t(n * n) : 0), vfb(float_updates ? size_t(max_parts * n) : 0), Af, Bf;
  // Panels [from, to) reduced by part `part` of `parts` threads, which meet at team_sync() twice per
  // column. Each part takes the Householder vector v on its own copy of the column (the same function of
  // the same column: the same bits) and its float copy, so no meeting waits for one thread's serial step;
  // the threads share the symv's chunks (triangle_chunks: the same chunks and sums whatever the count), the
  // correction's dot products (whole, one thread each), y's rows in the sum of the chunks and the correction,
  // y.v by fixed blocks of kDotRows rows, w's rows and the panel's update of the next column's rows (row by
  // row: the same bits however the rows split), the pack of the panel's update and its columns (each thread
  // those its symv chunks read next, which stay in its core's cache). Per column k (panel column i):
  //  1. column k less its last reflector's alpha term (below) into the part's copy; v; its symv chunks; its
  //     share of the dots Y^T v, V^T v (t1[i-1] = y_{k-1}.v + alpha t2[i-1]: w_{i-1}'s rows are being
  //     fixed).                                                                       meet: partials
  //  2. its blocks of rows: v stored; y (chunk sum, correction, scaling); y.v's block dots; column k + 1's
  //     rows updated by the reflectors 0..i less alpha's term.                         meet: y, y.v ready
  //  3. alpha = -(t/2) y.v (every part the same sum of the blocks); its rows of w = y + alpha v.
  // Column k + 1's rows for reflector i would be v(r) w(k+1) + w(r) v(k+1) = y(r) + (y(k+1) + 2 alpha) v(r),
  // which needs alpha, and alpha all of y: 2 writes y(r), 1 of the next column subtracts g v(r) with
  // g = y(k+1) + 2 alpha (so its diagonal too, by part 0). Before (session 23), a third meeting per column
  // waited for y before alpha.
  // A team whose meetings sleep (TeamSolo) has part 0 reduce the next panels' columns alone (the same chunks,
  // dots and rows: the same bits), the threads still sharing each panel's trailing update.
  TeamSolo team;
  auto panels = [&, n, stride, float_updates](int64_t from, int64_t to, int part, int parts) {
    const int team_parts = TP_HAS_THREADS ? parts : 1;  // (without threads the team's code compiles away)
    parts = team_parts;
    const auto sync = [&] {
      if (parts > 1) tp::detail::team_sync();
    };
    const auto share = [&](int64_t lo, int64_t hi, int q) { return lo + (hi - lo) * q / parts; };
    int64_t bounds[kChunks + 1];  // each part's own copy: the same chunks
    for (int64_t j0 = from; j0 < to; j0 += kPanel) {
      const int64_t b = std::min(kPanel, n - j0);
      if (float_updates && j0 > 0)  // the panel's columns back in double, each part a share (parts is the team's)
        for (int64_t c = share(j0, j0 + b, part); c < share(j0, j0 + b, part + 1); ++c)
          for (int64_t r = c; r < n; ++r) W(r, c) = double(F[size_t(c * n + r)]);
      if (float_updates && j0 == 0) {  // F from A's lower triangle, each part an equal share of its area
        const auto area = [&](int q) { return n - int64_t(std::llround(double(n) * std::sqrt(1.0 - double(q) / parts))); };
        for (int64_t c = area(part); c < area(part + 1); ++c) call_out_of_line<&to_float>(W.col(c) + c, F.data() + c * n + c, n - c);
      }
      if (part == 0 && team_parts > 1) team.next(j0, from, kPanel);
      if (team_parts > 1) tp::detail::team_sync();  // solo is set, the panel's columns are in W
      parts = team.solo ? 1 : team_parts;
      double alpha = 0.0, g = 0.0;  // the previous column's
      for (int64_t i = 0; part < parts && i < b; ++i) {  // (no columns for a helper while part 0 is solo)
        // Column k got the panel's earlier reflectors at the previous step, less g v_{k-1}.
        const int64_t k = j0 + i, len = n - k - 1;
        double* ck = W.col(k);
        const double* vp = i > 0 ? W.col(k - 1) : nullptr;
        if (part == 0) {
          if (i > 0) ck[k] -= g * vp[k];
          d[size_t(k)] = ck[k];
        }
        if (k + 1 >= n) break;
        // v = A(k+1:, k) with its unit entry: in place alone; in a team on the part's copy, which the parts
        // store once all have read the column.
        double* v = parts == 1 ? ck : vb.data() + part * n;
        if (parts > 1) std::copy(ck + k + 1, ck + n, v + k + 1);
        if (i > 0) call_out_of_line<&axpy>(v + k + 1, -g, vp + k + 1, len);
        const double t = make_householder(v[k + 1], v + k + 2, n - k - 2);
        if (part == 0) {
          tau[size_t(k)] = t;
          e[size_t(k)] = v[k + 1];
        }
        v[k + 1] = 1.0;
        double* y = ys.data();
        // The correction's dot products, t1 = Y^T v and t2 = V^T v (they do not need this y; before the symv,
        // which writes y when it does not split). Shared from the last: an odd one goes to part 0, whose float
        // copy of v below is the longest.
        for (int64_t p = i - share(0, i, parts - part); p < i - share(0, i, parts - part - 1); ++p) {
          t2[size_t(p)] = call_out_of_line<&dot>(W.col(j0 + p) + k + 1, v + k + 1, len);
          const double* yp = p + 1 < i ? Yv.data() + p * n : y;
          t1[size_t(p)] = call_out_of_line<&dot>(yp + k + 1, v + k + 1, len);
          if (p + 1 == i) t1[size_t(p)] += alpha * t2[size_t(p)];
        }
        float* vf = float_updates ? vfb.data() + part * n : nullptr;
        triangle_chunks(k + 1, n, bounds);
        // v in float from the part's first symv column: its chunks read no row above it.
        const int64_t f0 = bounds[kChunks * part / parts];
        if (float_updates) call_out_of_line<&to_float>(v + f0, vf + f0, n - f0);
        // y = A v over the trailing matrix as it was when the panel began (columns k+1..): writes out's
        // rows [c0, n) (symv_columns adds to them: they are cleared first).
        auto symv = [&](int64_t c0, int64_t c1, double* out) {
          if (float_updates) {
            call_out_of_line<&symv_columns_float>(F.data(), n, c0, c1, vf, out);
          } else {
            std::fill(out + c0, out + n, 0.0);
            call_out_of_line<&symv_columns>(W, c0, c1, v, out);
          }
        };
        const bool split = len >= kSplitFrom;
        if (!split) {
          if (part == 0) symv(k + 1, n, y);
        } else {
          for (int64_t c = kChunks * part / parts; c < kChunks * (part + 1) / parts; ++c)
            symv(bounds[c], bounds[c + 1], partial.data() + c * stride);
        }
        sync();  // the chunks' partial sums and t1, t2 are ready; every part has read column k
        // The part's blocks of y's rows: the chunks' sum, minus what the panel's earlier reflectors changed,
        // y -= V t1 + Y t2, times t; then y.v's block dots, and column k + 1's rows.
        const int64_t blocks = (len + kDotRows - 1) / kDotRows;
        // Split by cost, in whole blocks: a row takes the correction's 2i columns and the next column's i + 1,
        // and one addition per chunk that reaches it in the chunks' sum (1 at the top, kChunks at the bottom).
        // Halved, the lower part had ~13% more (Chromium's per-part profile); the upper one takes 1/(8 + i/2) of
        // the blocks more (2 parts), what the mean chunk count per row gives at i = 0 and i = 31 within ~2%
        // (measured with panels of 32).
        const auto row = [&](int q) {
          const int64_t den = parts * parts * (16 + i);
          return std::min(n, k + 1 + kDotRows * (blocks * q * (parts * (16 + i) + 8 * (parts - q)) / den));
        };
        const int64_t r0 = row(part), r1 = row(part + 1);
        if (parts > 1) std::copy(v + r0, v + r1, ck + r0);
        if (split) sum_triangle_chunks(partial.data(), stride, bounds, y, r0, r1);
        if (i > 0) call_out_of_line<&panel_correction>(y, r0, r1, W.col(j0), Yv.data(), n, i, t1.data(), t2.data());
        for (int64_t r = r0; r < r1; ++r) y[r] *= t;
        for (int64_t r = r0; r < r1; r += kDotRows)
          ydots[size_t((r - k - 1) / kDotRows)] = call_out_of_line<&dot>(y + r, v + r, std::min(kDotRows, n - r));
        if (i + 1 < b)
          call_out_of_line<&panel_column_update>(W.col(k + 1), k + 1, r0, r1, W.col(j0), Yv.data(), n, i, y);
        sync();  // y, y.v's blocks and column k + 1 (but for g v) are ready
        // w = t y - (t^2/2)(y.v) v: A - v w^T - w v^T is H A H.
        double yv = 0.0;
        for (int64_t c = 0; c < blocks; ++c) yv += ydots[size_t(c)];
        alpha = -0.5 * t * yv;
        g = y[k + 1] + 2.0 * alpha;
        double* w = Yv.data() + i * n;
        // The part's own rows of y and v (r0, r1): w's rows read nothing the other cores wrote.
        std::copy(y + r0, y + r1, w + r0);
        call_out_of_line<&axpy>(w + r0, alpha, ck + r0, r1 - r0);
      }
      // The trailing matrix (columns and rows from j0 + b) gets the whole panel at once, each thread the
      // columns of its symv chunks and their rows of Bf (part 0 all of Af's rows).
      parts = team_parts;
      const int64_t t0 = j0 + b;
      if (t0 < n) {
        // A -= V Y^T + Y V^T: V(i, p) = W(i, j0 + p), Y(j, p) = Yv[p*n + j].
        const Rank2kOperands ops{W.col(j0), n, Yv.data(), 1, n, Yv.data(), n, W.col(j0), 1, n, b};
        const int64_t rows = n - t0;
        if (part == 0 && float_updates) {
          Af.resize(size_t(rows * 2 * b));
          Bf.resize(size_t(rows * 2 * b));
        }
        triangle_chunks(t0, n, bounds);
        // The double update's chunk bounds rounded up to whole 4-column blocks from t0: rank2k_update's last
        // block of 1-3 columns pads its tile with zero columns, and 12 chunks per panel had 12 of them
        // (svdvals 3072x1024 updates ~0.005 s). Each entry's sum is the same whatever the split: the same bits.
        if (!float_updates)
          for (int64_t c = 1; c < kChunks; ++c) bounds[c] = std::min(n, t0 + (bounds[c] - t0 + 3) / 4 * 4);
        sync();  // Y is ready (and Af, Bf sized)
        const int64_t c0 = bounds[kChunks * part / parts], c1 = bounds[kChunks * (part + 1) / parts];
        if (float_updates) {
          // Part 0 packs all of Af's rows, the other parts their Bf columns alone: a Bf entry, gathered across Y's
          // and V's columns, costs ~3 of Af's, and the later parts take the most columns (with Af halved, part 1
          // of 2, with 71% of them, packed 1.33 ms against 0.73 in Chromium's profile).
          pack_rank2k_float_part(ops, t0, rows, 0, part == 0 ? rows : 0, t0, c0 - t0, c1 - t0, -1.0f, Af.data(),
                                 Bf.data());
          sync();  // Af is ready (a thread's Bf columns are its own)
          rank2k_stored_float_columns(F.data(), n, t0, c0, c1, Af.data(), Bf.data(), 2 * b);
        } else {
          for (int64_t c = kChunks * part / parts; c < kChunks * (part + 1) / parts; ++c)
            rank2k_update(W, t0, bounds[c], bounds[c + 1], true, ops);
        }
        sync();
      }
      if (part == 0)
        for (int64_t i = 0; i < b && j0 + i + 1 < n; ++i) W(j0 + i + 1, j0 + i) = e[size_t(j0 + i)];
    }
  };
  run_panels(n, kPanel, max_parts, panels);
}

}  // namespace tp::linalg::detail
