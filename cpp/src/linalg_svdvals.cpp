// Singular values without vectors: the eigenvalues of the double Gram matrix of A (the smaller of A^T A
// and A A^T), built one panel of rows at a time, reduced to tridiagonal form in two stages (from
// kTwoStageFrom); also the double Gram product that svdLowrank uses.
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
// fill(r0, rl, j0, j1, P) writes rows [r0, r0+rl) of columns [j0, j1), X(r0 + i, j) to P[panel_at(i, j)].
// Only one panel of doubles exists at a time, so memory stays O(c^2 + kRows c) however tall X is. Within a
// panel, 4x2 tiles (gram_tile): the four i columns stay in L1 while j sweeps. With several threads
// (kernels::sgemm_threads()) the fill splits by columns and the tiles by equal shares of the triangle;
// every element is still summed by one thread in the same order, so G does not depend on the count.
template <class Fill>
static ColMat gram_streamed(int64_t r, int64_t c, Fill fill) {
  const int64_t cp = mult4(c), tiles = cp / 4;
  // A split is worth it from ~0.2 ms of work per panel (a wake-up of the pool costs microseconds).
  const bool split = kernels::sgemm_threads() > 1 && kRows * cp * cp / 2 >= (int64_t(1) << 18);
  const int parts = split ? int(std::min<int64_t>(kernels::sgemm_threads(), tiles)) : 1;
  const std::vector<int64_t> shares = triangle_shares(tiles, parts);
  LineVector P(size_t(kRows * cp), 0.0);  // columns from c stay zero
  ColMat G(cp, cp);
  for (int64_t r0 = 0; r0 < r; r0 += kRows) {
    const int64_t rl = std::min(kRows, r - r0), rle = even(rl);
    tp::detail::run_parts(parts, [&](int part) {
      const int64_t j0 = c * part / parts, j1 = c * (part + 1) / parts;
      fill(r0, rl, j0, j1, P.data());
      if (rle != rl)
        for (int64_t j = j0; j < j1; ++j) P[size_t(panel_at(rl, j))] = 0.0;
    });
    tp::detail::run_parts(parts, [&](int part) {
      for (int64_t i0 = 4 * shares[size_t(part)]; i0 < 4 * shares[size_t(part + 1)]; i0 += 4)
        for (int64_t j0 = 0; j0 < i0 + 4; j0 += 2) gram_tile(P.data(), rle, i0, j0, G);
    });
  }
  ColMat out(c, c);
  for (int64_t j = 0; j < c; ++j)
    for (int64_t i = j; i < c; ++i) out(i, j) = G(i, j);
  return out;
}

ColMat gram_lower_rows(const float* A, int64_t m, int64_t n) {
  return gram_streamed(m, n, [&](int64_t r0, int64_t rl, int64_t c0, int64_t c1, double* P) {
    // A row of A lands in one cache line per sliver, which the next row fills further.
    for (int64_t i = 0; i < rl; ++i) {
      const float* a = A + (r0 + i) * n;
      for (int64_t j = c0; j < c1; ++j) P[panel_at(i, j)] = a[j];
    }
  });
}

// X(c, q) and X(i, q) for the columns c in [c0, c1) of the symmetric trailing matrix A (lower triangle of W
// from its diagonal) and the vectors q of V: X += A V, each stored entry read once per pair of vectors.
// A(i, c) for i > c is both A(i, c) (its dot with V(:, q) goes to X(c, q)) and A(c, i) (its product with
// V(c, q) goes to X(i, q)). X and V are (n, b) column-major, indexed by global row; b even.
static void symm_columns(const ColMat& W, int64_t c0, int64_t c1, const double* V, int64_t b, double* X) {
  const int64_t n = W.rows;
  int64_t c = c0;
  for (; c + 2 <= c1; c += 2) {
    const double *a0 = W.col(c), *a1 = W.col(c + 1);
    for (int64_t q = 0; q < b; q += 2) {
      const double *v0 = V + q * n, *v1 = v0 + n;
      double *x0 = X + q * n, *x1 = x0 + n;
      // The corner: rows c and c + 1 (A(c, c), A(c+1, c), A(c+1, c+1)).
      x0[c] += a0[c] * v0[c] + a0[c + 1] * v0[c + 1];
      x1[c] += a0[c] * v1[c] + a0[c + 1] * v1[c + 1];
      x0[c + 1] += a0[c + 1] * v0[c] + a1[c + 1] * v0[c + 1];
      x1[c + 1] += a0[c + 1] * v1[c] + a1[c + 1] * v1[c + 1];
      const d2 p00 = {v0[c], v0[c]}, p10 = {v0[c + 1], v0[c + 1]}, p01 = {v1[c], v1[c]}, p11 = {v1[c + 1], v1[c + 1]};
      d2 s00 = {0, 0}, s01 = s00, s10 = s00, s11 = s00;
      int64_t i = c + 2;
      for (; i + 2 <= n; i += 2) {
        const d2 y0 = load2(a0 + i), y1 = load2(a1 + i), w0 = load2(v0 + i), w1 = load2(v1 + i);
        s00 += y0 * w0;
        s01 += y0 * w1;
        s10 += y1 * w0;
        s11 += y1 * w1;
        store2(x0 + i, load2(x0 + i) + (y0 * p00 + y1 * p10));
        store2(x1 + i, load2(x1 + i) + (y0 * p01 + y1 * p11));
      }
      double t00 = 0, t01 = 0, t10 = 0, t11 = 0;
      for (; i < n; ++i) {
        t00 += a0[i] * v0[i];
        t01 += a0[i] * v1[i];
        t10 += a1[i] * v0[i];
        t11 += a1[i] * v1[i];
        x0[i] += a0[i] * v0[c] + a1[i] * v0[c + 1];
        x1[i] += a0[i] * v1[c] + a1[i] * v1[c + 1];
      }
      x0[c] += (s00[0] + s00[1]) + t00;
      x1[c] += (s01[0] + s01[1]) + t01;
      x0[c + 1] += (s10[0] + s10[1]) + t10;
      x1[c + 1] += (s11[0] + s11[1]) + t11;
    }
  }
  for (; c < c1; ++c) {  // a last single column
    const double* a = W.col(c);
    for (int64_t q = 0; q < b; ++q) {
      const double* v = V + q * n;
      double* x = X + q * n;
      double s = a[c] * v[c];
      for (int64_t i = c + 1; i < n; ++i) {
        s += a[i] * v[i];
        x[i] += a[i] * v[c];
      }
      x[c] += s;
    }
  }
}

// The rotation of plane (p, p+1) as a similarity on the symmetric band matrix in the lower triangle of W
// (band half-width b, plus the bulge): rows p, p+1 over columns [klo, p), the 2x2 block on the diagonal,
// and columns p, p+1 over rows [p+2, p+b+2) (the last is the new bulge at (p+b+1, p)). Row x of the
// pair becomes c x + s y and row y becomes c y - s x.
static void rotate_band(ColMat& W, int64_t p, int64_t klo, int64_t b, double c, double s) {
  const int64_t n = W.rows;
  double* w = W.a.data();
  for (int64_t k = klo; k < p; ++k) {
    double* col = w + k * n;
    const double x = col[p], y = col[p + 1];
    col[p] = c * x + s * y;
    col[p + 1] = c * y - s * x;
  }
  double* cp = w + p * n;
  double* cq = cp + n;
  const double a = cp[p], bb = cp[p + 1], d = cq[p + 1];
  cp[p] = c * c * a + 2.0 * c * s * bb + s * s * d;
  cq[p + 1] = s * s * a - 2.0 * c * s * bb + c * c * d;
  cp[p + 1] = c * s * (d - a) + (c * c - s * s) * bb;
  const int64_t end = std::min(n, p + b + 2);
  for (int64_t i = p + 2; i < end; ++i) {
    const double x = cp[i], y = cq[i];
    cp[i] = c * x + s * y;
    cq[i] = c * y - s * x;
  }
}

// Zeroes W(r, t) against W(r-1, t) by the rotation of plane (r-1, r), then chases the bulge it leaves at
// (r+b, r-1) down and off the matrix, b rows per rotation.
static void eliminate_and_chase(ColMat& W, int64_t r, int64_t t, int64_t b) {
  const int64_t n = W.rows;
  for (;;) {
    const double y = W(r, t);
    if (y == 0.0) return;
    const double x = W(r - 1, t), h = rotation_hypot(x, y), c = x / h, s = y / h;
    W(r - 1, t) = h;
    W(r, t) = 0.0;
    rotate_band(W, r - 1, t + 1, b, c, s);
    t = r - 1;
    r = t + b + 1;
    if (r >= n) return;
  }
}

// W(i, j) -= sum over p < b of V(i, p) Y(j, p) + Y(i, p) V(j, p) (in p order, as rank2k_update sums it) for
// the columns j in [j0, j1) of the lower triangle of W, rows from the diagonal; V and Y are (n, b)
// column-major by global row. Tiles of 4 rows by 3 columns: 6 f64x2 sums, the 4 rows of V and Y and one
// column's two splats in registers, 14 in all (rank2k_update's 4x4 tile needs 16, and WebAssembly engines
// keep a scratch register of the 16: here its band updates ran at less than half of the Gram's rate).
static void band_update_columns(ColMat& W, int64_t j0, int64_t j1, const double* V, const double* Y, int64_t b) {
  const int64_t n = W.rows;
  auto entry = [&](int64_t i, int64_t j) {
    double s = 0.0;
    for (int64_t p = 0; p < b; ++p) s += V[p * n + i] * Y[p * n + j] + Y[p * n + i] * V[p * n + j];
    return s;
  };
  int64_t j = j0;
  for (; j + 3 <= j1; j += 3) {
    for (int64_t c = 0; c < 3; ++c)  // the corner: rows j..j+2 on and below the diagonal
      for (int64_t r = j + c; r < std::min(j + 3, n); ++r) W(r, j + c) -= entry(r, j + c);
    double* w0 = W.col(j);
    double* w1 = w0 + n;
    double* w2 = w1 + n;
    int64_t i = j + 3;
    for (; i + 4 <= n; i += 4) {
      d2 s00 = {0, 0}, s10 = s00, s01 = s00, s11 = s00, s02 = s00, s12 = s00;
      const double* v = V + i;
      const double* y = Y + i;
      const double* vj = V + j;
      const double* yj = Y + j;
      for (int64_t p = 0; p < b; ++p, v += n, y += n, vj += n, yj += n) {
        const d2 x0 = load2(v), x1 = load2(v + 2), u0 = load2(y), u1 = load2(y + 2);
        d2 c1 = {yj[0], yj[0]}, c2 = {vj[0], vj[0]};
        s00 += x0 * c1 + u0 * c2;
        s10 += x1 * c1 + u1 * c2;
        c1 = d2{yj[1], yj[1]}, c2 = d2{vj[1], vj[1]};
        s01 += x0 * c1 + u0 * c2;
        s11 += x1 * c1 + u1 * c2;
        c1 = d2{yj[2], yj[2]}, c2 = d2{vj[2], vj[2]};
        s02 += x0 * c1 + u0 * c2;
        s12 += x1 * c1 + u1 * c2;
      }
      store2(w0 + i, load2(w0 + i) - s00);
      store2(w0 + i + 2, load2(w0 + i + 2) - s10);
      store2(w1 + i, load2(w1 + i) - s01);
      store2(w1 + i + 2, load2(w1 + i + 2) - s11);
      store2(w2 + i, load2(w2 + i) - s02);
      store2(w2 + i + 2, load2(w2 + i + 2) - s12);
    }
    for (; i < n; ++i)
      for (int64_t c = 0; c < 3; ++c) W(i, j + c) -= entry(i, j + c);
  }
  for (; j < j1; ++j)  // the last columns, fewer than 3
    for (int64_t i = j; i < n; ++i) W(i, j) -= entry(i, j);
}

// Column ranges [bounds[c], bounds[c+1]) of equal work in the lower triangle of columns [lo, n).
static void triangle_chunks(int64_t lo, int64_t n, int64_t* bounds) {
  const int64_t len = n - lo;
  bounds[0] = lo;
  for (int64_t c = 1; c < kChunks; ++c)
    bounds[c] = n - int64_t(std::llround(double(len) * std::sqrt(1.0 - double(c) / kChunks)));
  bounds[kChunks] = n;
}

// Reduces the symmetric W (n, n; lower triangle) to a band of half-width b (b even) by orthogonal
// similarity (LAPACK dsytrd_sy2sb's first stage): panel by panel of b columns, a Householder QR of the
// panel below the band, then the trailing matrix A <- Q^T A Q as A - V Y^T - Y V^T with X = A V T and
// Y = X - V T^T (V^T X) / 2. The trailing matrix is read twice per panel (X, the update), not once per
// column as the one-stage reduction's symv reads it. Entries below the band are left zero.
static void band_reduce(ColMat& W, int64_t b) {
  const int64_t n = W.rows;
  LineVector V(size_t(n * b)), X(size_t(n * b)), T(size_t(b * b)), M(size_t(b * b)),
      partial(size_t(kChunks * n * b));
  std::vector<double> tau(static_cast<size_t>(b));
  int64_t bounds[kChunks + 1];
  for (int64_t k = 0; k + b + 1 < n; k += b) {
    const int64_t r0 = k + b, m = n - r0;
    // The panel's QR: reflector p zeroes column k+p below row r0+p; V holds it by global row.
    std::fill(V.begin(), V.end(), 0.0);
    for (int64_t p = 0; p < b; ++p) {
      double* col = W.col(k + p);
      const int64_t top = r0 + p;
      double* vp = V.data() + p * n;
      tau[size_t(p)] = top + 1 < n ? make_householder(col[top], col + top + 1, n - top - 1) : 0.0;
      if (top >= n) continue;
      vp[top] = 1.0;
      for (int64_t i = top + 1; i < n; ++i) {
        vp[i] = col[i];
        col[i] = 0.0;
      }
      reflect_columns(W, vp + top, n - top, tau[size_t(p)], top, k + p + 1, k + b);
    }
    // T (b, b) upper triangular, column-major, with Q = I - V T V^T (LAPACK dlarft, forward).
    std::fill(T.begin(), T.end(), 0.0);
    for (int64_t p = 0; p < b; ++p) {
      const double tp_ = tau[size_t(p)];
      T[size_t(p * b + p)] = tp_;
      if (tp_ == 0.0) continue;
      const int64_t top = r0 + p;
      double w[64];
      for (int64_t q = 0; q < p; ++q) w[q] = -tp_ * dot(V.data() + q * n + top, V.data() + p * n + top, n - top);
      for (int64_t q = 0; q < p; ++q) {
        double s = 0.0;
        for (int64_t u = q; u < p; ++u) s += T[size_t(u * b + q)] * w[u];
        T[size_t(p * b + q)] = s;
      }
    }
    // X = A V over the trailing matrix (rows and columns from r0), in fixed chunks of columns summed in
    // chunk order (the bits do not depend on the thread count).
    std::fill(X.begin(), X.end(), 0.0);
    if (m < kSplitFrom) {
      call_out_of_line<&symm_columns>(W, r0, n, V.data(), b, X.data());
    } else {
      triangle_chunks(r0, n, bounds);
      const int threads = int(std::min<int64_t>(kernels::sgemm_threads(), kChunks));
      tp::detail::run_parts(threads, [&](int part) {
        for (int64_t c = kChunks * part / threads; c < kChunks * (part + 1) / threads; ++c) {
          double* xc = partial.data() + c * n * b;
          for (int64_t q = 0; q < b; ++q) std::fill(xc + q * n + r0, xc + q * n + n, 0.0);
          call_out_of_line<&symm_columns>(W, bounds[c], bounds[c + 1], V.data(), b, xc);
        }
      });
      for (int64_t q = 0; q < b; ++q)
        for (int64_t i = r0; i < n; ++i) {
          double s = 0.0;
          for (int64_t c = 0; c < kChunks; ++c) s += partial[size_t(c * n * b + q * n + i)];
          X[size_t(q * n + i)] = s;
        }
    }
    // X <- X T (in place, last column first), M = T^T (V^T X), then Y = X - V M / 2 in X.
    for (int64_t i = r0; i < n; ++i)
      for (int64_t p = b - 1; p >= 0; --p) {
        double s = 0.0;
        for (int64_t q = 0; q <= p; ++q) s += X[size_t(q * n + i)] * T[size_t(p * b + q)];
        X[size_t(p * n + i)] = s;
      }
    for (int64_t p = 0; p < b; ++p) {
      double z[64];
      for (int64_t q = 0; q < b; ++q) z[q] = dot(V.data() + q * n + r0, X.data() + p * n + r0, m);
      for (int64_t q = 0; q < b; ++q) {
        double s = 0.0;
        for (int64_t u = 0; u <= q; ++u) s += T[size_t(q * b + u)] * z[u];
        M[size_t(p * b + q)] = s;
      }
    }
    for (int64_t p = 0; p < b; ++p)
      for (int64_t q = 0; q < b; ++q) axpy(X.data() + p * n + r0, -0.5 * M[size_t(p * b + q)], V.data() + q * n + r0, m);
    // A -= V Y^T + Y V^T on the lower triangle from r0, in fixed column chunks.
    const int parts = m >= kSplitFrom ? int(std::min<int64_t>(kernels::sgemm_threads(), kChunks)) : 1;
    triangle_chunks(r0, n, bounds);
    tp::detail::run_parts(parts, [&](int part) {
      for (int64_t c = kChunks * part / parts; c < kChunks * (part + 1) / parts; ++c)
        call_out_of_line<&band_update_columns>(W, bounds[c], bounds[c + 1], V.data(), X.data(), b);
    });
  }
}

// The band (half-width b) in the lower triangle of W reduced to tridiagonal form by plane rotations
// (Rutishauser/Schwarz: column by column, each entry below the subdiagonal zeroed from the bottom and its
// bulge chased off the end), d (n) the diagonal, e (n-1) the subdiagonal.
static void band_to_tridiagonal(ColMat& W, int64_t b, std::vector<double>& d, std::vector<double>& e) {
  const int64_t n = W.rows;
  for (int64_t j = 0; j + 2 < n; ++j)
    for (int64_t r = std::min(j + b, n - 1); r >= j + 2; --r) call_out_of_line<&eliminate_and_chase>(W, r, j, b);
  d.assign(size_t(n), 0.0);
  e.assign(size_t(std::max<int64_t>(n - 1, 0)), 0.0);
  for (int64_t i = 0; i < n; ++i) d[size_t(i)] = W(i, i);
  for (int64_t i = 0; i + 1 < n; ++i) e[size_t(i)] = W(i + 1, i);
}

void tridiagonalize_two_stage(ColMat& W, int64_t band, std::vector<double>& d, std::vector<double>& e) {
  TP_ASSERT(band >= 2 && band <= 64 && band % 2 == 0);
  band_reduce(W, band);
  band_to_tridiagonal(W, band, d, e);
}

void svdvals_double(const float* A, int64_t m, int64_t n, std::vector<double>& S) {
  // The Gram matrix of the columns of A (tall: A^T A) or of its rows (wide: A A^T), whichever is
  // smaller, converted to double one panel at a time.
  ColMat G;
  if (m < n) {
    G = gram_streamed(n, m, [&](int64_t r0, int64_t rl, int64_t c0, int64_t c1, double* P) {
      for (int64_t j = c0; j < c1; ++j)
        for (int64_t i = 0; i < rl; ++i) P[panel_at(i, j)] = A[j * n + r0 + i];
    });
  } else {
    G = gram_lower_rows(A, m, n);
  }
  const int64_t k = G.rows;
  std::vector<double> lambda, e, tau;
  if (k >= kTwoStageFrom) tridiagonalize_two_stage(G, kTwoStageBand, lambda, e);
  else if (k >= kBlockedQrFrom) tridiagonalize_blocked(G, lambda, e, tau, false);
  else tridiagonalize_unblocked(G, lambda, e, tau);
  // The values by the root-free QL iteration (no square root per step), implicit QL's rotations if it ran
  // out of iterations (which throws past its own bound). The Gram matrix of float32 data has entries
  // within 1e-90..1e81, whose squares double holds.
  const std::vector<double> diagonal = lambda;
  if (!tridiagonal_values_root_free(lambda, e, kMaxQlIterationsPerValue)) {
    lambda = diagonal;
    tridiagonal_ql(lambda, e, nullptr, kMaxQlIterationsPerValue);
  }
  std::sort(lambda.begin(), lambda.end());
  S.assign(size_t(k), 0.0);
  for (int64_t i = 0; i < k; ++i) S[size_t(i)] = std::sqrt(std::max(lambda[size_t(k - 1 - i)], 0.0));
}

}  // namespace tp::linalg::detail
