// Eigenvectors of a symmetric tridiagonal matrix from its eigenvalues, by inverse iteration with
// reorthogonalization inside clusters (LAPACK dstein, dlagtf, dlagts). O(n) per vector outside clusters,
// against ~6 n^2 per vector for the rotations of implicit QL, which is what makes eigh's vectors cheap.
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

// Declared in linalg_detail.hpp: test_linalg's scalar reference calls it too.
double guarded_quotient(double temp, double ak, double tol) {
  constexpr double sfmin = DBL_MIN, bignum = 1.0 / DBL_MIN;
  double pert = std::copysign(tol, ak);
  for (;;) {
    const double abs_ak = std::fabs(ak);
    if (abs_ak < 1.0) {
      if (abs_ak < sfmin) {
        if (abs_ak == 0.0 || std::fabs(temp) * sfmin > abs_ak) {
          ak += pert;
          pert *= 2.0;
          continue;
        }
        temp *= bignum;
        ak *= bignum;
      } else if (std::fabs(temp) > abs_ak * bignum) {
        ak += pert;
        pert *= 2.0;
        continue;
      }
    }
    break;
  }
  return temp / ak;
}

// A deterministic random vector, uniform in (-1, 1) (splitmix64 from seed): the same vectors whatever the
// thread count or the call order. Vector j starts from it rotated by j places (a copy, not ~10 ns of
// hashing per entry: 20 ms of svd 1024's 2048-long TGK vectors), each start as random as the first.
void random_vector(uint64_t seed, double* x, int64_t n) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
  for (int64_t i = 0; i < n; ++i) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    x[i] = double(z >> 11) * 0x1p-52 - 1.0;
  }
}

namespace {

// Two shifts at once, one per f64x2 lane: the factorization and the solves are chains of dependent
// steps (a division, then a multiply-subtract feeding the next row), so their speed is the chain's
// latency, and a second lane rides along for free; a lone vector runs in one lane (for size: the scalar
// factorization and solve, dlagtf and dlagts as written, are the reference in test_linalg's
// "inverse iteration in f64x2 lanes gives the scalar reference's bits", which the lanes match bit for bit).
typedef int64_t i2 __attribute__((vector_size(16)));
inline d2 splat2(double x) { return d2{x, x}; }
inline d2 abs2(d2 x) { return (d2)((i2)x & i2{INT64_MAX, INT64_MAX}); }
inline d2 select2(i2 m, d2 a, d2 b) { return (d2)(((i2)a & m) | ((i2)b & ~m)); }  // m ? a : b, per lane

// max |x_i| per lane over n pairs: index_of_max_abs's value without its index, which the iterations
// need only once per vector (the sign), against three scans per solve (a quarter of the time, branchy).
d2 max_abs2(const d2* x, int64_t n) {
  d2 m0 = splat2(0.0), m1 = m0;
  int64_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const d2 a0 = abs2(x[i]), a1 = abs2(x[i + 1]);
    m0 = select2((i2)(a0 > m0), a0, m0);
    m1 = select2((i2)(a1 > m1), a1, m1);
  }
  if (i < n) m0 = select2((i2)(abs2(x[i]) > m0), abs2(x[i]), m0);
  return select2((i2)(m1 > m0), m1, m0);
}

// x . z for Gram-Schmidt over lane `lane` of the pairs x, in four interleaved sums (entry r into sum r % 4,
// the tail into sums 0..2), added as (s0 + s2) + (s1 + s3): a quarter of the one-sum chain's latency, which
// set the cost of a cluster's orthogonalization.
double cluster_dot_lane(const d2* x, int lane, const double* z, int64_t n) {
  double s[4] = {0.0, 0.0, 0.0, 0.0};
  int64_t r = 0;
  for (; r + 4 <= n; r += 4)
    for (int q = 0; q < 4; ++q) s[q] += x[r + q][lane] * z[r + q];
  for (int q = 0; r < n; ++r, ++q) s[q] += x[r][lane] * z[r];
  return (s[0] + s[2]) + (s[1] + s[3]);
}

// cluster_dot_lane's sum for a plain vector x (a lone vector's lane taken out): two f64x2 sums hold the four
// interleaved ones (lo: entries r % 4 = 0, 1; hi: 2, 3), so the same bits as cluster_dot_lane in a lane.
double cluster_dot(const double* x, const double* z, int64_t n) {
  d2 lo = splat2(0.0), hi = lo;
  int64_t r = 0;
  for (; r + 4 <= n; r += 4) {
    lo += load2(x + r) * load2(z + r);
    hi += load2(x + r + 2) * load2(z + r + 2);
  }
  double s[4] = {lo[0], lo[1], hi[0], hi[1]};
  for (int q = 0; r < n; ++r, ++q) s[q] += x[r] * z[r];
  return (s[0] + s[2]) + (s[1] + s[3]);
}

// factor_shifted for the shifts lambda[0], lambda[1] of the same T (diagonal dg, off-diagonal e): a, b, c,
// d (n each, lanes interleaved) get U's diagonal and superdiagonals and L's multipliers; swap[k] is all
// ones in a lane whose rows k and k+1 swapped. b[n-1], d[n-2] and d[n-1] are set to 0.
void factor_shifted2(int64_t n, const double* dg, const double* e, d2 lambda, d2* a, d2* b, d2* c, d2* d, i2* swap) {
  const d2 zero = splat2(0.0);
  d2 ak = splat2(dg[0]) - lambda, bk = splat2(e[0]);
  d2 scale1 = abs2(ak) + abs2(bk);
  for (int64_t k = 0; k + 1 < n; ++k) {
    const d2 ck = splat2(e[k]), a1 = splat2(dg[k + 1]) - lambda, bn = k + 2 < n ? splat2(e[k + 1]) : zero;
    const d2 scale2 = abs2(ck) + abs2(a1) + abs2(bn);
    const i2 czero = (i2)(ck == zero);
    const i2 sw = ~czero & ~((i2)(ak != zero) & (i2)(abs2(ck) / scale2 * scale1 <= abs2(ak)));
    // No swap: c = ck / ak (0 when ck = 0), a[k+1] = a1 - c bk. Swap: mult = ak / ck, a[k+1] = bk - mult a1.
    const d2 q = select2(czero, zero, select2(sw, ak, ck) / select2(sw, ck, ak));
    const d2 next = select2(sw, bk, a1) - q * select2(sw, a1, bk);
    a[k] = select2(sw, ck, ak);
    b[k] = select2(sw, a1, bk);
    c[k] = q;
    d[k] = select2(sw, bn, zero);
    swap[k] = sw;
    bk = select2(sw, -q * bn, bn);
    scale1 = select2(sw, scale1, scale2);
    ak = next;
  }
  a[n - 1] = ak;
  b[n - 1] = zero;
  d[n - 1] = zero;
  if (n >= 2) d[n - 2] = zero;
}

// solve_shifted in both lanes of y (n, interleaved) from factor_shifted2's output; inv = 1 / a. A lane
// whose pivot needs the guarded division (rare) takes it alone.
void solve_shifted2(int64_t n, const d2* a, const d2* inv, const d2* b, const d2* c, const d2* d, const i2* swap,
                    const double tol[2], d2* y) {
  d2 prev = y[0];
  for (int64_t k = 1; k < n; ++k) {
    const d2 cur = y[k];
    const i2 sw = swap[k - 1];
    const d2 top = select2(sw, cur, prev), other = select2(sw, prev, cur);
    y[k - 1] = top;
    prev = other - c[k - 1] * top;
  }
  y[n - 1] = prev;
  constexpr double sfmin = DBL_MIN, bignum = 1.0 / DBL_MIN;
  d2 y1 = splat2(0.0), y2 = y1;
  for (int64_t k = n - 1; k >= 0; --k) {
    const d2 temp = y[k] - (b[k] * y1 + d[k] * y2);
    const d2 absak = abs2(a[k]);
    const i2 fast = (i2)(absak >= splat2(sfmin)) & (i2)(abs2(temp) <= absak * splat2(bignum));
    d2 out = temp * inv[k];
    if (!(fast[0] && fast[1]))
      for (int lane = 0; lane < 2; ++lane)
        if (!fast[lane]) out[lane] = guarded_quotient(temp[lane], a[k][lane], tol[lane]);
    y[k] = out;
    y2 = y1;
    y1 = out;
  }
}

// What a vector's inverse iteration needs: T (d, e), its norm and dstein's tolerances, the shared start
// vectors; Scratch2 is a thread's own.
struct Problem {
  const double *d, *e;
  int64_t n;
  double onenrm, ortol, dtpcrt;
  const double* start;  // start[i + j] for i < n, j < n: vector j starts from the random vector rotated by j
  int extra_iterations;
};

struct Scratch2 {
  std::vector<d2> a, inv, b, c, d, x;
  std::vector<i2> swap;
  std::vector<double> line;  // a lone vector's lane for its Gram-Schmidt
  explicit Scratch2(int64_t n)
      : a(size_t(n)), inv(size_t(n)), b(size_t(n)), c(size_t(n)), d(size_t(n)), x(size_t(n)), swap(size_t(n)),
        line(size_t(n)) {}
};

// Vectors j[0] and j[1] of two different clusters for the shifts xs, one per lane, into Z + j[l]*ldz,
// each orthogonalized (modified Gram-Schmidt) against the vectors of its own cluster already in
// Z + i*ldz for i in [cluster[l], j[l]). Reads nothing else that another vector writes, so the vectors of
// different clusters can be made in any order, by any thread, with the same bits. Each lane stops on its
// own count (a lane that has stopped rides along; its further solves are discarded). With lanes == 1 only
// lane 0's vector is made (pass the same j, cluster and shift in both): lane 1 mirrors it and is never
// stored, so a lone vector takes the time of a pair, its Gram-Schmidt on a plain copy of its lane. A vector
// gets the same bits whichever lane and whatever its partner. False when a vector did not converge in dstein's 5
// iterations.
bool two_vectors(const Problem& P, Scratch2& S, const double xs[2], const int64_t j[2], const int64_t cluster[2],
                 double* Z, int64_t ldz, int lanes = 2) {
  constexpr int kMaxIterations = 5;
  const int64_t n = P.n;
  d2 *a = S.a.data(), *x = S.x.data();
  for (int64_t r = 0; r < n; ++r) x[r] = d2{P.start[j[0] + r], P.start[j[1] + r]};
  factor_shifted2(n, P.d, P.e, d2{xs[0], xs[1]}, a, S.b.data(), S.c.data(), S.d.data(), S.swap.data());
  // dlagts's perturbation for tiny pivots, lane by lane: eps times U's largest entry (b and d end in zeros).
  const d2 ua = max_abs2(a, n), ub = max_abs2(S.b.data(), n), ud = max_abs2(S.d.data(), n);
  double tol[2];
  for (int lane = 0; lane < 2; ++lane) {
    const double t = std::max({ua[lane], ub[lane], ud[lane]}) * DBL_EPSILON;
    tol[lane] = t == 0.0 ? DBL_EPSILON : t;
  }
  for (int64_t k = 0; k < n; ++k) S.inv[size_t(k)] = splat2(1.0) / a[k];  // read only where |a[k]| >= DBL_MIN
  bool converged[2] = {true, true}, done[2] = {false, lanes == 1};
  int checks[2] = {0, 0}, its[2] = {0, 0};
  auto finish = [&](int lane) {
    double ss = 0.0;
    for (int64_t r = 0; r < n; ++r) ss += x[r][lane] * x[r][lane];
    double scl = 1.0 / std::sqrt(ss);
    const double big = max_abs2(x, n)[lane];  // the sign of the first entry of largest magnitude
    for (int64_t r = 0; r < n; ++r)
      if (std::fabs(x[r][lane]) == big) {
        if (x[r][lane] < 0.0) scl = -scl;
        break;
      }
    double* z = Z + j[lane] * ldz;
    for (int64_t r = 0; r < n; ++r) z[r] = x[r][lane] * scl;
    done[lane] = true;
  };
  for (;;) {
    for (int lane = 0; lane < 2; ++lane)
      if (!done[lane] && ++its[lane] > kMaxIterations) {
        converged[lane] = false;
        finish(lane);
      }
    if (done[0] && done[1]) break;
    const d2 big = max_abs2(x, n);
    d2 scl;
    for (int lane = 0; lane < 2; ++lane)
      scl[lane] = double(n) * P.onenrm * std::max(DBL_EPSILON, std::fabs(a[n - 1][lane])) / big[lane];
    for (int64_t r = 0; r < n; ++r) x[r] *= scl;
    solve_shifted2(n, a, S.inv.data(), S.b.data(), S.c.data(), S.d.data(), S.swap.data(), tol, x);
    if (lanes == 1 && cluster[0] < j[0]) {
      // Lane 1 mirrors lane 0 (its shift, start and steps). Gram-Schmidt on lane 0 taken out as a plain
      // vector, in whole f64x2 operations (a large cluster's vectors all come alone: its O(k^2 n) work),
      // then put back in both lanes.
      double* y = S.line.data();
      for (int64_t r = 0; r < n; ++r) y[r] = x[r][0];
      for (int64_t i = cluster[0]; i < j[0]; ++i) {
        const double* z = Z + i * ldz;
        const double sum = cluster_dot(y, z, n);
        for (int64_t r = 0; r < n; ++r) y[r] -= sum * z[r];
      }
      for (int64_t r = 0; r < n; ++r) x[r] = splat2(y[r]);
    } else {
      for (int lane = 0; lane < 2; ++lane) {
        if (done[lane]) continue;
        for (int64_t i = cluster[lane]; i < j[lane]; ++i) {  // modified Gram-Schmidt
          const double* z = Z + i * ldz;
          const double sum = cluster_dot_lane(x, lane, z, n);
          for (int64_t r = 0; r < n; ++r) x[r][lane] -= sum * z[r];
        }
      }
    }
    const d2 growth = max_abs2(x, n);
    for (int lane = 0; lane < 2; ++lane) {
      if (done[lane] || growth[lane] < P.dtpcrt) continue;
      if (++checks[lane] >= P.extra_iterations + 1) finish(lane);
    }
  }
  return converged[0] && converged[1];
}

// Vectors go to threads in runs of whole clusters of at least this many vectors (a cluster is never
// split: its Gram-Schmidt is sequential), taken from a shared counter as threads come free. A run is
// cut in two streams at the cluster start nearest its middle, and the streams' vectors are paired in
// two_vectors' lanes, in order; what one stream has more runs alone after the pairs.
constexpr int64_t kRunVectors = 16;
// Below this many vector entries (count * n) the threads' wake-up costs more than they save.
constexpr int64_t kThreadsFrom = int64_t(1) << 15;

}  // namespace

bool tridiagonal_block_vectors(const double* d, const double* e, int64_t n, const double* w, int64_t count,
                               double* Z, int64_t ldz, uint64_t seed, int extra_iterations) {
  TP_ASSERT(n >= 1 && count >= 0 && count <= n && extra_iterations >= 0);
  if (n == 1) {
    for (int64_t j = 0; j < count; ++j) Z[j * ldz] = 1.0;
    return true;
  }
  if (count == 0) return true;
  // dstein's constants: clusters are eigenvalues closer than 1e-3 ||T||; the iterate has converged once
  // its growth reaches sqrt(0.1/n).
  double onenrm = std::max(std::fabs(d[0]) + std::fabs(e[0]), std::fabs(d[n - 1]) + std::fabs(e[n - 2]));
  for (int64_t i = 1; i + 1 < n; ++i) onenrm = std::max(onenrm, std::fabs(d[i]) + std::fabs(e[i - 1]) + std::fabs(e[i]));
  const size_t len = static_cast<size_t>(n);
  std::vector<double> start(2 * len);
  random_vector(seed, start.data(), n);
  std::copy(start.begin(), start.begin() + n, start.begin() + n);
  const Problem P{d, e, n, onenrm, 1e-3 * onenrm, std::sqrt(0.1 / double(n)), start.data(), extra_iterations};
  // The shifts and clusters first, in order (each shift depends on the one before): eigenvalues closer than
  // 10 eps |x_j| are pulled apart so each shift has its own vector. Then runs of whole clusters.
  std::vector<double> shift(static_cast<size_t>(count));
  std::vector<int64_t> cluster(static_cast<size_t>(count)), runs{0};
  for (int64_t j = 0; j < count; ++j) {
    double xj = w[j];
    int64_t first = 0;
    if (j > 0) {
      const double xjm = shift[size_t(j - 1)], pertol = 10.0 * std::fabs(DBL_EPSILON * xj);
      if (xj - xjm < pertol) xj = xjm + pertol;
      first = std::fabs(xj - xjm) > P.ortol ? j : cluster[size_t(j - 1)];
      if (first == j && j - runs.back() >= kRunVectors) runs.push_back(j);
    }
    shift[size_t(j)] = xj;
    cluster[size_t(j)] = first;
  }
  runs.push_back(count);
  const int64_t nruns = int64_t(runs.size()) - 1;
  const int parts =
      count * n >= kThreadsFrom ? int(std::min<int64_t>(kernels::sgemm_threads(), nruns)) : 1;
  std::vector<uint8_t> ok(static_cast<size_t>(nruns), 1);
  std::atomic<int64_t> next{0};
  tp::detail::run_parts(parts, [&, n, nruns, Z, ldz](int) {
    Scratch2 S2(n);
    for (int64_t r; (r = next.fetch_add(1, std::memory_order_relaxed)) < nruns;) {
      const int64_t r0 = runs[size_t(r)], r1 = runs[size_t(r + 1)];
      int64_t split = r0;  // the second stream's first vector: the cluster start nearest the middle
      for (int64_t j = r0 + 1; j < r1; ++j)
        if (cluster[size_t(j)] == j && std::abs(2 * j - r0 - r1) < std::abs(2 * split - r0 - r1)) split = j;
      const int64_t pairs = split == r0 ? 0 : std::min(split - r0, r1 - split);
      for (int64_t i = 0; i < pairs; ++i) {
        const int64_t j[2] = {r0 + i, split + i}, first[2] = {cluster[size_t(j[0])], cluster[size_t(j[1])]};
        const double xs[2] = {shift[size_t(j[0])], shift[size_t(j[1])]};
        if (!two_vectors(P, S2, xs, j, first, Z, ldz)) ok[size_t(r)] = 0;
      }
      for (int64_t j = r0; j < r1; ++j) {
        if ((j >= r0 && j < r0 + pairs) || (j >= split && j < split + pairs)) continue;
        const int64_t js[2] = {j, j}, first[2] = {cluster[size_t(j)], cluster[size_t(j)]};
        const double xs[2] = {shift[size_t(j)], shift[size_t(j)]};
        if (!two_vectors(P, S2, xs, js, first, Z, ldz, 1)) ok[size_t(r)] = 0;
      }
    }
  });
  return std::all_of(ok.begin(), ok.end(), [](uint8_t v) { return v != 0; });
}

}  // namespace tp::linalg::detail
