// Reduced QR by Householder reflectors (LAPACK geqrf + orgqr). Small matrices run the unblocked
// reflectors in double; larger ones are blocked (compact WY, LAPACK's geqrt/larft/larfb): each panel of
// kPanel columns is factored in double, and its reflectors reach the rest of the matrix, and Q, through
// float32 GEMMs, where nearly all the work is. Householder QR is backward stable whatever the
// conditioning, so the float updates cost about float32 rounding in QR - A and Q^T Q - I (~1e-7 and
// ~1e-6 at 3072x1024), the accuracy of LAPACK's own float32 sgeqrf, at 5-6x the speed.
#include <algorithm>
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
// here against 21-24 at 128 (AMD EPYC Zen 3, WASM SIMD, one thread).
constexpr int64_t kPanel = 32, kApply = 128;

// The column-major float (rows, cols) matrix F with leading dimension ld: element (i, j) at F[i + j*ld].
struct ColF {
  float* a;
  int64_t ld;
  float* at(int64_t i, int64_t j) const { return a + i + j * ld; }
};

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
  for (int64_t i = o; i < o + b; ++i) {
    double* y = NT.data() + i * sb;  // column i of -T, rows 0..i-1: -tau_i (-T)(0:i, 0:i) G(0:i, i)
    for (int64_t q = 0; q < i; ++q) {  // y += (-T)(0:q+1, q) G(q, i), column by column (contiguous)
      const double* tq = NT.data() + q * sb;
      const double gq = G[size_t(q * sb + i)];
      for (int64_t j = 0; j <= q; ++j) y[j] += tq[j] * gq;
    }
    for (int64_t j = 0; j < i; ++j) y[j] *= -tau[i];
    y[i] = -tau[i];
  }
}

// -T's columns and rows [o, o+b) (column-major double, ld sb) as a Panel's NT (row-major float b x b).
std::vector<float> sub_nt(const std::vector<double>& NT, int64_t sb, int64_t o, int64_t b) {
  std::vector<float> out(size_t(b * b));
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < b; ++j) out[size_t(i * b + j)] = float(NT[size_t((o + j) * sb + o + i)]);
  return out;
}

// T of the compact WY form of p.V (LAPACK larft, forward, columnwise): T(i,i) = tau_i,
// T(0:i, i) = -tau_i T(0:i, 0:i) V(:, 0:i)^T v_i, the products V^T V from one float GEMM (b^2 len flops,
// what slarft spends in float too), the short recurrence in double (extend_block_t).
void wy_factor(Panel& p, const std::vector<double>& tau) {
  std::vector<float> G(size_t(p.b * p.b));
  std::vector<double> NT(size_t(p.b * p.b), 0.0);
  extend_block_t(p, 0, p.b, tau.data(), G, NT);
  p.NT = sub_nt(NT, p.b, 0, p.b);
}

// C (len, cols) column-major at ld <- (I - V op(T) V^T) C, op(T) = T^T when transpose (applying
// H_{b-1} ... H_0 = Q_panel^T, for the trailing matrix) else T (applying Q_panel, for forming Q).
// Three float GEMMs: the small triangle's product too (b^2 cols flops, a tenth of the others at b = 128).
void apply_block(const Panel& p, float* C, int64_t ld, int64_t cols, bool transpose, std::vector<float>& W1,
                 std::vector<float>& W2) {
  using kernels::sgemm;
  const int64_t len = p.len, b = p.b;
  if (cols == 0) return;
  W1.resize(size_t(b * cols));
  W2.resize(size_t(b * cols));
  // W1 (b, cols) row-major = V^T C (V^T has row stride len, C column stride ld).
  sgemm(b, cols, len, p.V.data(), len, 1, C, 1, ld, W1.data(), cols, false);
  // W2 (b, cols) row-major = op(NT) W1, NT = -T (T^T has row stride 1 and column stride b).
  sgemm(b, cols, b, p.NT.data(), transpose ? 1 : b, transpose ? b : 1, W1.data(), cols, 1, W2.data(), cols, false);
  // C += V W2, written as C^T += W2^T V^T: sgemm's output has unit column stride, and the
  // column-major C is the row-major C^T with row stride ld.
  sgemm(cols, len, b, W2.data(), 1, cols, p.V.data(), len, 1, C, ld, true);
}

// The panel of the double reflectors in P (len, b), below its unit diagonal, whose rows start at row0 of
// the whole matrix: its V only; its -T is the diagonal block of its block's (qr_blocked, extend_block_t).
Panel panel_vectors(const ColMat& P, int64_t row0) {
  Panel p;
  p.row0 = row0;
  p.len = P.rows;
  p.b = P.cols;
  p.V.assign(size_t(p.len * p.b), 0.0f);
  for (int64_t j = 0; j < p.b; ++j) {
    p.V[size_t(j * p.len + j)] = 1.0f;
    for (int64_t i = j + 1; i < p.len; ++i) p.V[size_t(j * p.len + i)] = float(P(i, j));
  }
  return p;
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

// One block of reflectors for the back-transformation: rows from r0, V (len, b) column-major with its
// unit diagonal and zeros above, Y = V (-T) (len, b) column-major.
struct BackBlock {
  int64_t r0 = 0, len = 0, b = 0;
  std::vector<float> V, Y;
};

// Block j0 .. j0+b-1 of the reflectors stored in V (see form_q_blocked), their first row at r0 = j0 + shift.
static BackBlock back_block(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t j0, int64_t b) {
  const int64_t m = V.rows, r0 = j0 + shift, len = m - r0;
  TP_ASSERT(len >= b);
  Panel p;
  p.row0 = r0, p.len = len, p.b = b;
  p.V.assign(size_t(len * b), 0.0f);
  for (int64_t j = 0; j < b; ++j) {
    float* v = p.V.data() + j * len;
    v[j] = 1.0f;
    const double* src = V.col(j0 + j) + r0;
    for (int64_t i = j + 1; i < len; ++i) v[i] = float(src[i]);
  }
  wy_factor(p, std::vector<double>(tau.begin() + j0, tau.begin() + j0 + b));
  BackBlock blk;
  blk.r0 = r0, blk.len = len, blk.b = b;
  blk.Y.resize(size_t(len * b));
  // Y^T (b, len) row-major = NT^T V^T: NT^T has row stride 1, V^T row stride len.
  kernels::sgemm(b, len, b, p.NT.data(), 1, b, p.V.data(), len, 1, blk.Y.data(), len, false);
  blk.V = std::move(p.V);
  return blk;
}

// Qv (m, cols) column-major float <- H_0 H_1 ... H_{K-1} Qv for the reflectors of V (see form_q_blocked),
// last block first. Block p changes rows from its first row r0 on, and, when Qv starts as the first columns
// of I (identity_start), only columns from r0 on: the columns left of it are still those of I there.
static void apply_reflectors(const ColMat& V, const std::vector<double>& tau, int64_t shift, float* Qv, int64_t cols,
                             bool identity_start, int64_t block, int64_t slab) {
  const int64_t m = V.rows, K = int64_t(tau.size());
  if (K == 0 || cols == 0) return;
  if (block <= 0) block = kBackBlock;
  if (slab <= 0) slab = kBackSlab;
  const int64_t nblocks = (K + block - 1) / block;
  std::vector<BackBlock> blocks(static_cast<size_t>(nblocks));
  // Threads split the blocks' preparation, then the slabs (as many as a multiple of the thread count, of
  // equal widths): with a single slab its GEMMs split instead. A column's bits do not depend on its slab
  // unless the slab is one column wide (the GEMM's vector path), which rounding up never makes.
  const int threads = kernels::sgemm_threads();
  int64_t nslabs = (cols + slab - 1) / slab;
  if (threads > 1 && nslabs % threads != 0)
    nslabs = std::min((nslabs + threads - 1) / threads * threads, std::max(nslabs, cols / 2));
  const int block_parts = int(std::min<int64_t>(threads, nblocks)), slab_parts = int(std::min<int64_t>(threads, nslabs));
  tp::detail::run_parts(block_parts, [&](int part) {
    for (int64_t q = part; q < nblocks; q += block_parts)
      blocks[size_t(q)] = back_block(V, tau, shift, q * block, std::min(block, K - q * block));
  });
  tp::detail::run_parts(slab_parts, [&](int part) {
    std::vector<float> W;
    for (int64_t s = part; s < nslabs; s += slab_parts) {
      const int64_t s0 = cols * s / nslabs, s1 = cols * (s + 1) / nslabs;
      W.resize(size_t(block * (s1 - s0)));
      for (int64_t q = nblocks - 1; q >= 0; --q) {
        const BackBlock& blk = blocks[size_t(q)];
        const int64_t c0 = identity_start ? std::max(s0, blk.r0) : s0, w = s1 - c0;
        if (w <= 0) continue;
        float* C = Qv + blk.r0 + c0 * m;  // rows r0.., columns c0..s1 of the column-major Qv
        // W (b, w) row-major = V^T C (V^T has row stride len; C column stride m).
        kernels::sgemm(blk.b, w, blk.len, blk.V.data(), blk.len, 1, C, 1, m, W.data(), w, false);
        // C += Y W, written as C^T += W^T Y^T: C^T is row-major with row stride m.
        kernels::sgemm(w, blk.len, blk.b, W.data(), 1, w, blk.Y.data(), blk.len, 1, C, m, true);
      }
    }
  });
}

ColMat form_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, int64_t k, int64_t block,
                      int64_t slab) {
  const int64_t m = V.rows;
  std::vector<float> Qv(size_t(m * k), 0.0f);  // column-major (m, k), as ColMat
  for (int64_t i = 0; i < std::min(m, k); ++i) Qv[size_t(i * m + i)] = 1.0f;
  apply_reflectors(V, tau, shift, Qv.data(), k, true, block, slab);
  ColMat Q(m, k);
  std::copy(Qv.begin(), Qv.end(), Q.a.begin());
  return Q;
}

ColMat apply_q_blocked(const ColMat& V, const std::vector<double>& tau, int64_t shift, const ColMat& C, int64_t block,
                       int64_t slab) {
  TP_ASSERT(C.rows == V.rows);
  std::vector<float> Qv(C.a.begin(), C.a.end());
  apply_reflectors(V, tau, shift, Qv.data(), C.cols, false, block, slab);
  ColMat Q(C.rows, C.cols);
  std::copy(Qv.begin(), Qv.end(), Q.a.begin());
  return Q;
}

namespace {

// Qv's columns [r0, k) <- Q_block Qv, for Qv (m, k) column-major at ld holding H_{next blocks} applied to
// the first k columns of I (orgqr's order, last block first). The block's own columns r0..r0+b are still
// those of I, so there V^T C is V's top triangle V1^T, with no product; the columns right of them are zero
// in the block's first b rows, so V^T C skips those rows. Saves 2 b^2 (len + cols) flops per block over
// apply_block.
void form_q_block(const Panel& p, float* Qv, int64_t ld, int64_t k, std::vector<float>& W1, std::vector<float>& W2) {
  using kernels::sgemm;
  const int64_t len = p.len, b = p.b, r0 = p.row0, cols = k - r0, rest = cols - b;
  TP_ASSERT(rest >= 0 && len >= b);
  float* C = Qv + r0 + r0 * ld;
  W1.resize(size_t(b * cols));
  W2.resize(size_t(b * cols));
  // W1 (b, cols) row-major: [V1^T | V(b:, :)^T C(b:, b:)].
  for (int64_t i = 0; i < b; ++i)
    for (int64_t j = 0; j < b; ++j) W1[size_t(i * cols + j)] = p.V[size_t(i * len + j)];
  sgemm(b, rest, len - b, p.V.data() + b, len, 1, C + b + b * ld, 1, ld, W1.data() + b, cols, false);
  // W2 = -T W1, then C += V W2 (as apply_block, op(T) = T).
  sgemm(b, cols, b, p.NT.data(), b, 1, W1.data(), cols, 1, W2.data(), cols, false);
  sgemm(cols, len, b, W2.data(), 1, cols, p.V.data(), len, 1, C, ld, true);
}

}  // namespace

void qr_blocked(const float* A, int64_t m, int64_t n, float* Q, float* R) {
  const int64_t k = std::min(m, n);
  // F = A, column-major float: panels read columns, and the GEMMs take any strides.
  std::vector<float> Fv(size_t(m * n));
  const ColF F{Fv.data(), m};
  // F = 2^e A; R is scaled back at the end. A product with a power of two in double is exact and rounds
  // once to float, as ldexp would, without a libm call per element.
  const int e = gemm_scale_exponent(A, m * n);
  const double up = std::ldexp(1.0, e), down = std::ldexp(1.0, -e);
  // Transposed 8 rows at a time: 8 read streams fit the 8 ways of an L1 set even when the row stride is a
  // multiple of 4 KB (32x32 tiles put 32 rows in one set: 0.05-0.06 s at 3072x1024 against 0.04 here, with
  // the first touch of F).
  for (int64_t i0 = 0; i0 < m; i0 += 8) {
    const int64_t rows = std::min<int64_t>(8, m - i0);
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = i0; i < i0 + rows; ++i) *F.at(i, j) = float(double(A[i * n + j]) * up);
  }
  // What is left of a column below the diagonal once it is under float32 resolution of the column
  // (2^-23 of its norm) is rounding from the float updates, not data. Reflecting it anyway builds
  // reflectors from noise, whose float updates add coherent rounding on patterned matrices (all ones:
  // ||QR - A|| / ||A|| reached 2e-5) and run on denormals; counting it as zero costs at most that
  // much of each column, below what float32 storage of A already costs.
  std::vector<double> drop_below(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    double s = 0.0;
    for (int64_t i = 0; i < m; ++i) s += double(*F.at(i, j)) * double(*F.at(i, j));
    drop_below[size_t(j)] = std::sqrt(s) * 0x1p-23;
  }
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
    blk.V.assign(size_t(blk.len * sb), 0.0f);
    G.assign(size_t(sb * sb), 0.0f);
    NT.assign(size_t(sb * sb), 0.0);
    std::vector<double> blk_tau(static_cast<size_t>(sb));
    for (int64_t p0 = s0; p0 < s0 + sb; p0 += kPanel) {
      const int64_t len = m - p0, b = std::min(kPanel, s0 + sb - p0), o = p0 - s0;
      ColMat P(len, b);
      for (int64_t j = 0; j < b; ++j) std::copy(F.at(p0, p0 + j), F.at(p0, p0 + j) + len, P.col(j));
      std::vector<double> tau;
      householder_qr(P, tau, drop_below.data() + p0);
      std::copy(tau.begin(), tau.end(), blk_tau.begin() + o);
      for (int64_t j = 0; j < b; ++j)  // R's rows of the panel back into F (its V part is kept aside)
        for (int64_t i = 0; i <= j; ++i) *F.at(p0 + i, p0 + j) = float(P(i, j));
      Panel p = panel_vectors(P, p0);
      for (int64_t j = 0; j < b; ++j)  // the panel's V into the block's, rows from the panel's first
        std::copy(p.V.begin() + j * len, p.V.begin() + (j + 1) * len, blk.V.begin() + (o + j) * blk.len + o);
      extend_block_t(blk, o, b, blk_tau.data(), G, NT);
      p.NT = sub_nt(NT, sb, o, b);  // larft's T of a run of reflectors is the diagonal block of the run's block
      const int64_t right = s0 + sb - p0 - b;  // the block's columns right of the panel
      apply_block(p, F.at(p0, p0 + b), m, right, true, W1, W2);
    }
    // The rest of the rows s0.. gets Q_block^T at once.
    blk.NT = sub_nt(NT, sb, 0, sb);
    apply_block(blk, F.at(s0, s0 + sb), m, n - s0 - sb, true, W1, W2);
    blocks.push_back(std::move(blk));
  }
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) R[i * n + j] = j < i ? 0.0f : float(double(*F.at(i, j)) * down);
  // Q = Q_0 Q_1 ... applied to the first k columns of I, last block first: a block only touches rows
  // and columns from its row0 on.
  std::vector<float> Qv(size_t(m * k), 0.0f);
  for (int64_t i = 0; i < k; ++i) Qv[size_t(i * m + i)] = 1.0f;
  for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) form_q_block(*it, Qv.data(), m, k, W1, W2);
  for (int64_t j0 = 0; j0 < k; j0 += 8) {  // 8 columns at a time, as F was filled
    const int64_t cols = std::min<int64_t>(8, k - j0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = j0; j < j0 + cols; ++j) Q[i * k + j] = Qv[size_t(i + j * m)];
  }
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

}  // namespace tp::linalg
