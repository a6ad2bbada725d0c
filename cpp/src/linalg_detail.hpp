// Internal building blocks of the decompositions (linalg_*.cpp): double-precision column-major work
// matrices, Householder reflectors, the reductions to bidiagonal and tridiagonal form and the bounded
// QR iterations that finish them. Not a public header.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "for_size.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

// Two-lane double vectors (f64x2 under -msimd128, SSE2 natively) through the compilers' vector
// extension, for the rank-2 updates of tridiagonalization and the plane rotations of the QR iterations.
typedef double d2 __attribute__((vector_size(16)));
inline d2 load2(const double* p) {
  d2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store2(double* p, d2 v) { std::memcpy(p, &v, sizeof v); }
// Four-lane floats, for the reductions' matrix-vector products on a float copy of the trailing matrix.
typedef float f4 __attribute__((vector_size(16)));
inline f4 load4(const float* p) {
  f4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline d2 low2(f4 v) { return d2{double(v[0]), double(v[1])}; }   // lanes 0, 1 widened
inline d2 high2(f4 v) { return d2{double(v[2]), double(v[3])}; }  // lanes 2, 3 widened

// sqrt(a^2 + b^2) for the rotations of the QL/QR sweeps: the plain formula wherever its squares neither
// overflow nor underflow (then it is within an ulp or two of libm's), libm's careful hypot elsewhere. The
// sweeps make O(n^2) rotations of ~10 flops each, which libm's hypot outweighed.
inline double rotation_hypot(double a, double b) {
  const double s = a * a + b * b;
  if (s > 0x1p-1000 && s < 0x1p1000) return __builtin_sqrt(s);
  return __builtin_hypot(a, b);
}

// Allocates on 64-byte lines. malloc aligns to 8 bytes in WASM, and data starting mid-line makes every
// two-lane load of a kernel straddle lines now and then: svd 1024 ran ~20% slower or not depending on
// what had been allocated before (measured on the rotations' block buffer).
template <class T>
struct LineAllocator {
  using value_type = T;
  LineAllocator() = default;
  template <class U>
  LineAllocator(const LineAllocator<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64))); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t(64)); }
  template <class U>
  bool operator==(const LineAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const LineAllocator<U>&) const { return false; }
};
using LineVector = std::vector<double, LineAllocator<double>>;  // the work vectors of the kernels

// Splitting a reduction step over threads without changing its bits: from kSplitFrom trailing columns, a
// step's columns go to kChunks fixed ranges, each summing into its own partial vector, and the partials
// are added in chunk order. Neither the chunks nor the order depend on kernels::sgemm_threads(), which
// only says how many threads run the chunks. 12 chunks share evenly over 1, 2, 3, 4 or 6 threads.
constexpr int64_t kSplitFrom = 192, kChunks = 12;

// Runs chunk(c, partial + c*stride) for c = 0..kChunks-1 over the GEMM's threads; each call writes its
// partial sums over [lo, hi) (zero where it adds nothing). Then out[r] = the partials' sum, in chunk
// order, for r in [lo, hi). partial holds kChunks * stride doubles.
template <class Chunk>
void sum_over_chunks(double* partial, int64_t stride, int64_t lo, int64_t hi, double* out, const Chunk& chunk) {
  const int threads = int(std::min<int64_t>(kernels::sgemm_threads(), kChunks));
  tp::detail::run_parts(threads, [=, &chunk](int part) {
    for (int64_t c = kChunks * part / threads; c < kChunks * (part + 1) / threads; ++c) chunk(c, partial + c * stride);
  });
  for (int64_t r = lo; r < hi; ++r) {
    double sum = 0.0;
    for (int64_t c = 0; c < kChunks; ++c) sum += partial[c * stride + r];
    out[r] = sum;
  }
}

// A blocked reduction's panels as one thread team (tridiagonalize_blocked, bidiagonal_reduce_blocked):
// panels(from, to, part, parts) reduces the panels of `panel` columns in [from, to) as part `part` of `parts`
// threads, which meet at team_sync(). The panels whose columns all split (n - k - 1 >= kSplitFrom, and so
// their trailing update) run as a team of `parts` threads when there are threads; the rest, or all when no
// team can be had, on this thread. One call site of panels (run, not inlined) keeps one copy of its code in
// the core, compiled for size: its own loops are O(n) per column, the kernels it calls are not (web-mt
// gzipped 228,450 -> 227,732 bytes when the tridiagonalization's was made so).
template <class Panels>
void run_panels(int64_t n, int64_t panel, int parts, const Panels& panels) {
  struct Range {
    int64_t from, to;
    int parts;
  } range{0, 0, parts};
  const auto body = [&](int part) { panels(range.from, range.to, part, range.parts); };
  const tp::detail::PartFn run = [](const void* c, int part) __attribute__((noinline)) TP_FOR_SIZE {
    (*static_cast<const decltype(body)*>(c))(part);
  };
  if (TP_HAS_THREADS && range.parts > 1 && n - panel - kSplitFrom >= 0) {
    range.to = ((n - panel - kSplitFrom) / panel + 1) * panel;
    if (!tp::detail::run_team(range.parts, run, &body)) range.to = 0;
  }
  range = {range.to, n, 1};
  run(&body, 0);
}

// Whether a team's next panel goes to part 0 alone. A team whose meetings sleep (a partner without a core:
// a loaded machine, more threads than cores) loses to one thread, each of a column's meetings waiting out a
// scheduling delay. Part 0 calls next() as panel j0 begins (from: the team's first panel): solo when more
// than a quarter of the previous panel's columns' meetings slept (pool_counters().team_sleeps); solo, every
// 4th panel tries the team again.
struct TeamSolo {
  bool solo = false;
  int64_t sleeps = 0;
  void next(int64_t j0, int64_t from, int64_t panel);
};

// A (rows, cols) double matrix stored column by column: reflectors and rotations in the
// decompositions act on columns, so a column is one contiguous run.
struct ColMat {
  int64_t rows = 0, cols = 0;
  LineVector a;
  ColMat() = default;
  ColMat(int64_t r, int64_t c) : rows(r), cols(c), a(size_t(r * c), 0.0) {}
  double& operator()(int64_t i, int64_t j) { return a[size_t(j * rows + i)]; }
  double operator()(int64_t i, int64_t j) const { return a[size_t(j * rows + i)]; }
  double* col(int64_t j) { return a.data() + j * rows; }
  const double* col(int64_t j) const { return a.data() + j * rows; }
  static ColMat identity(int64_t r, int64_t c);
};

// Runs tile(i0) for i0 = 0, kTile, 2 kTile, .. < n, the tiles dealt over the threads in turn (copies between
// the row-major inputs and outputs and ColMat, kTile x kTile at a time: each element is written by one tile,
// so the bits do not depend on the thread count; dealt in turn, a triangle's tiles share out evenly). In
// order on the calling thread without threads or when not kSplit (float64's routes): a split's code is
// ~0.4 KB per call site.
constexpr int64_t kTile = 32;
template <bool kSplit = true, class F>
void over_tiles(int64_t n, const F& tile) {
  const int64_t tiles = (n + kTile - 1) / kTile;
  if constexpr (kSplit && TP_HAS_THREADS) {
    const int parts = int(std::min<int64_t>(kernels::sgemm_threads(), tiles));
    if (parts > 0)
      tp::detail::run_parts(parts, [=, &tile](int p) {
        for (int64_t t = p; t < tiles; t += parts) tile(t * kTile);
      });
  } else {
    for (int64_t t = 0; t < tiles; ++t) tile(t * kTile);
  }
}

// Throws tp::Error "op: input contains NaN or Inf" when any of the count values is not finite.
void check_finite(const char* op, const float* A, int64_t count);
void check_finite(const char* op, const double* A, int64_t count);

// The power of two 2^e to multiply the count values of A by before a float32 GEMM path, so that their
// largest magnitude lies in [1, 2): 0 (no scaling) unless it is below 2^-32 or above 2^32. Near
// float32's ends the GEMM updates would underflow into denormals (or overflow); a power of two scales
// exactly, and the results scale back exactly (R, singular values), up to their own float range.
int gemm_scale_exponent(const float* A, int64_t count);

// The row-major float (m,n) matrix A as a column-major double (m,n), or its transpose (n,m).
ColMat load(const float* A, int64_t m, int64_t n, bool transpose);
ColMat load(const double* A, int64_t m, int64_t n, bool transpose);  // a float64 A

double dot(const double* x, const double* y, int64_t n);
void axpy(double* y, double a, const double* x, int64_t n);  // y += a x
// C = A B for the column-major A (m,k) and B (k,n), register-blocked.
ColMat multiply(const ColMat& A, const ColMat& B);
// Plane rotation of two vectors: x <- c x + s y, y <- c y - s x.
void rotate(double* x, double* y, int64_t n, double c, double s);

// Plane rotations of the columns of a vector matrix, in the order the QL/QR iterations make them. Those
// iterations decide every rotation from the (tri/bi)diagonal alone, so for matrices of at least
// kBatchedRotationsFrom rows the rotations are recorded and applied later, 32 rows at a time through
// the whole sequence (linalg_rotations.cpp): one rotation at a time streams the matrix through memory
// once per sweep (eigh 1024: 1.46x faster batched). Still double: float rotations were faster again
// (2.2x) but left 3e-5 of non-orthogonality at n = 1024, too close to the 1e-4 bar for larger n.
// Smaller matrices get each rotation at once. flush() before reading the target.
constexpr int64_t kBatchedRotationsFrom = 96;
class RotationLog {
 public:
  // null target: the rotations are dropped. At most max_recorded wait (24 bytes each) before a flush.
  explicit RotationLog(ColMat* target, size_t max_recorded = size_t(1) << 21);
  // Columns i and j: x_i <- c x_i + s x_j, x_j <- c x_j - s x_i (as rotate()).
  void rotate_columns(int64_t i, int64_t j, double c, double s);
  void negate_column(int64_t i);
  void flush();

 private:
  struct Op {
    int32_t i, j;  // j < 0: negate column i
    double c, s;
  };
  ColMat* target_;
  bool batched_;
  size_t max_recorded_;
  std::vector<Op> ops_;
};

// v = n zeros, whatever v held (the decompositions' d, e, tau outputs and work vectors, once per call): one
// call at each site, compiled for size in linalg_householder.cpp. std::vector<double>::assign(n, 0.0), which
// they used before, was 1.5 KB of -O3 fill loops in the WebAssembly module.
void zeros(std::vector<double>& v, int64_t n);

// LAPACK's dlarfg: returns tau and overwrites alpha with beta and x with v[1:] so that
// (I - tau v v^T) [alpha; x] = [beta; 0] with v[0] = 1. tau = 0 (H = I) when x is already zero, or
// when its norm is at most drop_below (then x is set to zero: what is left there is rounding).
double make_householder(double& alpha, double* x, int64_t len, double drop_below = 0.0);

// Applies H = I - tau v v^T from the left to rows [r0, r0+len) of columns [c0, c1) of W.
void reflect_columns(ColMat& W, const double* v, int64_t len, double tau, int64_t r0, int64_t c0, int64_t c1);

// The element loops of the blocked QR and of the compact WY factors (linalg_qr.cpp compiles at -Os; these
// at -O3, where they ran 2-5x faster). F (m, n) = up A, both row-major float, and ss[j] = the sum of the
// squares of F's column j.
void scaled_copy_column_squares(const float* A, int64_t m, int64_t n, double up, float* F, double* ss);
// P (rows, cols) <- the float matrix F's first P.rows rows and P.cols columns, F row-major at row stride ld.
void gather_columns(const float* F, int64_t ld, ColMat& P);
// V (P.rows, P.cols), column-major float at ldv <- P's reflectors: unit diagonal, zeros above, P below.
void unit_lower_to_float(const ColMat& P, float* V, int64_t ldv);
// Columns [o, o+b) of the compact WY factor -T (column-major double, ld sb; LAPACK larft's recurrence)
// from G(0:o+b, o:o+b) = V^T V (row-major float, ld sb) and the factors tau (indexed from the block's first).
void wy_recurrence(double* NT, int64_t sb, const float* G, int64_t o, int64_t b, const double* tau);

// Householder QR in place (LAPACK geqrf): R in the upper triangle, reflector vectors below it.
// drop_below (optional, one per column): column j's part below the diagonal counts as zero when its
// norm is at most drop_below[j] (see make_householder).
void householder_qr(ColMat& W, std::vector<double>& tau, const double* drop_below = nullptr);
// The first k columns of Q = H_0 H_1 ... H_{K-1} from householder_qr's output, as an (m,k) matrix.
ColMat form_q(const ColMat& W, const std::vector<double>& tau, int64_t k);

// Reduced QR of the row-major float A (m,n) into Q (m,k) and R (k,n), blocked: panels of 16 columns
// factored in double, their compact-WY updates applied by float32 GEMM (linalg_qr.cpp). Worth it, and
// used, from min(m,n) = kBlockedQrFrom; below, the unblocked double reflectors are as fast.
constexpr int64_t kBlockedQrFrom = 96;
// Its block sizes (0: the defaults, for the bench's sweeps): the trailing updates' (apply, a multiple of
// form_block) and forming Q's.
constexpr int64_t kApply = 128, kFormQBlock = 128;
struct QrTuning {
  int64_t apply = 0, form_block = 0;
};
void qr_blocked(const float* A, int64_t m, int64_t n, float* Q, float* R, const QrTuning& tune = {});
// qr_blocked by stages, for tests/bench/qr-stages.mjs (no core calls it): 0 factors A into R, keeping the
// reflectors; 1 the same without the trailing updates (the panels' and blocks' own work); 2 forms Q from them.
double qr_blocked_stage(int stage, const float* A, int64_t m, int64_t n, float* Q, float* R, const QrTuning& tune);
// Q = H_0 H_1 ... H_{K-1} applied to the first k columns of I_m, for the reflectors stored in V (m, K):
// reflector j has its unit entry at row j + shift and its vector below it in column j of V, factor
// tau[j] (shift 0: QR and bidiagonalization's left reflectors; 1: tridiagonalization and the right
// ones). In float32 GEMMs (so Q is orthonormal to ~1e-6), block reflectors at a time, on slab columns
// at a time (0: the defaults; other values for the tests' tails and tests/bench/backxf.mjs).
ColMat form_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t k, int64_t block = 0,
                      int64_t slab = 0);
// The same reflectors applied to every column of C (m, c): Q C, in float32 GEMMs (2 m^2 c flops).
ColMat apply_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, const ColMat& C,
                       int64_t block = 0, int64_t slab = 0);

// The same work in two steps, so that the blocks' preparation can run beside other work (eigh's and svd's
// values). A job: reflector j's entries src[i * rs + j * cs] below its unit at row j + shift (rs 1, cs ld:
// V's columns, as above; rs ld, cs 1: svd's right reflectors, read from W's rows), m rows, tau[j].
struct BackBlock {
  int64_t r0 = 0, len = 0, b = 0;
  float *V = nullptr, *Y = nullptr;
};
struct BackJob {
  const double* src = nullptr;
  int64_t rs = 1, cs = 0, m = 0, shift = 0;
  const std::vector<double>* tau = nullptr;
  std::vector<BackBlock> blocks;  // prepare_back's, in the kept scratch
  // apply_back's C: crows rows (zero below, to m), column c at c + (order ? order[c] : c) * ldc; the first
  // cols columns of I when c is null. Its result Q C (m, cols) goes to out, or, when dst is set, in float to
  // dst[i * drs + j * dcs] (eigh's and svd's float32 outputs, row-major or transposed: out stays empty).
  const double* c = nullptr;
  int64_t crows = 0, ldc = 0, cols = 0;
  const int64_t* order = nullptr;
  ColMat out;
  float* dst = nullptr;
  int64_t drs = 0, dcs = 0;
};
// Lays out the jobs' blocks of block reflectors (0: the default) in the kept scratch and prepares them on the
// threads while beside(context, false) runs first on the calling thread, which then takes blocks too, and
// beside(context, true) runs on the first thread to find no block left (eigh's values outlast the blocks: on
// 2 threads the helper): a block's bits depend on neither its thread nor the thread count, and on one thread
// the same work runs in order.
void prepare_back(BackJob* jobs, int njobs, int64_t block = 0, void (*beside)(const void*, bool) = nullptr,
                  const void* context = nullptr);
template <class F>
void prepare_back(BackJob* jobs, int njobs, const F& beside) {
  prepare_back(jobs, njobs, 0, [](const void* c, bool after) { (*static_cast<const F*>(c))(after); }, &beside);
}
// Applies the prepared jobs to their C, into their out: the slabs of all of them in one split.
void apply_back(BackJob* jobs, int njobs, int64_t slab = 0);
// The reflectors stored in V's columns (see form_q_blocked) as a job of cols columns (C not set).
BackJob column_back_job(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t cols);
// svd's two jobs for the reduced (m, n) W of bidiagonal_reduce_blocked (linalg_svd.cpp): Q's reflectors from
// W's columns, P's from its rows (the right reflectors), n columns each (C not set).
void bidiagonal_back_jobs(const ColMat& W, const std::vector<double>& tauq, const std::vector<double>& taup,
                          BackJob* jobs);

// The float scratch form_q_blocked and apply_q_blocked keep between calls (up to 16 MB; linalg_qr.cpp): its
// bytes now, and its release (the next call allocates it again).
size_t back_scratch_bytes();
void release_back_scratch();

// W(i, j) -= sum over p < b of A1(i, p) B1(j, p) + A2(i, p) B2(j, p) for the columns j in [j0, j1) of W,
// rows from r0 (or from j, the diagonal, when lower) to the end (linalg_rank2k.cpp). A1(i, p) is
// a1[p*lda1 + i] and B1(j, p) is b1[j*b1j + p*b1p] (global row and column indices), likewise A2 and B2.
// Each entry is one sum in p order, so splitting the columns over threads does not change the bits.
struct Rank2kOperands {
  const double* a1;
  int64_t lda1;
  const double* b1;
  int64_t b1j, b1p;
  const double* a2;
  int64_t lda2;
  const double* b2;
  int64_t b2j, b2p;
  int64_t b;
};
void rank2k_update(ColMat& W, int64_t r0, int64_t j0, int64_t j1, bool lower, const Rank2kOperands& o);
// The operands of that update in float, for the float32 reductions' GEMMs that accumulate into their float
// trailing matrix: Af (rows, 2b) column-major holds [A1 A2] from row r0, Bf (cols, 2b) row-major sign * [B1 B2]
// from column c0 (sign +1 or -1: exact), the update's transpose Bf Af^T being the float matrix's own
// column-major layout. Rows [i0, i1) of Af and columns [j0, j1) of Bf (Af, Bf already sized), so that a pack
// splits over threads.
void pack_rank2k_float_part(const Rank2kOperands& o, int64_t r0, int64_t rows, int64_t i0, int64_t i1, int64_t c0,
                            int64_t j0, int64_t j1, float sign, float* Af, float* Bf);
// y = x in float, n entries (the reductions' float copies of their vectors and columns).
void to_float(const double* x, float* y, int64_t n);
// The reductions take their trailing updates in float from this many columns, when the caller wants only
// float32 accuracy (eigh's vectors; not the Gram matrix of svdvals, whose small eigenvalues need double), and
// when float_updates_fit(W).
constexpr int64_t kFloatUpdatesFrom = 256;
// Whether W's largest magnitude lies in [2^-32, 2^32], where float products of its reflectors neither
// underflow nor overflow (see gemm_scale_exponent); outside, the reductions keep the double updates.
bool float_updates_fit(const ColMat& W);

// Blocked bidiagonal_reduce (LAPACK dgebrd/dlabrd; linalg_bidiagonal_blocked.cpp): the same reflectors,
// up to rounding, in the same places. Used from kBlockedQrFrom columns.
// float_updates as tridiagonalize_blocked (svd's float32 route asks for them); with them, a reflector
// whose vector is under float32 resolution of ||A||_F is dropped (H = I): that is the updates' rounding.
void bidiagonal_reduce_blocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tauq,
                               std::vector<double>& taup, bool float_updates = false);

// Householder tridiagonalization of the symmetric W (n, n; lower triangle read) into diagonal d (n) and
// subdiagonal e (n-1), blocked (LAPACK dsytrd/dlatrd, linalg_tridiagonal_blocked.cpp): reflector k has its
// unit at row k+1, its vector below it in column k of W, factor tau[k]. Used from kBlockedQrFrom; the
// bits do not depend on the thread count.
// float_updates: the trailing matrix in float, updated by float32 GEMMs from kFloatUpdatesFrom.
void tridiagonalize_blocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tau,
                            bool float_updates = false);
// The same, unblocked (one fused pass over the trailing triangle per column; linalg_eigh.cpp): below
// kBlockedQrFrom, and what the blocked one is tested against.
void tridiagonalize_unblocked(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tau);

// Implicit QL (EISPACK tql2) on the symmetric tridiagonal (d (n), e (n-1)): d gets the eigenvalues, unsorted,
// and the rotations go to the columns of Z when not null. Throws tp::Error past max_iterations per value.
void tridiagonal_ql(std::vector<double>& d, std::vector<double>& e, ColMat* Z, int max_iterations);
// The eigenvalues alone (into d, unsorted) by the root-free QL iteration of Pal, Walker and Kahan (LAPACK
// dsterf): the same shifts and deflations as tridiagonal_ql without a square root per step. For the
// tridiagonals of float32 matrices (it squares e, unscaled). False past max_iterations per value.
bool tridiagonal_values_root_free(std::vector<double>& d, const std::vector<double>& e, int max_iterations);

// temp / ak for a pivot too small for a plain division (LAPACK dlagts): ak is nudged by tol, doubling,
// until the quotient cannot overflow. Inverse iteration's solves and test_linalg's scalar reference share it.
double guarded_quotient(double temp, double ak, double tol);

// n doubles uniform in (-1, 1) from seed by splitmix64 (inverse iteration's start vectors; test_linalg's
// scalar reference starts from the same).
void random_vector(uint64_t seed, double* x, int64_t n);

// Eigenvectors of the unreduced symmetric tridiagonal (d, e) (n, n-1) for count of its eigenvalues w, in
// ascending order, by inverse iteration (LAPACK dstein; linalg_inverse_iteration.cpp): vector j to
// Z + j*ldz (n doubles), unit length, its largest entry positive. Vectors whose eigenvalues lie within
// 1e-3 ||T|| of each other are kept orthogonal by Gram-Schmidt; seed picks the start vectors. False when a
// vector needs more than dstein's 5 iterations (it is stored anyway; the caller should not use it).
// extra_iterations: solves past the one whose growth shows convergence; dstein's 2 buy double-precision
// vectors. Each multiplies the error by |lambda_hat - lambda| / gap, ~eps ||T|| / gap with double
// eigenvalues: one is ~1e-13 at the gaps that stay out of clusters, plenty for float32 results.
constexpr int kDsteinExtraIterations = 2;
bool tridiagonal_block_vectors(const double* d, const double* e, int64_t n, const double* w, int64_t count,
                               double* Z, int64_t ldz, uint64_t seed, int extra_iterations = kDsteinExtraIterations);

// Bidiagonal reduction of W (m,n), m >= n: A = Q B P^T with B upper bidiagonal, diagonal d (n),
// superdiagonal e (n-1). Q (m,n) and P (n,n) are formed only when the pointers are not null; from
// kBlockedQrFrom columns by float32 GEMM updates unless blocked is false (float64 inputs).
void bidiagonalize(ColMat& W, std::vector<double>& d, std::vector<double>& e, ColMat* Q, ColMat* P,
                   bool blocked = true);
// The reduction alone: left reflector i (unit at row i, vector below it in column i of W, factor tauq[i])
// and right reflector i (unit at column i+1 of row i, vector further along row i, factor taup[i], n-1 of them).
void bidiagonal_reduce(ColMat& W, std::vector<double>& d, std::vector<double>& e, std::vector<double>& tauq,
                       std::vector<double>& taup);
// The right reflectors of a reduced W (m, n) as columns of an (n, n-1) matrix, for form_q_blocked(.., 1, ..).
ColMat right_reflectors(const ColMat& W);

// SVD of the upper bidiagonal (d, e) by implicit-shift Golub–Kahan QR; rotations are applied to the
// columns of U (rows_u, n) and V (rows_v, n) when not null. On return d holds the singular values,
// non-negative, descending, with U and V permuted to match. Throws tp::Error when a value needs more
// than max_sweeps QR sweeps (the default is generous; tests pass a tiny one to see the error).
constexpr int kMaxSweepsPerValue = 75;
void bidiagonal_svd(std::vector<double>& d, std::vector<double>& e, ColMat* U, ColMat* V,
                    int max_sweeps = kMaxSweepsPerValue);
// The singular values s (n, descending) of the upper bidiagonal B (d (n), e (n-1)) from the root-free QL on
// B^T B, each within n eps sigma_1 / 2 of B's when QL's eigenvalues are within 4 eps lambda_1 (0.2 measured;
// bisection narrows the near-zero values): shifts for inverse iteration, not final values (linalg_svd.cpp).
// False when QL did not converge or more than n / 8 + 16 values needed bisection (the caller runs
// bidiagonal_svd). bmax: max |d_i|, |e_i| (the caller has it).
bool bidiagonal_values_root_free(const std::vector<double>& d, const std::vector<double>& e, double bmax,
                                 std::vector<double>& s);
// max |d_i|, |e_i| of the bidiagonal (d, e), or 0 when B is reduced (some |d_i| or |e_i| <= eps of it).
double bidiagonal_unreduced_max(const std::vector<double>& d, const std::vector<double>& e);
// The values inverse iteration takes (descending): bidiagonal_values_root_free, else bidiagonal_svd's sweeps.
void bidiagonal_values(const std::vector<double>& d, const std::vector<double>& e, double bmax, std::vector<double>& s);
// The vectors of the (square, n) bidiagonal B (d, e) by inverse iteration on its Golub-Kahan form
// (linalg_svd.cpp), from the values s of bidiagonal_values (found here when null): d gets the values,
// descending, Ub and Vb (n, n) the vectors. False when B is reduced, near singular or too clustered for it
// (the caller then runs bidiagonal_svd's rotations).
bool bidiagonal_vectors_by_inverse_iteration(std::vector<double>& d, const std::vector<double>& e,
                                             const std::vector<double>* s, ColMat& Ub, ColMat& Vb);

// The permutation that sorts keys ascending (or descending), ties in index order as stable_sort; eigh and
// the SVD share it (linalg_eigh.cpp, over sort_order.hpp's one std::sort instantiation).
std::vector<int64_t> sorted_order(const std::vector<double>& keys, bool descending);

// Symmetric eigendecomposition of the (n,n) symmetric W (lower triangle read, W destroyed):
// w ascending; Z (n,n) eigenvectors in columns when not null. Throws tp::Error when an eigenvalue needs
// more than max_iterations implicit QL steps.
constexpr int kMaxQlIterationsPerValue = 60;
// float32_steps: from kBlockedQrFrom the vectors may take float32 GEMM steps (float32 results); false keeps
// every step in double (float64 results), the trailing updates in double and Z from the QL rotations.
// V (with Z and float32_steps): where those steps' vectors may go instead, row-major float (n, n); Z is then
// left empty (the bits are Z's: float products converted to double and back).
void symmetric_eig(ColMat& W, std::vector<double>& w, ColMat* Z, int max_iterations = kMaxQlIterationsPerValue,
                   bool float32_steps = true, float* V = nullptr);

// The eigenvalues w (n, ascending) and eigenvectors Z (n, n) of the symmetric tridiagonal (d (n), e (n-1))
// by divide and conquer (LAPACK dstedc; linalg_divide_conquer.cpp): blocks of up to leaf_size by implicit QL
// (LAPACK's is 25; tests take 1 to merge at every size), the merges' vector updates in float32 GEMMs (Z
// orthonormal to float rounding). False when a secular equation did not converge (eigh then falls back
// to implicit QL's rotations).
constexpr int64_t kDivideConquerLeaf = 32;
bool tridiagonal_divide_conquer(const std::vector<double>& d, const std::vector<double>& e, std::vector<double>& w,
                                ColMat& Z, int max_iterations = kMaxQlIterationsPerValue,
                                int64_t leaf_size = kDivideConquerLeaf);

// SVD of A (m,n) in double: S (k) descending, and when want_vectors the factors U (m,k) and V (n,k)
// column-major with A = U diag(S) V^T. Uf, Vhf (with U and V): where the factors may go instead, as
// row-major float U (m, k) and Vh (k, n), when the route back-transforms the inverse-iteration vectors
// (from kBlockedQrFrom, not much taller than wide); U and V are then left empty (the bits are theirs).
void svd_double(const float* A, int64_t m, int64_t n, std::vector<double>& S, ColMat* U, ColMat* V,
                float* Uf = nullptr, float* Vhf = nullptr);
// The same for a float64 A, through the unblocked double route at every size (the blocked one updates in
// float32 GEMMs); U and V null: the values only, still from the bidiagonal (not the Gram matrix).
void svd_f64(const double* A, int64_t m, int64_t n, std::vector<double>& S, ColMat* U, ColMat* V);

// Singular values of A (m,n), descending (linalg_svdvals.cpp): eigenvalues of the double Gram matrix (the
// smaller of A^T A and A A^T) — exact float products summed in double, so sigma_i is off by at most
// ~sqrt(k eps64) sigma_1, far below the float32 output's resolution of sigma_1.
void svdvals_double(const float* A, int64_t m, int64_t n, std::vector<double>& S);

// Lower triangle (and diagonal) of the Gram matrix G = A^T A (n,n) of the row-major float (m,n) A, float
// products exact, sums in double; the upper part is left 0. Each entry is summed per panel of kGramRows
// rows, the even rows and the odd rows apart (in row order), and G gets panel by panel their sum.
constexpr int64_t kGramRows = 256;
ColMat gram_lower_rows(const float* A, int64_t m, int64_t n);

}  // namespace tp::linalg::detail
