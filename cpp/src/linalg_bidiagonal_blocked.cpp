// Blocked Householder bidiagonalization, m >= n (LAPACK dgebrd with dlabrd), in double: each panel of
// kPanel rows and columns is reduced with products by the trailing matrix that only read it, and the
// trailing matrix is updated once per panel, A -= V Y^T + X U^T (rank2k_update; with float updates in
// float32 on a float copy, below). The unblocked reduction (bidiagonal_reduce) reads and writes the
// trailing matrix twice per column.
#include <algorithm>
#include <cmath>
#include <vector>

#include "for_size.hpp"
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
// bidiagonalize 1.09x on 1 and 2 threads, whole svd 2 threads 1.04x).
constexpr int64_t kPanel = 16;

// y_j = column j of W (rows r0..m-1) . u, for columns [j0, j1): the product A^T u, reading W only, four
// columns per sweep so u is read once per four.
void column_dots(const ColMat& W, int64_t r0, int64_t j0, int64_t j1, const double* u, double* y) {
  const int64_t m = W.rows;
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const double *c0 = W.col(j), *c1 = W.col(j + 1), *c2 = W.col(j + 2), *c3 = W.col(j + 3);
    d2 s0 = {0.0, 0.0}, s1 = s0, s2 = s0, s3 = s0;
    int64_t r = r0;
    for (; r + 2 <= m; r += 2) {
      const d2 ur = load2(u + r);
      s0 += load2(c0 + r) * ur;
      s1 += load2(c1 + r) * ur;
      s2 += load2(c2 + r) * ur;
      s3 += load2(c3 + r) * ur;
    }
    double t0 = s0[0] + s0[1], t1 = s1[0] + s1[1], t2 = s2[0] + s2[1], t3 = s3[0] + s3[1];
    for (; r < m; ++r) {
      t0 += c0[r] * u[r];
      t1 += c1[r] * u[r];
      t2 += c2[r] * u[r];
      t3 += c3[r] * u[r];
    }
    y[j] = t0, y[j + 1] = t1, y[j + 2] = t2, y[j + 3] = t3;
  }
  for (; j < j1; ++j) y[j] = dot(W.col(j) + r0, u + r0, m - r0);
}

// x (rows r0..m-1) += columns [j0, j1) of W times v_j: the product A v, reading W only, four columns per
// sweep so x is read and written once per four.
void column_axpys(const ColMat& W, int64_t r0, int64_t j0, int64_t j1, const double* v, double* x) {
  const int64_t m = W.rows;
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const double *c0 = W.col(j), *c1 = W.col(j + 1), *c2 = W.col(j + 2), *c3 = W.col(j + 3);
    const d2 v0 = {v[j], v[j]}, v1 = {v[j + 1], v[j + 1]}, v2 = {v[j + 2], v[j + 2]}, v3 = {v[j + 3], v[j + 3]};
    int64_t r = r0;
    for (; r + 2 <= m; r += 2)
      store2(x + r, load2(x + r) + ((load2(c0 + r) * v0 + load2(c1 + r) * v1) + (load2(c2 + r) * v2 + load2(c3 + r) * v3)));
    for (; r < m; ++r) x[r] += (c0[r] * v[j] + c1[r] * v[j + 1]) + (c2[r] * v[j + 2] + c3[r] * v[j + 3]);
  }
  for (; j < j1; ++j) {
    const double* c = W.col(j);
    for (int64_t r = r0; r < m; ++r) x[r] += v[j] * c[r];
  }
}

// The same two products on F, a float copy of the trailing matrix (column j at F + j*m), with u or v in
// float: half the bytes of W per pass (the passes stream the trailing matrix from memory, twice per
// column) and four lanes per operation. Products are summed in float over runs of kRun rows (dots) or
// four columns (axpys) and the runs in double, so no float sum spans a whole column.
constexpr int64_t kRun = 64;

void column_dots_float(const float* F, int64_t m, int64_t r0, int64_t j0, int64_t j1, const float* u, double* y) {
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const float *c0 = F + j * m, *c1 = c0 + m, *c2 = c1 + m, *c3 = c2 + m;
    d2 s0 = {0.0, 0.0}, s1 = s0, s2 = s0, s3 = s0;
    int64_t r = r0;
    while (r + 4 <= m) {
      const int64_t end = r + std::min(kRun, (m - r) / 4 * 4);
      f4 a0 = {0, 0, 0, 0}, a1 = a0, a2 = a0, a3 = a0;
      for (; r < end; r += 4) {
        const f4 ur = load4(u + r);
        a0 += load4(c0 + r) * ur;
        a1 += load4(c1 + r) * ur;
        a2 += load4(c2 + r) * ur;
        a3 += load4(c3 + r) * ur;
      }
      s0 += low2(a0) + high2(a0);
      s1 += low2(a1) + high2(a1);
      s2 += low2(a2) + high2(a2);
      s3 += low2(a3) + high2(a3);
    }
    double t0 = s0[0] + s0[1], t1 = s1[0] + s1[1], t2 = s2[0] + s2[1], t3 = s3[0] + s3[1];
    for (; r < m; ++r) {
      t0 += double(c0[r] * u[r]);
      t1 += double(c1[r] * u[r]);
      t2 += double(c2[r] * u[r]);
      t3 += double(c3[r] * u[r]);
    }
    y[j] = t0, y[j + 1] = t1, y[j + 2] = t2, y[j + 3] = t3;
  }
  for (; j < j1; ++j) {  // the scalar reference: float products summed in double
    double t = 0.0;
    for (int64_t r = r0; r < m; ++r) t += double(F[j * m + r] * u[r]);
    y[j] = t;
  }
}

void column_axpys_float(const float* F, int64_t m, int64_t r0, int64_t j0, int64_t j1, const float* v, double* x) {
  int64_t j = j0;
  for (; j + 4 <= j1; j += 4) {
    const float *c0 = F + j * m, *c1 = c0 + m, *c2 = c1 + m, *c3 = c2 + m;
    const f4 v0 = {v[j], v[j], v[j], v[j]}, v1 = {v[j + 1], v[j + 1], v[j + 1], v[j + 1]},
             v2 = {v[j + 2], v[j + 2], v[j + 2], v[j + 2]}, v3 = {v[j + 3], v[j + 3], v[j + 3], v[j + 3]};
    int64_t r = r0;
    for (; r + 4 <= m; r += 4) {
      const f4 t = (load4(c0 + r) * v0 + load4(c1 + r) * v1) + (load4(c2 + r) * v2 + load4(c3 + r) * v3);
      store2(x + r, load2(x + r) + low2(t));
      store2(x + r + 2, load2(x + r + 2) + high2(t));
    }
    for (; r < m; ++r) x[r] += double((c0[r] * v[j] + c1[r] * v[j + 1]) + (c2[r] * v[j + 2] + c3[r] * v[j + 3]));
  }
  for (; j < j1; ++j)  // the scalar reference
    for (int64_t r = r0; r < m; ++r) x[r] += double(F[j * m + r] * v[j]);
}

// The panel's per-column steps that are O(n) per reflector, out of line (call_out_of_line) and at -O3: the
// panel loop runs once per call (V8 would run its loops in baseline code) and is compiled for size. Each
// writes a range of rows (or columns) from that range alone, entry by entry in the order of one pass per
// reflector: any split of the range over threads gives the same bits.
// to_float (linalg_householder.cpp): u and v for the float products, and F's columns from W (about n^3 / 100
// entries per call at n = 1024: vectorized there, not in the panel loop compiled for size).

// y[r] -= coef[p] x[p * stride + r] for p < count and r < len, p after p: the bits of count axpys of -coef[p]
// (y + (-c) x is y - c x, bit for bit), with y read and written once per four of them (the corrections' loads
// and stores, not their flops, bound these steps).
// One function, called out of line from its six sites, in explicit lanes: the vectorizer's copies of each loop
// (aliasing checks, scalar fallbacks) cost the web-mt core bytes (with them and inlined: +934 gzipped, now +146).
void subtract_columns(double* y, int64_t len, const double* coef, const double* x, int64_t stride, int64_t count) {
  int64_t p = 0;
  for (; p + 4 <= count; p += 4) {
    const double a0 = -coef[p], a1 = -coef[p + 1], a2 = -coef[p + 2], a3 = -coef[p + 3];
    const double *x0 = x + p * stride, *x1 = x0 + stride, *x2 = x1 + stride, *x3 = x2 + stride;
    int64_t r = 0;
    TP_SCALAR_LOOP
    for (; r + 2 <= len; r += 2)
      store2(y + r, (((load2(y + r) + load2(x0 + r) * a0) + load2(x1 + r) * a1) + load2(x2 + r) * a2) + load2(x3 + r) * a3);
    if (r < len) y[r] = (((y[r] + a0 * x0[r]) + a1 * x1[r]) + a2 * x2[r]) + a3 * x3[r];
  }
  for (; p < count; ++p) {
    const double a = -coef[p], *xp = x + p * stride;
    int64_t r = 0;
    TP_SCALAR_LOOP
    for (; r + 2 <= len; r += 2) store2(y + r, load2(y + r) + load2(xp + r) * a);
    if (r < len) y[r] += a * xp[r];
  }
}

// Column k1 gets the panel's reflectors p < i1 over rows [r0, r1): A(r, k1) -= V(r, p) Y(k1, p) + X(r, p) U(p, k1),
// with V(:, p) = W(:, j0 + p), U(p, k1) = W(j0 + p, k1) (rows above r0), Y(k1, p) at Yk[p*n].
void panel_column_rows(double* ck, int64_t r0, int64_t r1, const double* V0, const double* X0, int64_t m,
                       const double* Yk, int64_t n, int64_t j0, int64_t i1) {
  for (int64_t p = 0; p < i1; ++p) {
    const double *vp = V0 + p * m, *xp = X0 + p * m, a = Yk[p * n], c = ck[j0 + p];
    for (int64_t r = r0; r < r1; ++r) ck[r] -= vp[r] * a + xp[r] * c;
  }
}

// *ta = dot(a, u, len) and *tb = dot(b, u, len) with dot's order (four partial sums by index mod 4, then
// (s0 + s1) + (s2 + s3)): the same bits, u read once for both.
void dots2(const double* a, const double* b, const double* u, int64_t len, double* ta, double* tb) {
  d2 a01 = {0.0, 0.0}, a23 = a01, b01 = a01, b23 = a01;  // s0, s1 and s2, s3 of each dot
  int64_t r = 0;
  TP_SCALAR_LOOP
  for (; r + 4 <= len; r += 4) {
    const d2 u01 = load2(u + r), u23 = load2(u + r + 2);
    a01 += load2(a + r) * u01, a23 += load2(a + r + 2) * u23;
    b01 += load2(b + r) * u01, b23 += load2(b + r + 2) * u23;
  }
  double sa = a01[0], sb = b01[0];
  TP_SCALAR_LOOP
  for (; r < len; ++r) sa += a[r] * u[r], sb += b[r] * u[r];
  *ta = (sa + a01[1]) + (a23[0] + a23[1]);
  *tb = (sb + b01[1]) + (b23[0] + b23[1]);
}

// t1 = V^T u and t2 = X^T u over rows [k, m), for the panel's i earlier reflectors: every part of a team takes
// all 2i (a meeting fewer), V's and X's column p in one sweep of u (u read from cache once, not once per dot).
void panel_u_dots(const double* V0, const double* X0, int64_t m, int64_t k, const double* u, int64_t i, double* t1,
                  double* t2) {
  for (int64_t p = 0; p < i; ++p) call_out_of_line<&dots2>(V0 + p * m + k, X0 + p * m + k, u + k, m - k, t1 + p, t2 + p);
}

// Columns [c0, c1) of y = Y(:, i): y -= Y(:, 0:i) t1 + U(0:i, :)^T t2, times tq; then of row k, v = A(k, :)
// (read at wk[c*m]) - Y(:, 0:i+1) a - U(0:i, :)^T xk, a[p] = V(k, p) and xk[p] = X(k, p).
void panel_y_and_row(double* y, double* v, int64_t c0, int64_t c1, const double* Yv, const double* Ur, int64_t n,
                     int64_t i, const double* t1, const double* t2, double tq, const double* wk, int64_t m,
                     const double* a, const double* xk) {
  const int64_t len = c1 - c0;
  call_out_of_line<&subtract_columns>(y + c0, len, t1, Yv + c0, n, i);
  call_out_of_line<&subtract_columns>(y + c0, len, t2, Ur + c0, n, i);
  for (int64_t c = c0; c < c1; ++c) y[c] *= tq;
  for (int64_t c = c0; c < c1; ++c) v[c] = wk[c * m];
  call_out_of_line<&subtract_columns>(v + c0, len, a, Yv + c0, n, i + 1);
  call_out_of_line<&subtract_columns>(v + c0, len, xk, Ur + c0, n, i);
}

// tY[p] = Y(c0:n, p)^T v (summed in column order) for p in [p0, p1) and tU[p] = U(p, c0:n) v for p in
// [p0, min(p1, i)).
void panel_v_dots(const double* Yv, const double* Ur, int64_t n, int64_t c0, const double* v, int64_t p0, int64_t p1,
                  int64_t i, double* tY, double* tU) {
  for (int64_t p = p0; p < p1; ++p) {
    double s = 0.0;
    for (int64_t c = c0; c < n; ++c) s += Yv[p * n + c] * v[c];
    tY[p] = s;
  }
  for (int64_t p = p0; p < std::min(p1, i); ++p) tU[p] = call_out_of_line<&dot>(Ur + p * n + c0, v + c0, n - c0);
}

// Rows [r0, r1) of x = X(:, i): the chunks' partial sums in chunk order (sum_over_chunks' sum) when split,
// minus V(:, 0:i+1) tY + X(:, 0:i) tU, times tp.
void panel_x_rows(double* x, int64_t r0, int64_t r1, const double* partial, bool split, const double* V0,
                  const double* X0, int64_t m, int64_t i, const double* tY, const double* tU, double tp) {
  const int64_t len = r1 - r0;
  if (split)
    for (int64_t r = r0; r < r1; ++r) {
      double sum = 0.0;
      for (int64_t c = 0; c < kChunks; ++c) sum += partial[c * m + r];
      x[r] = sum;
    }
  call_out_of_line<&subtract_columns>(x + r0, len, tY, V0 + r0, m, i + 1);
  call_out_of_line<&subtract_columns>(x + r0, len, tU, X0 + r0, m, i);
  for (int64_t r = r0; r < r1; ++r) x[r] *= tp;
}

}  // namespace

void bidiagonal_reduce_blocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tauq,
                               std::vector<double>& taup, bool float_updates) {
  const int64_t m = W.rows, n = W.cols;
  float_updates = float_updates && n >= kFloatUpdatesFrom && float_updates_fit(W);
  TP_ASSERT(m >= n);
  // With float updates, what a reflector would zero once its norm is under float32 resolution of A
  // (2^-23 ||A||_F) is the updates' rounding, not data: reflecting it builds reflectors from noise, and on
  // a rank-1 matrix (all ones, 272x272) the bidiagonal QR then did not converge. Counting it as zero
  // changes A by at most that much per reflector, under what float32 storage of A already costs.
  double drop = 0.0;
  if (float_updates) {
    for (double x : W.a) drop += x * x;
    drop = std::sqrt(drop) * 0x1p-23;
  }
  zeros(d, n);
  zeros(e, std::max<int64_t>(n - 1, 0));
  zeros(tauq, n);
  zeros(taup, std::max<int64_t>(n - 1, 0));
  const int max_parts = int(std::min<int64_t>(kernels::sgemm_threads(), kChunks));
  // X (m, kPanel) and Y (n, kPanel), column-major, indexed by global row / column (dlabrd's X and Y).
  // Ur (kPanel, n) row-major: the panel's right reflectors, row p = U(p, :) = row j0 + p of W. The steps
  // read U across columns, which in W are m doubles apart (a cache line and, past 512 columns, a page per
  // entry); the copy makes those three passes per step contiguous.
  // Per part of a team (below): its own copies of u and v (ub, vb), their float copies (ufb, vfb) and its
  // correction's dot products and coefficients (tb: t1, t2, a, xk, each kPanel + 1); tv: X's correction's
  // dot products Y^T v and U v, shared.
  constexpr int64_t kT = kPanel + 1;
  LineVector Xv(size_t(m * kPanel)), Yv(size_t(n * kPanel)), partial(size_t(kChunks * m)), vrow(static_cast<size_t>(n)),
      Ur(size_t(kPanel * n)), ub(size_t(max_parts * m)), vb(size_t(max_parts * n)), tb(size_t(max_parts * 4 * kT)),
      tv(size_t(2 * kT));
  // With float updates the trailing matrix lives in F (m, n column-major), as LAPACK's float32 sgebrd keeps
  // it: the products read it with u, v in float, and the panel updates accumulate into it by float32 GEMMs
  // (Af, Bf: pack_rank2k_float_part's operands); the panel's columns and rows come back to W in double as
  // the panel begins. Before, W took each update in double and F was copied from it: per trailing entry and
  // panel a float product written and read, W read and written, F written, against F read and written.
  std::vector<float> F(float_updates ? size_t(m * n) : 0), ufb(float_updates ? size_t(max_parts * m) : 0),
      vfb(float_updates ? size_t(max_parts * n) : 0), Af(float_updates ? size_t(m * 2 * kPanel) : 0),
      Bf(float_updates ? size_t(n * 2 * kPanel) : 0);
  // Panels [from, to) reduced by part `part` of `parts` threads, which meet at team_sync() three times per
  // column (eigh's tridiagonalization does the same with its symv): before, a run_parts fork/join for each
  // of a column's two products, a helper's futex wake-up most columns. Each part takes the Householder
  // vectors u and v on its own copy (the same function of the same column: the same bits), so no meeting
  // waits for one thread's serial step; each stores its share of them. Per column:
  //  1. u; the correction's dots V^T u, X^T u (each part all of them, not a meeting more: 2i dots of
  //     m - k, ~3% of its share at i = 16); the part's column chunks of A^T u into Y(:, i) (each y_j one
  //     sum, whatever thread), their correction, and row k's columns in v.              meet: v is ready
  //  2. v (each part stores its columns of row k and Ur's row); the part's chunks of A v into their partials; its share of
  //     the dots Y^T v, U v.                                                             meet: partials
  //  3. the part's rows of X(:, i) (chunk sum, correction, scaling) and of the next column's panel update.
  //                                                                                      meet: column ready
  // The trailing update is shared by column chunks as before. A team whose meetings sleep (TeamSolo) has
  // part 0 reduce the next panels' columns alone (same chunks, dots and rows: the same bits), the threads
  // still sharing each panel's trailing update (as the tridiagonalization).
  TeamSolo team;
  auto panels = [&, m, n, drop, float_updates](int64_t from, int64_t to, int part, int parts) {
    const int team_parts = TP_HAS_THREADS ? parts : 1;  // (without threads the team's code compiles away)
    parts = team_parts;
    const auto sync = [&] {
      if (parts > 1) tp::detail::team_sync();
    };
    double* const t1 = tb.data() + part * 4 * kT;
    double *const t2 = t1 + kT, *const av = t2 + kT, *const xk = av + kT;
    const auto share = [&](int64_t lo, int64_t hi, int q) { return lo + (hi - lo) * q / team_parts; };
    for (int64_t j0 = from; j0 < to; j0 += kPanel) {
      const int64_t b = std::min(kPanel, n - j0);
      // X and Y cleared from row j0 (no step reads the rows above its panel), each part its share of the columns.
      for (int64_t p = kPanel * part / team_parts; p < kPanel * (part + 1) / team_parts; ++p) {
        std::fill(Xv.begin() + p * m + j0, Xv.begin() + (p + 1) * m, 0.0);
        std::fill(Yv.begin() + p * n + j0, Yv.begin() + (p + 1) * n, 0.0);
      }
      if (float_updates && j0 > 0) {  // the panel's columns and rows back in double, each part a share of both
        for (int64_t c = share(j0, j0 + b, part); c < share(j0, j0 + b, part + 1); ++c)
          for (int64_t r = j0; r < m; ++r) W(r, c) = double(F[size_t(c * m + r)]);
        for (int64_t c = share(j0 + b, n, part); c < share(j0 + b, n, part + 1); ++c)
          for (int64_t r = j0; r < j0 + b; ++r) W(r, c) = double(F[size_t(c * m + r)]);
      }
      if (float_updates && j0 == 0)  // F from A, each part a share of the columns
        for (int64_t c = share(0, n, part); c < share(0, n, part + 1); ++c)
          call_out_of_line<&to_float>(W.col(c), F.data() + c * m, m);
      if (part == 0 && team_parts > 1) team.next(j0, from, kPanel);
      if (team_parts > 1) tp::detail::team_sync();  // solo is set, X and Y cleared
      parts = team.solo ? 1 : team_parts;
      for (int64_t i = 0; part < parts && i < b; ++i) {  // (no columns for a helper while part 0 is solo)
        const int64_t k = j0 + i;  // the global row and column of this step
        double* ck = W.col(k);
        // (Column k got the panel's earlier reflectors at the end of the previous step.) u from A(k:, k):
        // in place alone; in a team on the part's copy, which the parts store once all have read the column.
        double* u = parts == 1 ? ck : ub.data() + part * m;
        if (parts > 1) std::copy(ck + k, ck + m, u + k);
        const double tq = make_householder(u[k], u + k + 1, m - k - 1, drop);
        const double beta = u[k];
        if (part == 0) {
          tauq[size_t(k)] = tq;
          d[size_t(k)] = beta;
        }
        if (k + 1 >= n) break;
        u[k] = 1.0;  // u = A(k:, k) with its unit entry
        const int64_t cols = n - k - 1;
        const bool split = cols >= kSplitFrom;
        const int64_t chunks = split ? kChunks : 1, ch0 = chunks * part / parts, ch1 = chunks * (part + 1) / parts;
        const int64_t cc0 = k + 1 + cols * ch0 / chunks, cc1 = k + 1 + cols * ch1 / chunks;  // the part's columns
        float* uf = float_updates ? ufb.data() + part * m : nullptr;
        if (float_updates) call_out_of_line<&to_float>(u + k, uf + k, m - k);
        // Y(k+1:, i) = A(k:, k+1:)^T u on the trailing matrix as it was when the panel began, in kChunks fixed
        // column ranges (a part takes its own): each y_j is summed the same way whatever the count.
        double* y = Yv.data() + i * n;
        for (int64_t c = ch0; c < ch1; ++c) {
          const int64_t c0 = k + 1 + cols * c / chunks, c1 = k + 1 + cols * (c + 1) / chunks;
          if (float_updates) call_out_of_line<&column_dots_float>(F.data(), m, k, c0, c1, uf, y);
          else call_out_of_line<&column_dots>(W, k, c0, c1, u, y);
        }
        // ... minus the panel's earlier updates: Y(k+1:, i) -= Y(k+1:, 0:i) (V^T u) + U(0:i, k+1:)^T (X^T u), times
        // tq. Row k gets H_k and the panel's earlier updates: A(k, k+1:) -= Y(k+1:, 0:i+1) V(k, 0:i+1)^T +
        // X(k, 0:i) U(0:i, k+1:), taken in v (indexed by global column) so that every loop runs along contiguous
        // memory: a column of Y or a row of Ur. A row of W is m doubles apart, a cache line per entry. V(k, i)
        // is u's unit entry (part 0 may not have stored it yet).
        call_out_of_line<&panel_u_dots>(W.col(j0), Xv.data(), m, k, u, i, t1, t2);
        for (int64_t p = 0; p < i; ++p) av[p] = W(k, j0 + p), xk[p] = Xv[size_t(p * m + k)];
        av[i] = 1.0;
        call_out_of_line<&panel_y_and_row>(y, vrow.data(), cc0, cc1, Yv.data(), Ur.data(), n, i, t1, t2, tq, W.a.data() + k,
                                           m, av, xk);
        sync();  // Y(:, i) and row k in v are ready
        if (parts > 1)  // u stored, each part its share of the rows: every part has read column k
          std::copy(u + k + (m - k) * part / parts, u + k + (m - k) * (part + 1) / parts, ck + k + (m - k) * part / parts);
        // G_k from row k: v = A(k, k+1:) with its unit entry (in a team, each part on its own copy).
        double* v = parts == 1 ? vrow.data() : vb.data() + part * n;
        if (parts > 1) std::copy(vrow.data() + k + 1, vrow.data() + n, v + k + 1);
        const double tp_ = make_householder(v[k + 1], v + k + 2, cols - 1, drop);
        if (part == 0) {
          taup[size_t(k)] = tp_;
          e[size_t(k)] = v[k + 1];
        }
        v[k + 1] = 1.0;
        for (int64_t c = cc0; c < cc1; ++c) W(k, c) = v[c];  // each part its columns (a cache line per entry)
        std::copy(v + cc0, v + cc1, Ur.data() + i * n + cc0);
        // X(k+1:, i) = A(k+1:, k+1:) v on the trailing matrix as it was when the panel began, in the fixed
        // chunks of sum_over_chunks (the bits do not depend on the thread count): each part its own chunks'
        // partial sums, then their sum by rows below.
        double* x = Xv.data() + i * m;
        float* vf = float_updates ? vfb.data() + part * n : nullptr;
        if (float_updates) call_out_of_line<&to_float>(v + cc0, vf + cc0, cc1 - cc0);
        auto axpys = [&](int64_t c0, int64_t c1, double* out) {
          if (float_updates) call_out_of_line<&column_axpys_float>(F.data(), m, k + 1, c0, c1, vf, out);
          else call_out_of_line<&column_axpys>(W, k + 1, c0, c1, v, out);
        };
        if (!split) {
          axpys(k + 1, n, x);
        } else {
          for (int64_t c = ch0; c < ch1; ++c) {
            double* xc = partial.data() + c * m;
            std::fill(xc + k + 1, xc + m, 0.0);
            axpys(k + 1 + cols * c / kChunks, k + 1 + cols * (c + 1) / kChunks, xc);
          }
        }
        // ... minus the panel's earlier updates: X(k+1:, i) -= V(k+1:, 0:i+1) (Y^T v) + X(k+1:, 0:i) (U v), the
        // dot products shared (tv: each whole, by one part).
        call_out_of_line<&panel_v_dots>(Yv.data(), Ur.data(), n, k + 1, v, (i + 1) * part / parts,
                                        (i + 1) * (part + 1) / parts, i, tv.data(), tv.data() + kT);
        sync();  // the chunks' partials, the dots (and W's row k) are ready
        const int64_t r0 = k + 1 + (m - k - 1) * part / parts, r1 = k + 1 + (m - k - 1) * (part + 1) / parts;
        call_out_of_line<&panel_x_rows>(x, r0, r1, partial.data(), split, W.col(j0), Xv.data(), m, i, tv.data(),
                                        tv.data() + kT, tp_);
        // Column k + 1 gets the panel's reflectors 0..i on the same rows: A(k+1:, k+1) -= V Y(k+1, :)^T + X U(:, k+1).
        if (i + 1 < b)
          call_out_of_line<&panel_column_rows>(W.col(k + 1), r0, r1, W.col(j0), Xv.data(), m, Yv.data() + k + 1, n, j0,
                                               i + 1);
        sync();  // X(:, i) and column k + 1 are ready
      }
      parts = team_parts;
      if (team_parts > 1) tp::detail::team_sync();  // (part 0 alone reduced the columns)
      // The trailing matrix (rows and columns from j0 + b) gets the whole panel: A -= V Y^T + X U.
      const int64_t t0 = j0 + b;
      if (t0 < n) {
        const Rank2kOperands ops{W.col(j0), m, Yv.data(), 1, n, Xv.data(), m, W.a.data() + j0, m, 1, b};
        const int64_t cols = n - t0;
        const int q = part, qs = cols >= kSplitFrom ? parts : 1;
        if (q < qs) {
          if (float_updates) {
            // F(t0:, t0:) -= [V X] [Y U]^T, F's columns split over threads by the column chunks the next panel's
            // products read (not inside sgemm): what a thread writes is what it reads next, in its own core's
            // cache. Each part packs its share of Af's rows and its own columns of Bf, and once Af is whole
            // accumulates into its columns: each entry one sgemm sum (2b <= kc) whatever the split, the same bits.
            const int64_t a = t0 + cols * (kChunks * q / qs) / kChunks;
            const int64_t z = t0 + cols * (kChunks * (q + 1) / qs) / kChunks, rows = m - t0;
            pack_rank2k_float_part(ops, t0, rows, rows * q / qs, rows * (q + 1) / qs, t0, a - t0, z - t0, -1.0f,
                                   Af.data(), Bf.data());
            if (qs > 1) tp::detail::team_sync();  // Af is ready (a part's Bf columns are its own)
            kernels::sgemm(z - a, rows, 2 * b, Bf.data() + (a - t0) * 2 * b, 2 * b, 1, Af.data(), rows, 1,
                           F.data() + a * m + t0, m, true);
          } else {
            for (int64_t c = kChunks * q / qs; c < kChunks * (q + 1) / qs; ++c)
              rank2k_update(W, t0, t0 + cols * c / kChunks, t0 + cols * (c + 1) / kChunks, false, ops);
          }
        }
        if (team_parts > 1) tp::detail::team_sync();
      }
      if (part == 0)
        for (int64_t i = 0; i < b; ++i) {  // the unit entries back to the bidiagonal
          const int64_t k = j0 + i;
          W(k, k) = d[size_t(k)];
          if (k + 1 < n) W(k, k + 1) = e[size_t(k)];
        }
    }
  };
  run_panels(n, kPanel, max_parts, panels);
}

}  // namespace tp::linalg::detail
