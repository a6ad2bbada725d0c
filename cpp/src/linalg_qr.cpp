// Reduced QR by Householder reflectors (LAPACK geqrf + orgqr). Small matrices run the unblocked
// reflectors in double; larger ones are blocked (compact WY, LAPACK's geqrt/larft/larfb): each panel of
// kPanel columns is factored in double, and its reflectors reach the rest of the matrix, and Q, through
// float32 GEMMs, where nearly all the work is. Householder QR is backward stable whatever the
// conditioning, so the float updates cost about float32 rounding in QR - A and Q^T Q - I (~1e-7 and
// ~1e-6 at 3072x1024), the accuracy of LAPACK's own float32 sgeqrf, at 5-6x the speed.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <type_traits>
#include <vector>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "tensorpad/linalg.hpp"

namespace tp::linalg::detail {

namespace {

// Panels are factored kPanel columns at a time, and their reflectors reach the rest of the matrix, and Q,
// kApply at a time: the GEMMs' inner dimension is the block's width, and at 32 they ran at 12-15 GFLOPS
// here against 21-24 at 128 (AMD EPYC Zen 3, WASM SIMD, one thread). Panels of 16 against 32: the double
// panel work halves and the block's own updates (k = 16 GEMMs) grow by less; qr 3072x1024 0.61 s against
// 0.65 CPU (load ~30). Blocks of 256 sped the trailing update by ~10% but lost it in the block's own work.
constexpr int64_t kPanel = 16;

// One factored panel: its reflectors V (len, b) unit lower trapezoidal, column-major float with the
// unit diagonal and the zeros above it written out, and T (b, b) upper triangular, stored negated
// (NT = -T, row-major float, zeros below the diagonal), so that H_0 H_1 ... H_{b-1} = I - V T V^T.
struct Panel {
  int64_t row0 = 0, len = 0, b = 0;
  std::vector<float> V, NT;  // NT = -T
};

// The block's -T (compact WY, column-major double sb x sb, LAPACK larft's recurrence) extended by its
// columns [o, o+b), whose reflectors were just written into blk.V: G's columns [o, o+b) rows [0, o+b)
// (G = V^T V, row-major float sb x sb) from one float GEMM over the rows from o (the new columns are zero
// above), then the recurrence in double (T(0:i, 0:i) depends on columns 0..i only). Built panel by panel,
// a block's Gram matrix costs b^2 len / 2 flops instead of b^2 len. The recurrence runs column by column
// of -T (axpys on contiguous columns, not strided dot products): at qr 3072x1024 the old recurrence alone
// took ~0.04 s CPU; recurrence and Gram products together now ~0.02-0.03.
void extend_block_t(const Panel& blk, int64_t o, int64_t b, const double* tau, std::vector<float>& G,
                    std::vector<double>& NT) {
  const int64_t len = blk.len, sb = blk.b;
  const float* V = blk.V.data();
  // G(i, o + j) = sum over rows r >= o of V(r, i) V(r, o + j), i < o + b.
  kernels::sgemm(o + b, b, len - o, V + o, len, 1, V + o + o * len, 1, len, G.data() + o, sb, false);
  wy_recurrence(NT.data(), sb, G.data(), o, b, tau);
}

// -T's columns and rows [o, o+b) (column-major double, ld sb) as a Panel's NT (row-major float b x b).
std::vector<float> sub_nt(const std::vector<double>& NT, int64_t sb, int64_t o, int64_t b) {
  std::vector<float> out(size_t(b * b));
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < b; ++j) out[size_t(i * b + j)] = float(NT[size_t((o + j) * sb + o + i)]);
  return out;
}

}  // namespace

// The back-transformation Qv <- H_0 H_1 ... H_{K-1} Qv (form_q_blocked, apply_q_blocked: eigh's and svd's
// vectors, 2 m^2 cols flops) in blocks of kBackBlock reflectors, each converted to float once with
// Y = V (-T), so that a block costs two GEMMs, W = V^T C and C += Y W (LAPACK larfb with T folded into
// V once per block, 2 b^2 len flops, instead of into W for every block and column, 2 b^2 cols: a tenth of
// the time at b = 128). The columns of Qv go in slabs of kBackSlab, each taking every block, last first,
// while it stays in cache; slabs are independent, so they split over the GEMM's threads, and a column's
// bits depend on neither the slab it is in nor the thread count. Smaller blocks waste less on V's zero
// triangle and on T and Y (b/n of the flops each), larger ones pass over C less often: tests/bench/
// backxf.mjs, Q C at n = 1024 (AMD EPYC Zen 3, CPU time, load 10-16), took 1.25-1.35x the time of sgemm's
// same flops for blocks of 32-96 and slabs of 192-384 (48 and 256 at the low end), against 1.57-1.65x
// before (blocks of 128, T applied to W, all columns at once).
constexpr int64_t kBackBlock = 48, kBackSlab = 256;

// Block j0 .. j0+b-1 of the job's reflectors, their first row at r0 = j0 + shift, into blk (its r0, len, b set,
// V and Y pointing at len * b floats each; V column-major with its unit diagonal and zeros above, Y = V (-T)).
// -T from the Gram matrix V^T V (one float GEMM, b^2 len flops, what slarft spends in float too) and LAPACK
// larft's recurrence in double.
static void back_block(const BackJob& job, int64_t j0, const BackBlock& blk) {
  const int64_t len = blk.len, b = blk.b, r0 = blk.r0;
  TP_ASSERT(len >= b && r0 == j0 + job.shift);
  // Row by row: b neighbours of one row (svd's right reflectors, read from W's rows) are one line.
  const double* src = job.src + r0 * job.rs + j0 * job.cs;
  for (int64_t i = 0; i < len; ++i)
    for (int64_t j = 0; j < b; ++j) blk.V[j * len + i] = i > j ? float(src[i * job.rs + j * job.cs]) : i == j;
  std::vector<float> G(size_t(b * b));
  std::vector<double> NT(size_t(b * b), 0.0);
  kernels::sgemm(b, b, len, blk.V, len, 1, blk.V, 1, len, G.data(), b, false);
  wy_recurrence(NT.data(), b, G.data(), 0, b, job.tau->data() + j0);
  const std::vector<float> nt = sub_nt(NT, b, 0, b);
  // Y^T (b, len) row-major = NT^T V^T: NT^T has row stride 1, V^T row stride len.
  kernels::sgemm(b, len, b, nt.data(), 1, b, blk.V, len, 1, blk.Y, len, false);
}

// The back-transformation's float work, kept between calls (one caller at a time, as sgemm's thread count
// is set from one thread): the blocks' V and Y (8 MB at n = 1024) and each thread's slab of Qv, freshly
// allocated for every call before. Natively a buffer that size is mapped and unmapped by each call, and every
// page faulted in again; in WebAssembly it is the heap's, reused, but cleared and copied each time. Kept up to
// kKeepBackScratch floats (16 MB: eigh and svd to n ~ 1400); a larger one is freed when its call ends, so
// one big decomposition leaves nothing behind. Not tensors': tp.memory() shows it apart, as its scratch.
namespace {
struct BackScratch {
  std::vector<float> q, vy;
};
BackScratch g_back;
constexpr size_t kKeepBackScratch = size_t(4) << 20;
float* scratch_floats(std::vector<float>& v, size_t n) {
  if (v.size() < n) {
    std::vector<float>().swap(v);  // free first: the old and the new never both live
    v.resize(n);
  }
  return v.data();
}
void trim_back_scratch() {
  if (g_back.q.size() + g_back.vy.size() > kKeepBackScratch) release_back_scratch();
}
}  // namespace

size_t back_scratch_bytes() { return (g_back.q.capacity() + g_back.vy.capacity()) * sizeof(float); }
void release_back_scratch() {
  std::vector<float>().swap(g_back.q);
  std::vector<float>().swap(g_back.vy);
}

void prepare_back(BackJob* jobs, int njobs, int64_t block, void (*beside)(const void*, bool), const void* context) {
  if (block <= 0) block = kBackBlock;
  size_t floats = 0, count = 0;
  for (BackJob* job = jobs; job < jobs + njobs; ++job) {
    const int64_t K = int64_t(job->tau->size());
    job->blocks = std::vector<BackBlock>(size_t((K + block - 1) / block));
    for (size_t q = 0; q < job->blocks.size(); ++q) {
      BackBlock& blk = job->blocks[q];
      blk.r0 = int64_t(q) * block + job->shift, blk.len = job->m - blk.r0, blk.b = std::min(block, K - int64_t(q) * block);
      floats += size_t(2 * blk.len * blk.b);
    }
    count += job->blocks.size();
  }
  float* vy = scratch_floats(g_back.vy, floats);
  for (BackJob* job = jobs; job < jobs + njobs; ++job)
    for (BackBlock& blk : job->blocks) {
      blk.V = vy, blk.Y = vy + blk.len * blk.b;
      vy += 2 * blk.len * blk.b;
    }
  // Blocks go to whichever thread is free (each job's longest first): their costs differ, and beside's may
  // be more than all of theirs.
  std::atomic<size_t> next{0};
  const int parts = int(std::min<size_t>(size_t(kernels::sgemm_threads()), count + (beside != nullptr)));
  if (parts == 0) return;
  tp::detail::run_parts(parts, [&, count, block, jobs, beside, context](int part) {
    if (part == 0 && beside) beside(context, false);
    size_t t;
    for (; (t = next.fetch_add(1)) < count;) {
      BackJob* job = jobs;
      for (; t >= job->blocks.size(); ++job) t -= job->blocks.size();
      back_block(*job, int64_t(t) * block, job->blocks[t]);
    }
    if (t == count && beside) beside(context, true);  // the first thread out of blocks (one takes count)
  });
}

// dst[i * rs + j * cs] = Q(i, j) for the column-major Q (m, w): a column whole when it is contiguous in dst,
// else 8 rows at a time across the columns, so that 8 row streams of dst stay in L1 when rs is a multiple of
// 4 KB (row by row across 32x32 tiles, 32 rows of one cache set evicted each other: eigh's V copy took 3 ms
// at n = 1024 in Chromium). Bounds and pointers hoisted by hand: indexed, this file's -Os made it 4x slower
// (WASM micro-bench, 1024 x 1024: 3.8 ms against 0.9 row-major, 0.4 transposed).
static void store_slab(const float* Q, int64_t m, int64_t w, float* dst, int64_t rs, int64_t cs) {
  const int64_t rows = rs == 1 ? m : 8;
  for (int64_t i0 = 0; i0 < m; i0 += rows) {
    const int64_t i1 = std::min(i0 + rows, m);
    for (int64_t j = 0; j < w; ++j) {
      const float* q = Q + j * m;
      float* d = dst + i0 * rs + j * cs;
      for (int64_t i = i0; i < i1; ++i, d += rs) *d = q[i];
    }
  }
}

// Qv (m, cols) float <- H_0 H_1 ... H_{K-1} C for each job, last block first, by column slabs (as many per
// job as a multiple of the thread count, of equal widths; with a single slab its GEMMs split instead): each
// slab comes in from C as float, takes every block while it stays in cache and goes out as double, on
// whichever thread runs it. A column's bits depend on neither its slab nor the thread count unless the slab
// is one column wide (the GEMM's vector path), which rounding up never makes. Block p changes rows from its
// first row r0 on, and, when Qv starts as the first columns of I, only columns from r0 on: the columns
// left of it are still those of I there.
void apply_back(BackJob* jobs, int njobs, int64_t slab) {
  if (slab <= 0) slab = kBackSlab;
  const int threads = kernels::sgemm_threads();
  std::vector<int64_t> nslabs(static_cast<size_t>(njobs));
  int64_t count = 0, most = 0;  // slabs, floats of the largest
  for (int i = 0; i < njobs; ++i) {
    BackJob& job = jobs[i];
    const int64_t cols = job.cols;
    if (!job.dst) job.out = ColMat(job.m, cols);
    int64_t& ns = nslabs[size_t(i)];
    ns = (cols + slab - 1) / slab;
    if (threads > 1 && ns % threads != 0) ns = std::min((ns + threads - 1) / threads * threads, std::max(ns, cols / 2));
    count += ns;
    if (ns > 0) most = std::max(most, job.m * ((cols + ns - 1) / ns));
  }
  const int parts = int(std::min<int64_t>(threads, count));
  if (parts == 0) return;
  float* q = scratch_floats(g_back.q, size_t(parts * most));
  tp::detail::run_parts(parts, [&, q, most, count, parts, jobs](int part) {
    std::vector<float> W;
    float* Qv = q + part * most;
    for (int64_t t = part; t < count; t += parts) {
      int64_t s = t, i = 0;
      for (; s >= nslabs[size_t(i)]; ++i) s -= nslabs[size_t(i)];
      BackJob& job = jobs[i];
      const int64_t m = job.m, s0 = job.cols * s / nslabs[size_t(i)], s1 = job.cols * (s + 1) / nslabs[size_t(i)];
      for (int64_t c = s0; c < s1; ++c) {
        float* qc = Qv + (c - s0) * m;
        std::fill(qc, qc + m, 0.0f);
        if (!job.c) {
          if (c < m) qc[c] = 1.0f;
        } else {
          const double* cc = job.c + (job.order ? job.order[c] : c) * job.ldc;
          for (int64_t r = 0; r < job.crows; ++r) qc[r] = float(cc[r]);
        }
      }
      for (auto blk = job.blocks.rbegin(); blk != job.blocks.rend(); ++blk) {
        const int64_t c0 = job.c ? s0 : std::max(s0, blk->r0), w = s1 - c0;
        if (w <= 0) continue;
        W.resize(size_t(blk->b * w));
        float* C = Qv + blk->r0 + (c0 - s0) * m;  // rows r0.., columns c0..s1 of the slab, column-major
        // W (b, w) row-major = V^T C (V^T has row stride len; C column stride m).
        kernels::sgemm(blk->b, w, blk->len, blk->V, blk->len, 1, C, 1, m, W.data(), w, false);
        // C += Y W, written as C^T += W^T Y^T: C^T is row-major with row stride m.
        kernels::sgemm(w, blk->len, blk->b, W.data(), 1, w, blk->Y, blk->len, 1, C, m, true);
      }
      if (job.dst) store_slab(Qv, m, s1 - s0, job.dst + s0 * job.dcs, job.drs, job.dcs);
      else std::copy(Qv, Qv + (s1 - s0) * m, job.out.col(s0));
    }
  });
  trim_back_scratch();
}

BackJob column_back_job(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t cols) {
  BackJob job;
  job.src = V.a.data(), job.rs = 1, job.cs = V.rows, job.m = V.rows, job.shift = shift, job.tau = &tau;
  job.cols = cols;
  return job;
}

ColMat form_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t k, int64_t block,
                      int64_t slab) {
  BackJob job = column_back_job(V, tau, shift, k);
  prepare_back(&job, 1, block);
  apply_back(&job, 1, slab);
  return std::move(job.out);
}

ColMat apply_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, const ColMat& C, int64_t block,
                       int64_t slab) {
  TP_ASSERT(C.rows == V.rows);
  BackJob job = column_back_job(V, tau, shift, C.cols);
  job.c = C.a.data(), job.crows = job.ldc = C.rows;
  prepare_back(&job, 1, block);
  apply_back(&job, 1, slab);
  return std::move(job.out);
}

namespace {

// The trailing matrix C (len, cols), row-major at row stride ld, <- (I - V op(T) V^T) C for the reflectors V
// (len, b) column-major at ldv and NT = -T (b, b) row-major at ldt, op(T) = T^T when transpose (Q_panel^T,
// for the trailing matrix) else T: W1 = V^T C, W2 = op(-T) W1, C += V W2, three float GEMMs (the
// triangle's product b^2 cols flops, a tenth of the others at b = 128).
void apply_block_rows(const float* V, int64_t ldv, int64_t len, int64_t b, const float* NT, int64_t ldt, float* C,
                      int64_t ld, int64_t cols, bool transpose, std::vector<float>& W1, std::vector<float>& W2) {
  using kernels::sgemm;
  if (cols == 0) return;
  W1.resize(size_t(b * cols));
  W2.resize(size_t(b * cols));
  sgemm(b, cols, len, V, ldv, 1, C, ld, 1, W1.data(), cols, false);
  sgemm(b, cols, b, NT, transpose ? 1 : ldt, transpose ? ldt : 1, W1.data(), cols, 1, W2.data(), cols, false);
  sgemm(len, cols, b, V, 1, ldv, W2.data(), cols, 1, C, ld, true);
}

// Columns [s0, s1) of Q (m, k), row-major at row stride k, <- H_0 ... H_{K-1} applied to the first k
// columns of I (orgqr), every block on the slab while it stays in cache, last block first, in sub-blocks
// of kFormQBlock reflectors (a run of reflectors' -T is the diagonal block of its block's; sub-blocks of 64
// against 128 took 0.28 s against 0.24 at 3072x1024, CPU at load ~30, so kApply's own). The columns of
// a sub-block [r0, r0+b) are still those of I when it comes (the later ones touch rows and columns from
// r0 + b on), so there V^T C is V's top triangle, with no product; the columns right of them are zero in
// its first b rows, and those left of r0 are untouched. A column's bits depend on neither its slab nor
// the thread count.
constexpr int64_t kFormQSlab = 256;
void form_q_slab(const std::vector<Panel>& blocks, float* Q, int64_t m, int64_t k, int64_t s0, int64_t s1,
                 int64_t sub, std::vector<float>& W1, std::vector<float>& W2) {
  using kernels::sgemm;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
    const Panel& blk = *it;
    const int64_t nsub = (blk.b + sub - 1) / sub;
    for (int64_t q = nsub - 1; q >= 0; --q) {
      const int64_t o = q * sub, b = std::min(sub, blk.b - o), r0 = blk.row0 + o, len = m - r0;
      const int64_t c0 = std::max(s0, r0), w = s1 - c0;
      if (w <= 0) continue;
      const float* V = blk.V.data() + o * blk.len + o;  // (len, b) column-major at blk.len
      const float* NT = blk.NT.data() + o * blk.b + o;  // (b, b) row-major at blk.b
      const int64_t ldv = blk.len, ldt = blk.b;
      W1.resize(size_t(b * w));
      W2.resize(size_t(b * w));
      const int64_t g0 = std::min(s1, std::max(c0, r0 + b));  // the first column past the sub-block's own
      for (int64_t i = 0; i < b; ++i)
        for (int64_t c = c0; c < g0; ++c) W1[size_t(i * w + c - c0)] = V[i * ldv + (c - r0)];
      sgemm(b, s1 - g0, len - b, V + b, ldv, 1, Q + (r0 + b) * k + g0, k, 1, W1.data() + (g0 - c0), w, false);
      sgemm(b, w, b, NT, ldt, 1, W1.data(), w, 1, W2.data(), w, false);
      sgemm(len, w, b, V, 1, ldv, W2.data(), w, 1, Q + r0 * k + c0, k, true);
    }
  }
}

}  // namespace

namespace {

// qr_blocked's factorization: R (k, n) row-major, and the blocks' reflectors (V, -T) for forming Q.
// trailing false skips the blocks' updates of the columns right of them (tests/bench/qr-stages.mjs: the
// panels' and the blocks' own work apart from the trailing updates; R is then not A's).
std::vector<Panel> qr_factor(const float* A, int64_t m, int64_t n, float* R, bool trailing, const QrTuning& tune) {
  const int64_t k = std::min(m, n);
  const int64_t kApply = tune.apply > 0 ? tune.apply : detail::kApply;
  // F = 2^e A, row-major as A (the GEMMs take any strides; panels are gathered into double); R is scaled
  // back at the end. A product with a power of two in double is exact and rounds once to float, as ldexp
  // would, without a libm call per element.
  std::vector<float> Fv(size_t(m * n));
  float* F = Fv.data();
  const int e = gemm_scale_exponent(A, m * n);
  const double up = std::ldexp(1.0, e), down = std::ldexp(1.0, -e);
  // What is left of a column below the diagonal once it is under float32 resolution of the column
  // (2^-23 of its norm) is rounding from the float updates, not data. Reflecting it anyway builds
  // reflectors from noise, whose float updates add coherent rounding on patterned matrices (all ones:
  // ||QR - A|| / ||A|| reached 2e-5) and run on denormals; counting it as zero costs at most that
  // much of each column, below what float32 storage of A already costs.
  std::vector<double> drop_below(static_cast<size_t>(n));
  scaled_copy_column_squares(A, m, n, up, F, drop_below.data());
  for (double& s : drop_below) s = std::sqrt(s) * 0x1p-23;
  std::vector<Panel> blocks;
  std::vector<float> W1, W2, G;
  std::vector<double> NT;
  for (int64_t s0 = 0; s0 < k; s0 += kApply) {
    const int64_t sb = std::min(kApply, k - s0);
    // The block's kApply columns, kPanel at a time: each panel factored in double, its reflectors applied
    // to the block's columns right of it only.
    Panel blk;
    blk.row0 = s0;
    blk.len = m - s0;
    blk.b = sb;
    blk.V.resize(size_t(blk.len * sb));  // zeros (a new panel); clear + resize: no assign(n, v) instance
    G.clear();
    G.resize(size_t(sb * sb));
    zeros(NT, sb * sb);
    std::vector<double> blk_tau(static_cast<size_t>(sb));
    for (int64_t p0 = s0; p0 < s0 + sb; p0 += kPanel) {
      const int64_t len = m - p0, b = std::min(kPanel, s0 + sb - p0), o = p0 - s0;
      ColMat P(len, b);
      gather_columns(F + p0 * n + p0, n, P);
      std::vector<double> tau;
      householder_qr(P, tau, drop_below.data() + p0);
      std::copy(tau.begin(), tau.end(), blk_tau.begin() + o);
      for (int64_t i = 0; i < b; ++i)  // R's rows of the panel back into F (its V part is kept aside)
        for (int64_t j = i; j < b; ++j) F[(p0 + i) * n + p0 + j] = float(P(i, j));
      float* V = blk.V.data() + o * blk.len + o;  // the panel's V: the block's columns o.., rows from o
      unit_lower_to_float(P, V, blk.len);
      extend_block_t(blk, o, b, blk_tau.data(), G, NT);
      // larft's T of a run of reflectors is the diagonal block of the run's block.
      const std::vector<float> panel_nt = sub_nt(NT, sb, o, b);
      const int64_t right = s0 + sb - p0 - b;  // the block's columns right of the panel
      apply_block_rows(V, blk.len, len, b, panel_nt.data(), b, F + p0 * n + p0 + b, n, right, true, W1, W2);
    }
    blk.NT = sub_nt(NT, sb, 0, sb);
    // The rest of the rows s0.. gets Q_block^T at once.
    if (trailing)
      apply_block_rows(blk.V.data(), blk.len, blk.len, sb, blk.NT.data(), sb, F + s0 * n + s0 + sb, n, n - s0 - sb,
                       true, W1, W2);
    blocks.push_back(std::move(blk));
  }
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j < i ? 0.0f : float(double(F[i * n + j]) * down);
  return blocks;
}

// Q (m, k) = Q_0 Q_1 ... applied to the first k columns of I, in place in the row-major output, slab by
// slab (as many as a multiple of the thread count, of equal widths, split over the threads).
void qr_form_q(const std::vector<Panel>& blocks, int64_t m, int64_t k, float* Q, const QrTuning& tune) {
  const int64_t kFormQBlock = tune.form_block > 0 ? tune.form_block : detail::kFormQBlock;
  std::fill(Q, Q + m * k, 0.0f);
  for (int64_t i = 0; i < k; ++i) Q[i * k + i] = 1.0f;
  // Slab edges are multiples of kFormQBlock (the last slab takes the remainder), as the sub-blocks' first
  // columns are: a GEMM is then one column wide (sgemm's vector path, other bits) whatever the slabs or not
  // at all.
  const int64_t units = std::max<int64_t>(1, k / kFormQBlock);
  const int threads = kernels::sgemm_threads();
  int64_t nslabs = std::max<int64_t>(1, k / kFormQSlab);
  if (threads > 1 && nslabs % threads != 0) nslabs = std::min((nslabs + threads - 1) / threads * threads, units);
  const auto edge = [&](int64_t s) { return s == nslabs ? k : kFormQBlock * (units * s / nslabs); };
  const int parts = int(std::min<int64_t>(threads, nslabs));
  tp::detail::run_parts(parts, [&, nslabs, parts, m, k, Q, kFormQBlock](int part) {
    std::vector<float> S1, S2;
    for (int64_t s = part; s < nslabs; s += parts)
      form_q_slab(blocks, Q, m, k, edge(s), edge(s + 1), kFormQBlock, S1, S2);
  });
}

}  // namespace

void qr_blocked(const float* A, int64_t m, int64_t n, float* Q, float* R, const QrTuning& tune) {
  const std::vector<Panel> blocks = qr_factor(A, m, n, R, true, tune);
  qr_form_q(blocks, m, std::min(m, n), Q, tune);
}

double qr_blocked_stage(int stage, const float* A, int64_t m, int64_t n, float* Q, float* R, const QrTuning& tune) {
  static std::vector<Panel> kept;
  if (stage == 0 || stage == 1) {
    kept = qr_factor(A, m, n, R, stage == 0, tune);
    return double(R[0]);
  }
  qr_form_q(kept, m, std::min(m, n), Q, tune);
  return double(Q[0]);
}

}  // namespace tp::linalg::detail

namespace tp::linalg {

using namespace detail;

// A is (m,n), Q is (m,k), R is (k,n), k = min(m,n). T = float: blocked (float32 GEMMs) from
// kBlockedQrFrom columns; T = double: the unblocked double route at every size.
template <class T>
static void qr_any(const T* A, int64_t m, int64_t n, T* Q, T* R) {
  if (m < 0 || n < 0) fail("linalg.qr", "negative matrix size ", m, " x ", n);
  check_finite("linalg.qr", A, m * n);
  const int64_t k = std::min(m, n);
  if constexpr (std::is_same_v<T, float>)
    if (k >= kBlockedQrFrom) return qr_blocked(A, m, n, Q, R);
  ColMat W = load(A, m, n, false);
  std::vector<double> tau;
  householder_qr(W, tau);
  // R is the upper triangle of W; below it W holds reflector vectors, so write exact zeros there.
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j >= i ? T(W(i, j)) : T(0);
  const ColMat Qc = form_q(W, tau, k);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < k; ++j) Q[i * k + j] = T(Qc(i, j));
}

void qr(const float* A, int64_t m, int64_t n, float* Q, float* R) { qr_any(A, m, n, Q, R); }
void qr(const double* A, int64_t m, int64_t n, double* Q, double* R) { qr_any(A, m, n, Q, R); }

size_t kept_scratch_bytes() { return back_scratch_bytes(); }
void release_kept_scratch() { release_back_scratch(); }

}  // namespace tp::linalg
