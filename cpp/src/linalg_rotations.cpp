// Plane rotations of the columns of the vector matrices in the QL/QR iterations (eigh's Z, svd's U
// and V): applied one at a time for small matrices, recorded and applied in row blocks for large ones
// (see RotationLog in linalg_detail.hpp), the blocks split over threads. All in double.
#include <algorithm>

#include "linalg_detail.hpp"
#include "tensorpad/error.hpp"
#include "tensorpad/gemm.hpp"
#include "work_pool.hpp"

namespace tp::linalg::detail {

namespace {

// Rows per block: 32 rows of every column in double is 256 KB at 1024 columns, within L2, and a
// rotation of two 32-row segments is 16 two-lane steps.
constexpr int64_t kBlockRows = 32;

// x <- c x + s y, y <- c y - s x over kBlockRows entries.
void rotate_block(double* x, double* y, double c, double s) {
  const d2 c2 = {c, c}, s2 = {s, s};
  for (int64_t i = 0; i < kBlockRows; i += 2) {
    const d2 xi = load2(x + i), yi = load2(y + i);
    store2(x + i, c2 * xi + s2 * yi);
    store2(y + i, c2 * yi - s2 * xi);
  }
}

}  // namespace

RotationLog::RotationLog(ColMat* target, size_t max_recorded)
    : target_(target), batched_(target && target->rows >= kBatchedRotationsFrom), max_recorded_(max_recorded) {}

void RotationLog::rotate_columns(int64_t i, int64_t j, double c, double s) {
  if (!target_) return;
  if (!batched_) return rotate(target_->col(i), target_->col(j), target_->rows, c, s);
  ops_.push_back({int32_t(i), int32_t(j), c, s});
  if (ops_.size() >= max_recorded_) flush();
}

void RotationLog::negate_column(int64_t i) {
  if (!target_) return;
  if (!batched_) {
    for (int64_t r = 0; r < target_->rows; ++r) (*target_)(r, i) = -(*target_)(r, i);
    return;
  }
  ops_.push_back({int32_t(i), -1, -1.0, 0.0});
  if (ops_.size() >= max_recorded_) flush();
}

void RotationLog::flush() {
  if (!target_ || ops_.empty()) return;
  ColMat& Z = *target_;
  const int64_t cols = Z.cols, blocks = (Z.rows + kBlockRows - 1) / kBlockRows;
  // Row blocks are independent: they split over the GEMM's threads, each row getting the same
  // arithmetic whatever the split.
  const int parts = int(std::min<int64_t>(kernels::sgemm_threads(), blocks));
  tp::detail::run_parts(parts, [&, cols, blocks, parts](int part) {
    LineVector storage(size_t(kBlockRows * cols));  // on a line: see LineAllocator
    double* const B = storage.data();
    for (int64_t blk = blocks * part / parts; blk < blocks * (part + 1) / parts; ++blk) {
      const int64_t r0 = blk * kBlockRows, rl = std::min(kBlockRows, Z.rows - r0);
      for (int64_t j = 0; j < cols; ++j) {
        double* b = B + j * kBlockRows;
        std::copy(Z.col(j) + r0, Z.col(j) + r0 + rl, b);
        std::fill(b + rl, b + kBlockRows, 0.0);  // padding rows stay zero under rotations
      }
      for (const Op& o : ops_) {
        TP_ASSERT(o.i >= 0 && o.i < cols && o.j < cols);
        double* x = B + int64_t(o.i) * kBlockRows;
        if (o.j < 0) {
          for (int64_t r = 0; r < kBlockRows; ++r) x[r] = -x[r];
          continue;
        }
        rotate_block(x, B + int64_t(o.j) * kBlockRows, o.c, o.s);
      }
      for (int64_t j = 0; j < cols; ++j)
        std::copy(B + j * kBlockRows, B + j * kBlockRows + rl, Z.col(j) + r0);
    }
  });
  ops_.clear();
}

}  // namespace tp::linalg::detail
