// Blocked Householder bidiagonalization, m >= n (LAPACK dgebrd with dlabrd), in double: each panel of
// kPanel rows and columns is reduced with products by the trailing matrix that only read it, and the
// trailing matrix is updated once per panel, A -= V Y^T + X U^T (rank2k_update). The unblocked reduction
// (bidiagonal_reduce) reads and writes the trailing matrix twice per column.
#include <algorithm>
#include <cmath>
#include <vector>

#include "linalg_detail.hpp"
#include "out_of_line.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

using tp::detail::call_out_of_line;

namespace {

constexpr int64_t kPanel = 32;

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
  // X (m, kPanel) and Y (n, kPanel), column-major, indexed by global row / column (dlabrd's X and Y).
  // Ur (kPanel, n) row-major: the panel's right reflectors, row p = U(p, :) = row j0 + p of W. The steps
  // read U across columns, which in W are m doubles apart (a cache line and, past 512 columns, a page per
  // entry); the copy makes those three passes per step contiguous.
  LineVector Xv(size_t(m * kPanel)), Yv(size_t(n * kPanel)), t(size_t(kPanel + 1)), partial(size_t(kChunks * m)),
      vrow(static_cast<size_t>(n)), Ur(size_t(kPanel * n));
  // With float updates, the products with the trailing matrix read F, its float copy taken as each panel
  // begins (m, n column-major, rows and columns from the panel's first), and u, v in float.
  std::vector<float> F(float_updates ? size_t(m * n) : 0), uf(float_updates ? size_t(m) : 0),
      vf(float_updates ? size_t(n) : 0);
  auto X = [&](int64_t r, int64_t p) -> double& { return Xv[size_t(p * m + r)]; };
  auto Y = [&](int64_t c, int64_t p) -> double& { return Yv[size_t(p * n + c)]; };
  for (int64_t j0 = 0; j0 < n; j0 += kPanel) {
    const int64_t b = std::min(kPanel, n - j0);
    std::fill(Xv.begin(), Xv.end(), 0.0);
    std::fill(Yv.begin(), Yv.end(), 0.0);
    if (float_updates && j0 == 0)  // later panels' F is refreshed by the previous panel's update
      for (int64_t c = j0; c < n; ++c)
        for (int64_t r = j0; r < m; ++r) F[size_t(c * m + r)] = float(W(r, c));
    for (int64_t i = 0; i < b; ++i) {
      const int64_t k = j0 + i;  // the global row and column of this step
      double* ck = W.col(k);
      // Column k gets the panel's earlier reflectors: A(k:, k) -= V(k:, 0:i) Y(k, 0:i)^T + X(k:, 0:i) U(0:i, k).
      for (int64_t p = 0; p < i; ++p) {
        const double* vp = W.col(j0 + p);
        const double a = Y(k, p), c = W(j0 + p, k);
        const double* xp = Xv.data() + p * m;
        for (int64_t r = k; r < m; ++r) ck[r] -= vp[r] * a + xp[r] * c;
      }
      const double tq = make_householder(ck[k], ck + k + 1, m - k - 1, drop);
      tauq[size_t(k)] = tq;
      d[size_t(k)] = ck[k];
      if (k + 1 >= n) break;
      ck[k] = 1.0;  // u = A(k:, k) with its unit entry
      const double* u = ck;
      const int64_t cols = n - k - 1;
      // Y(k+1:, i) = A(k:, k+1:)^T u on the trailing matrix as it was when the panel began, split by columns.
      // Over threads in kChunks fixed column ranges: each y_j is summed the same way whatever the count.
      {
        double* y = Yv.data() + i * n;
        const int parts = cols >= kSplitFrom ? int(std::min<int64_t>(kernels::sgemm_threads(), kChunks)) : 1;
        const int64_t chunks = cols >= kSplitFrom ? kChunks : 1;
        if (float_updates)
          for (int64_t r = k; r < m; ++r) uf[size_t(r)] = float(u[r]);
        tp::detail::run_parts(parts, [&](int part) {
          for (int64_t c = chunks * part / parts; c < chunks * (part + 1) / parts; ++c) {
            const int64_t c0 = k + 1 + cols * c / chunks, c1 = k + 1 + cols * (c + 1) / chunks;
            if (float_updates) call_out_of_line<&column_dots_float>(F.data(), m, k, c0, c1, uf.data(), y);
            else call_out_of_line<&column_dots>(W, k, c0, c1, u, y);
          }
        });
      }
      // ... minus the panel's earlier updates: Y(k+1:, i) -= Y(k+1:, 0:i) (V^T u) + U(0:i, k+1:)^T (X^T u).
      for (int64_t p = 0; p < i; ++p) t[size_t(p)] = dot(W.col(j0 + p) + k, u + k, m - k);
      for (int64_t p = 0; p < i; ++p) axpy(Yv.data() + i * n + k + 1, -t[size_t(p)], Yv.data() + p * n + k + 1, cols);
      for (int64_t p = 0; p < i; ++p) t[size_t(p)] = dot(Xv.data() + p * m + k, u + k, m - k);
      for (int64_t p = 0; p < i; ++p) axpy(Yv.data() + i * n + k + 1, -t[size_t(p)], Ur.data() + p * n + k + 1, cols);
      for (int64_t c = k + 1; c < n; ++c) Y(c, i) *= tq;
      // Row k gets H_k and the panel's earlier updates: A(k, k+1:) -= Y(k+1:, 0:i+1) V(k, 0:i+1)^T + X(k, 0:i) U(0:i, k+1:).
      // Taken in v (indexed by global column) so that every loop runs along contiguous memory: a column of Y
      // or a row of Ur. A row of W is m doubles apart, a cache line per entry: read and written once here.
      double* v = vrow.data();
      for (int64_t c = k + 1; c < n; ++c) v[c] = W(k, c);
      for (int64_t p = 0; p <= i; ++p) {
        const double a = W(k, j0 + p);
        const double* yp = Yv.data() + p * n;
        for (int64_t c = k + 1; c < n; ++c) v[c] -= yp[c] * a;
      }
      for (int64_t p = 0; p < i; ++p) axpy(v + k + 1, -X(k, p), Ur.data() + p * n + k + 1, cols);
      // G_k from row k: v = A(k, k+1:) with its unit entry.
      const double tp_ = make_householder(v[k + 1], v + k + 2, cols - 1, drop);
      taup[size_t(k)] = tp_;
      e[size_t(k)] = v[k + 1];
      v[k + 1] = 1.0;
      for (int64_t c = k + 1; c < n; ++c) W(k, c) = v[c];
      std::copy(v + k + 1, v + n, Ur.data() + i * n + k + 1);
      // X(k+1:, i) = A(k+1:, k+1:) v on the trailing matrix as it was when the panel began, split in fixed
      // chunks (sum_over_chunks: the bits do not depend on the thread count).
      double* x = Xv.data() + i * m;
      if (float_updates)
        for (int64_t c = k + 1; c < n; ++c) vf[size_t(c)] = float(v[c]);
      auto axpys = [&](int64_t c0, int64_t c1, double* out) {
        if (float_updates) call_out_of_line<&column_axpys_float>(F.data(), m, k + 1, c0, c1, vf.data(), out);
        else call_out_of_line<&column_axpys>(W, k + 1, c0, c1, v, out);
      };
      if (cols < kSplitFrom) {
        axpys(k + 1, n, x);
      } else {
        sum_over_chunks(partial.data(), m, k + 1, m, x, [&](int64_t c, double* xc) {
          std::fill(xc + k + 1, xc + m, 0.0);
          axpys(k + 1 + cols * c / kChunks, k + 1 + cols * (c + 1) / kChunks, xc);
        });
      }
      // ... minus the panel's earlier updates: X(k+1:, i) -= V(k+1:, 0:i+1) (Y^T v) + X(k+1:, 0:i) (U v).
      for (int64_t p = 0; p <= i; ++p) {
        double s = 0.0;
        for (int64_t c = k + 1; c < n; ++c) s += Y(c, p) * v[c];
        t[size_t(p)] = s;
      }
      for (int64_t p = 0; p <= i; ++p) axpy(x + k + 1, -t[size_t(p)], W.col(j0 + p) + k + 1, m - k - 1);
      for (int64_t p = 0; p < i; ++p) t[size_t(p)] = dot(Ur.data() + p * n + k + 1, v + k + 1, cols);  // U v
      for (int64_t p = 0; p < i; ++p) axpy(x + k + 1, -t[size_t(p)], Xv.data() + p * m + k + 1, m - k - 1);
      for (int64_t r = k + 1; r < m; ++r) x[r] *= tp_;
    }
    // The trailing matrix (rows and columns from j0 + b) gets the whole panel: A -= V Y^T + X U.
    const int64_t t0 = j0 + b;
    if (t0 < n) {
      const Rank2kOperands ops{W.col(j0), m, Yv.data(), 1, n, Xv.data(), m, W.a.data() + j0, m, 1, b};
      const int64_t cols = n - t0;
      if (float_updates) {
        // Split over threads by the column chunks the next panel's products read (not inside sgemm), each
        // thread also taking the float copy F of its columns for the next panel: the part of W and F a thread
        // writes is the part it reads next, in its own core's cache, and the subtraction and the copy, serial
        // before, are split too. Each entry is the same sgemm sum and the same subtraction: the same bits.
        const int parts = cols >= kSplitFrom ? int(std::min<int64_t>(kernels::sgemm_threads(), kChunks)) : 1;
        tp::detail::run_parts(parts, [&](int part) {
          const int64_t a = t0 + cols * (kChunks * part / parts) / kChunks;
          const int64_t z = t0 + cols * (kChunks * (part + 1) / parts) / kChunks;
          rank2k_update_float(W, t0, a, false, ops, z);
          for (int64_t c = a; c < z; ++c)
            for (int64_t r = t0; r < m; ++r) F[size_t(c * m + r)] = float(W(r, c));
        });
      } else {
        const int parts = cols >= kSplitFrom ? int(std::min<int64_t>(kernels::sgemm_threads(), kChunks)) : 1;
        tp::detail::run_parts(parts, [&](int part) {
          for (int64_t c = kChunks * part / parts; c < kChunks * (part + 1) / parts; ++c)
            rank2k_update(W, t0, t0 + cols * c / kChunks, t0 + cols * (c + 1) / kChunks, false, ops);
        });
      }
    }
    for (int64_t i = 0; i < b; ++i) {  // the unit entries back to the bidiagonal
      const int64_t k = j0 + i;
      W(k, k) = d[size_t(k)];
      if (k + 1 < n) W(k, k + 1) = e[size_t(k)];
    }
  }
}

}  // namespace tp::linalg::detail
