// Symmetric eigendecomposition: Householder tridiagonalization, then implicit QL with Wilkinson-type
// shifts (EISPACK tql2).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>

#include "linalg_detail.hpp"
#include "out_of_line.hpp"
#include "sort_order.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {


// Columns [j0, j1) of step k's fused pass (see tridiagonalize_unblocked): each column gets the pending update
// A -= vp wp^T + wp vp^T, then adds its part of T v to p: below the diagonal as an axpy, its mirror above
// the diagonal as a dot product into p[j]. p holds this range's partial sums (rows j0..n-1). Called out
// of line (out_of_line.hpp), at least once per step.
static void fused_columns(ColMat& W, int64_t j0, int64_t j1, const double* vp, const double* wp, const double* v,
                          double* p) {
  const int64_t n = W.rows;
  for (int64_t j = j0; j < j1; ++j) {
    double* c = W.col(j);
    const double a = wp[j], b = vp[j], vj = v[j];
    c[j] -= vp[j] * a + wp[j] * b;
    double s = c[j] * vj;
    const d2 a2 = {a, a}, b2 = {b, b}, vj2 = {vj, vj};
    d2 s2 = {0.0, 0.0};
    int64_t i = j + 1;
    for (; i + 2 <= n; i += 2) {
      const d2 ci = load2(c + i) - (load2(vp + i) * a2 + load2(wp + i) * b2);
      store2(c + i, ci);
      store2(p + i, load2(p + i) + ci * vj2);
      s2 += ci * load2(v + i);
    }
    for (; i < n; ++i) {
      c[i] -= vp[i] * a + wp[i] * b;
      p[i] += c[i] * vj;
      s += c[i] * v[i];
    }
    p[j] += s + (s2[0] + s2[1]);
  }
}

// Reduces the symmetric W (lower triangle) to tridiagonal T = Q^T W Q: diagonal d (n), subdiagonal e
// (n-1); the reflector vectors stay in W below the subdiagonal and their factors in tau.
// Step k needs p = tau T v on the trailing matrix after step k-1's rank-2 update; both are done in one
// pass over the lower triangle (update a column, then use it), so the matrix streams through memory
// once per step instead of twice.
// From kSplitFrom trailing columns the pass splits over threads (sum_over_chunks), into kChunks column
// ranges of equal work.
void tridiagonalize_unblocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tau) {
  const int64_t n = W.rows;
  zeros(d, n);
  zeros(e, std::max<int64_t>(n - 1, 0));
  zeros(tau, std::max<int64_t>(n - 1, 0));
  // The pending update A -= vp wp^T + wp vp^T of the previous step, and this step's v and p, all
  // indexed by global row (entries above the active block are never read).
  LineVector vp(size_t(n), 0.0), wp(size_t(n), 0.0), v(size_t(n), 0.0), p(size_t(n), 0.0);
  LineVector partial(n >= kSplitFrom ? size_t(kChunks * n) : 0);
  int64_t bounds[kChunks + 1];
  for (int64_t k = 0; k + 1 < n; ++k) {
    double* ck = W.col(k);
    for (int64_t i = k; i < n; ++i) ck[i] -= vp[size_t(i)] * wp[size_t(k)] + wp[size_t(i)] * vp[size_t(k)];
    d[size_t(k)] = ck[k];
    const int64_t len = n - k - 1;
    const double t = make_householder(ck[k + 1], ck + k + 2, len - 1);
    e[size_t(k)] = ck[k + 1];
    tau[size_t(k)] = t;
    v[size_t(k + 1)] = 1.0;
    for (int64_t i = k + 2; i < n; ++i) v[size_t(i)] = ck[i];
    for (int64_t i = k + 1; i < n; ++i) p[size_t(i)] = 0.0;
    if (len < kSplitFrom) {
      tp::detail::call_out_of_line<&fused_columns>(W, k + 1, n, vp.data(), wp.data(), v.data(), p.data());
    } else {
      // Column j costs ~ n - j: chunk c ends where the trailing triangle's area is split c+1 : rest.
      bounds[0] = k + 1;
      for (int64_t c = 1; c < kChunks; ++c)
        bounds[c] = n - int64_t(std::llround(double(len) * std::sqrt(1.0 - double(c) / kChunks)));
      bounds[kChunks] = n;
      sum_over_chunks(partial.data(), n, k + 1, n, p.data(),
                      [&W, &bounds, k, n, vp = vp.data(), wp = wp.data(), v = v.data()](int64_t c, double* pc) {
                        std::fill(pc + k + 1, pc + n, 0.0);
                        tp::detail::call_out_of_line<&fused_columns>(W, bounds[c], bounds[c + 1], vp, wp, v, pc);
                      });
    }
    // w = t p - (t^2/2)(p.v) v makes T - v w^T - w v^T equal to H T H; it is applied in the next pass.
    const double pv = dot(p.data() + k + 1, v.data() + k + 1, len);
    const double alpha = -0.5 * t * t * pv;
    for (int64_t i = 0; i <= k; ++i) vp[size_t(i)] = wp[size_t(i)] = 0.0;
    for (int64_t i = k + 1; i < n; ++i) {
      vp[size_t(i)] = v[size_t(i)];
      wp[size_t(i)] = t * p[size_t(i)] + alpha * v[size_t(i)];
    }
  }
  if (n > 0) {
    double& last = W(n - 1, n - 1);
    last -= 2.0 * vp[size_t(n - 1)] * wp[size_t(n - 1)];
    d[size_t(n - 1)] = last;
  }
}

// Implicit QL on the symmetric tridiagonal (d, e); rotations go to the columns of Z when not null.
// Not inlined: eigh, svdvals and the divide-and-conquer leaves share one copy.
__attribute__((noinline)) void tridiagonal_ql(std::vector<double>& d, std::vector<double>& e_in, ColMat* Z,
                                              int max_iterations) {
  const int64_t n = int64_t(d.size());
  std::vector<double> e(size_t(n), 0.0);
  for (int64_t i = 0; i + 1 < n; ++i) e[size_t(i)] = e_in[size_t(i)];
  RotationLog zlog(Z);
  // A subdiagonal entry is negligible next to its two diagonal neighbours (keeps small eigenvalues
  // relatively accurate) or next to the whole matrix: the relative test alone can stall forever when
  // a block holds eigenvalues at the rounding level of a large one (e.g. the all-ones matrix).
  double tnorm = 0.0;
  for (int64_t i = 0; i < n; ++i) tnorm = std::max(tnorm, std::fabs(d[size_t(i)]) + std::fabs(e[size_t(i)]));
  const double tiny = DBL_EPSILON * tnorm;
  for (int64_t l = 0; l < n; ++l) {
    int iter = 0;
    int64_t m;
    do {
      for (m = l; m + 1 < n; ++m) {
        const double dd = std::fabs(d[size_t(m)]) + std::fabs(d[size_t(m + 1)]);
        if (std::fabs(e[size_t(m)]) <= DBL_EPSILON * dd || std::fabs(e[size_t(m)]) <= tiny) break;
      }
      if (m == l) break;
      if (iter++ == max_iterations)
        fail("linalg.eigh", "the tridiagonal QL iteration did not converge in ", max_iterations, " iterations (value ",
             l, ")");
      double g = (d[size_t(l + 1)] - d[size_t(l)]) / (2.0 * e[size_t(l)]);
      double r = rotation_hypot(g, 1.0);
      g = d[size_t(m)] - d[size_t(l)] + e[size_t(l)] / (g + std::copysign(r, g));
      double s = 1.0, c = 1.0, p = 0.0;
      int64_t i = m - 1;
      bool underflow = false;
      for (; i >= l; --i) {
        double f = s * e[size_t(i)];
        const double b = c * e[size_t(i)];
        r = rotation_hypot(f, g);
        e[size_t(i + 1)] = r;
        if (r == 0.0) {  // recover from underflow: deflate and restart
          d[size_t(i + 1)] -= p;
          e[size_t(m)] = 0.0;
          underflow = true;
          break;
        }
        s = f / r;
        c = g / r;
        g = d[size_t(i + 1)] - p;
        r = (d[size_t(i)] - g) * s + 2.0 * c * b;
        p = s * r;
        d[size_t(i + 1)] = g + p;
        g = c * r - b;
        // Columns i and i+1 of Z: z_i <- c z_i - s z_{i+1}, z_{i+1} <- s z_i + c z_{i+1}.
        zlog.rotate_columns(i, i + 1, c, -s);
      }
      if (underflow) continue;
      d[size_t(l)] -= p;
      e[size_t(l)] = g;
      e[size_t(m)] = 0.0;
    } while (m != l);
  }
  zlog.flush();
}

// The eigenvalues of the symmetric 2x2 [[a, b], [b, c]] (LAPACK dlae2): rt1 the larger in magnitude, rt2
// from it and the determinant so that a tiny eigenvalue keeps its relative accuracy.
static void symmetric_2x2_values(double a, double b, double c, double& rt1, double& rt2) {
  const double sm = a + c, adf = std::fabs(a - c), ab = std::fabs(b + b);
  const double acmx = std::fabs(a) > std::fabs(c) ? a : c, acmn = std::fabs(a) > std::fabs(c) ? c : a;
  double rt;
  if (adf > ab) rt = adf * std::sqrt(1.0 + (ab / adf) * (ab / adf));
  else if (adf < ab) rt = ab * std::sqrt(1.0 + (adf / ab) * (adf / ab));
  else rt = ab * std::sqrt(2.0);
  if (sm == 0.0) {
    rt1 = 0.5 * rt;
    rt2 = -0.5 * rt;
    return;
  }
  rt1 = 0.5 * (sm < 0.0 ? sm - rt : sm + rt);
  rt2 = (acmx / rt1) * acmn - (b / rt1) * b;
}

// The eigenvalues (into d, unsorted) of the symmetric tridiagonal (d, e) by the root-free QL iteration of
// Pal, Walker and Kahan (LAPACK dsterf's QL branch): it runs on the squares e_i^2, so a step takes two
// divisions and no square root, against a hypot and two divisions for tridiagonal_ql's rotations, whose
// steps it otherwise matches (the same shift, the same deflation tests, squared). The squares need
// entries within ~1e+-150 (no scaling): callers pass tridiagonals of float32 matrices. False past
// max_iterations per value.
bool tridiagonal_values_root_free(std::vector<double>& d, const std::vector<double>& e_in, int max_iterations) {
  const int64_t n = int64_t(d.size());
  std::vector<double> e2(size_t(n), 0.0);
  double tnorm = 0.0;
  for (int64_t i = 0; i < n; ++i) {
    const double ei = i + 1 < n ? e_in[size_t(i)] : 0.0;
    e2[size_t(i)] = ei * ei;
    tnorm = std::max(tnorm, std::fabs(d[size_t(i)]) + std::fabs(ei));
  }
  const double tiny2 = (DBL_EPSILON * tnorm) * (DBL_EPSILON * tnorm), eps2 = DBL_EPSILON * DBL_EPSILON;
  for (int64_t l = 0; l < n; ++l) {
    int iter = 0;
    for (;;) {
      int64_t m = l;
      for (; m + 1 < n; ++m) {
        const double dd = std::fabs(d[size_t(m)]) + std::fabs(d[size_t(m + 1)]);
        if (e2[size_t(m)] <= eps2 * dd * dd || e2[size_t(m)] <= tiny2) break;
      }
      if (m == l) break;
      if (iter++ == max_iterations) return false;
      if (m == l + 1) {  // a 2x2 block: its eigenvalues directly
        symmetric_2x2_values(d[size_t(l)], std::sqrt(e2[size_t(l)]), d[size_t(l + 1)], d[size_t(l)], d[size_t(l + 1)]);
        e2[size_t(l)] = 0.0;
        continue;
      }
      const double rte = std::sqrt(e2[size_t(l)]);
      double sigma = (d[size_t(l + 1)] - d[size_t(l)]) / (2.0 * rte);
      sigma = d[size_t(l)] - rte / (sigma + std::copysign(rotation_hypot(sigma, 1.0), sigma));
      double c = 1.0, s = 0.0, gamma = d[size_t(m)] - sigma, p = gamma * gamma;
      // A step waits on the last one's p, through latencies, not throughput: dsterf's gamma = c (alpha - sigma)
      // - s oldgam and p = gamma^2 / c put two divisions in a row on that path (~41 cycles a step). The same
      // quantities as x = p (alpha - sigma) - bb oldgam, gamma = x / r and p = gamma^2 (r / p) = gamma (x / p)
      // need 1 / r and x / p, which start together, and p's path is then r, 1 / r, gamma and one product
      // (gamma^2 (r / p) took two: ~25 cycles, 1.5x faster than dsterf natively; gamma (x / p) ~22: eigh 1024's
      // values 8.7 -> 8.4 ms and svd 1024's 8.3 -> 7.9 in Chromium); as accurate against a long double run
      // (8.3e-15 and 6.9e-15 of the largest value on two n = 1024 tridiagonals, gamma^2 (r / p) 1.1e-14 and
      // 4.7e-15; eigh's float32 outputs at n = 300, 513, 1024 kept their bits). A c = p / r below DBL_MIN takes
      // dsterf's form (r / p overflows; x / p = gamma / c overflows only where the new p = gamma^2 / c does).
      for (int64_t i = m - 1; i >= l; --i) {
        const double bb = e2[size_t(i)], r = p + bb;
        if (i != m - 1) e2[size_t(i + 1)] = s * r;
        const double oldc = c, rinv = 1.0 / r;
        c = p * rinv;
        s = bb * rinv;
        const double oldgam = gamma, alpha = d[size_t(i)], x = p * (alpha - sigma) - bb * oldgam;
        gamma = x * rinv;
        d[size_t(i + 1)] = oldgam + (alpha - gamma);
        p = c >= DBL_MIN ? gamma * (x / p) : c != 0.0 ? gamma * gamma / c : oldc * bb;
      }
      e2[size_t(l)] = s * p;
      d[size_t(l)] = sigma + gamma;
    }
  }
  return true;
}

// One step over the unreduced blocks of the symmetric tridiagonal (d, e) (it splits where an e_i is negligible,
// the test of tridiagonal_ql): kValues, each block's eigenvalues into w (n) by the root-free QL, ascending within
// the block (beside the back-transformation's preparation; a block whose QL did not converge in max_iterations
// per value gets NaNs, and the step returns false); kQlValues, those blocks' by tridiagonal_ql (which throws if
// it fails too); kVectors, the eigenvectors Zt (n, n, zero) for w by inverse iteration, rows outside the block
// zero (false when some vector did not converge). One loop for the three: the blocks' code once, for size.
enum TridiagonalStep { kValues, kQlValues, kVectors };
__attribute__((noinline)) static bool tridiagonal_blocks_step(const std::vector<double>& d, const std::vector<double>& e,
                                                              std::vector<double>& w, ColMat& Zt, int max_iterations,
                                                              TridiagonalStep step) {
  const int64_t n = int64_t(d.size());
  double tnorm = 0.0;
  for (int64_t i = 0; i < n; ++i)
    tnorm = std::max(tnorm, std::fabs(d[size_t(i)]) + (i + 1 < n ? std::fabs(e[size_t(i)]) : 0.0));
  const double tiny = DBL_EPSILON * tnorm;
  bool converged = true;
  std::vector<double> db, eb;
  for (int64_t b0 = 0; b0 < n;) {
    int64_t b1 = b0 + 1;  // the block is [b0, b1)
    for (; b1 < n; ++b1) {
      const double ee = std::fabs(e[size_t(b1 - 1)]);
      if (ee <= DBL_EPSILON * (std::fabs(d[size_t(b1 - 1)]) + std::fabs(d[size_t(b1)])) || ee <= tiny) break;
    }
    const int64_t size = b1 - b0;
    if (step == kVectors) {
      // One solve past convergence, not dstein's two: each multiplies the error by ~eps ||T|| / gap, and one
      // leaves ~1e-13 outside clusters, far under the float32 vectors' rounding (svd's TGK vectors do the same).
      converged &= tridiagonal_block_vectors(d.data() + b0, e.data() + b0, size, w.data() + b0, size,
                                             Zt.col(b0) + b0, n, uint64_t(b0), 1);
    } else if (step == kValues || w[size_t(b0)] != w[size_t(b0)]) {
      // Ranges as const double* (not iterators): the module's one vector<double>::assign instance for a
      // range is the one on const double*; the iterator instances were ~0.9 KB more.
      db.assign(d.data() + b0, d.data() + b1);
      eb.assign(e.data() + b0, e.data() + b1 - 1);
      if (step == kQlValues) {
        tridiagonal_ql(db, eb, nullptr, max_iterations);
      } else if (!tridiagonal_values_root_free(db, eb, max_iterations)) {
        converged = false;
        std::fill(db.begin(), db.end(), NAN);
      }
      const std::vector<int64_t> ascending = sorted_order(db, false);
      for (int64_t j = 0; j < size; ++j) w[size_t(b0 + j)] = db[size_t(ascending[size_t(j)])];
    }
    b0 = b1;
  }
  return converged;
}

std::vector<int64_t> sorted_order(const std::vector<double>& keys, bool descending) {
  return tp::detail::sort_order(int64_t(keys.size()), [&](int64_t a, int64_t b) {
    const double x = keys[size_t(a)], y = keys[size_t(b)];
    return descending ? x > y : x < y;
  });
}

// From this size eigh's vectors come from divide and conquer (or inverse iteration) and one blocked
// back-transformation (float32 GEMMs); below, from the rotations of implicit QL applied to Q.
constexpr int64_t kInverseIterationFrom = kBlockedQrFrom;

void symmetric_eig(ColMat& W, std::vector<double>& w, ColMat* Z, int max_iterations, bool float32_steps, float* V) {
  const int64_t n = W.rows;
  std::vector<double> e, tau;
  // Float updates only with vectors: those are float32 output anyway, while the values alone also serve
  // svdvals, whose Gram matrix needs double to keep its small eigenvalues.
  if (n >= kBlockedQrFrom) tridiagonalize_blocked(W, w, e, tau, Z != nullptr && float32_steps);
  else tridiagonalize_unblocked(W, w, e, tau);
  if (Z && float32_steps && n >= kInverseIterationFrom) {
    // The back-transformation's blocks are prepared while one thread finds the values (O(n^2), serial), and the
    // vectors' zeros laid (8 MB at n = 1024) by the first thread done with the blocks: a thread the values leave
    // idle half the time.
    BackJob job = column_back_job(W, tau, 1, n);  // reflector k: unit at row k+1, vector below it in column k
    std::vector<double> lambda(static_cast<size_t>(n));
    ColMat Zt;
    bool root_free = true;
    prepare_back(&job, 1, [&](bool after) {
      if (after) Zt = ColMat(n, n);
      else root_free = tridiagonal_blocks_step(w, e, lambda, Zt, max_iterations, kValues);
    });
    if (!root_free) tridiagonal_blocks_step(w, e, lambda, Zt, max_iterations, kQlValues);
    if (tridiagonal_blocks_step(w, e, lambda, Zt, max_iterations, kVectors)) {
      // Ascending across blocks (each block is sorted already), vectors following (the back-transformation
      // reads Zt's columns in this order), then Z = Q Zt.
      const std::vector<int64_t> order = sorted_order(lambda, false);
      for (int64_t j = 0; j < n; ++j) w[size_t(j)] = lambda[size_t(order[size_t(j)])];
      job.c = Zt.a.data(), job.crows = job.ldc = n, job.order = order.data();
      job.dst = V, job.drs = n, job.dcs = 1;
      apply_back(&job, 1);
      *Z = std::move(job.out);
      return;
    }
    // Inverse iteration gave up on some vector: divide and conquer next (ascending, vectors following;
    // on a Gaussian 1024 it took 0.60-0.70 s CPU against inverse iteration's 0.46-0.58, but 0.8 against
    // 1.1-1.3 on four tight clusters), the QL rotations below if a secular equation did not converge.
    if (tridiagonal_divide_conquer(w, e, lambda, Zt, max_iterations)) {
      w = lambda;
      job.c = Zt.a.data(), job.crows = job.ldc = n;
    }
    apply_back(&job, 1);  // Q Zt, else Q itself (reflector k: unit at row k+1, vector below it in column k)
    *Z = std::move(job.out);
    if (job.c) return;
  } else if (Z) {
    *Z = ColMat::identity(n, n);
    std::vector<double> v;
    for (int64_t k = n - 2; k >= 0; --k) {
      v.assign(W.col(k) + k + 1, W.col(k) + n);
      v[0] = 1.0;
      reflect_columns(*Z, v.data(), n - k - 1, tau[size_t(k)], k + 1, k + 1, n);
    }
  }
  tridiagonal_ql(w, e, Z, max_iterations);
  // Ascending, with the eigenvector columns following their values.
  const std::vector<int64_t> order = sorted_order(w, false);
  std::vector<double> ws(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) ws[size_t(i)] = w[size_t(order[size_t(i)])];
  w = ws;
  if (Z) {
    ColMat S(n, n);
    for (int64_t j = 0; j < n; ++j) std::copy(Z->col(order[size_t(j)]), Z->col(order[size_t(j)]) + n, S.col(j));
    *Z = std::move(S);
  }
}

}  // namespace tp::linalg::detail

namespace tp::linalg {

using namespace detail;

// T = float (float32 steps allowed) or double (every step in double).
template <class T>
static void eigh_any(const T* A, int64_t n, T* w, T* V) {
  if (n < 0) fail("linalg.eigh", "negative matrix size ", n);
  // Only the lower triangle is read (like numpy's UPLO='L'), but NaN or Inf anywhere is refused.
  check_finite("linalg.eigh", A, n * n);
  // Both copies between the row-major A, V and the column-major W, Z go by row tiles over the threads
  // (float32's). A's into W 8 rows at a time across the columns: W's column runs of 8 fill whole lines, and
  // 8 row streams of A stay in L1 even at a row stride of 4 KB (32x32 tiles took 1.9 ms at n = 1024 in
  // Chromium: 32 rows 4 KB apart share one cache set).
  ColMat W(n, n);
  over_tiles<std::is_same_v<T, float>>(n, [=, &W](int64_t i0) {
    for (int64_t r = i0; r < std::min(i0 + kTile, n); r += 8)
      for (int64_t j = 0; j < std::min(r + 8, n); ++j)
        TP_SCALAR_LOOP for (int64_t i = std::max(r, j); i < std::min(r + 8, n); ++i) W(i, j) = A[i * n + j];
  });
  std::vector<double> lambda;
  ColMat Z;
  float* Vf = nullptr;  // float32's vectors straight from the back-transformation, when they take that route
  if constexpr (std::is_same_v<T, float>) Vf = V;
  symmetric_eig(W, lambda, V ? &Z : nullptr, kMaxQlIterationsPerValue, std::is_same_v<T, float>, Vf);
  for (int64_t i = 0; i < n; ++i) w[i] = T(lambda[size_t(i)]);
  if (V && Z.rows == n)  // (else the back-transformation wrote V)
    over_tiles<std::is_same_v<T, float>>(n, [=, &Z](int64_t i0) {
      for (int64_t j0 = 0; j0 < n; j0 += kTile)
        for (int64_t i = i0; i < std::min(i0 + kTile, n); ++i)
          TP_SCALAR_LOOP for (int64_t j = j0; j < std::min(j0 + kTile, n); ++j) V[i * n + j] = T(Z(i, j));
    });
}

void eigh(const float* A, int64_t n, float* w, float* V) { eigh_any(A, n, w, V); }
void eigh(const double* A, int64_t n, double* w, double* V) { eigh_any(A, n, w, V); }

}  // namespace tp::linalg
