// sgemm's packed operands and block product, for kernels that reuse a packed operand across several
// products (attention packs each query tile once for all its key tiles, and each K/V tile once for all
// the query heads of a group). Not a public header.
// For k <= kMaxDepth these give C the bits sgemm gives for the same operands when sgemm takes its packed
// path (m, n > 1): the same tile and the same sums over p in the same order.
#pragma once
#include <cstdint>

namespace tp::kernels::packed {

constexpr int64_t kMaxDepth = 384;  // sgemm's k block: deeper products sum in blocks, which these do not

// Floats a packed A of m rows (B of n columns) and depth k takes: rows (columns) padded to the tile.
int64_t a_floats(int64_t m, int64_t k);
int64_t b_floats(int64_t k, int64_t n);

// A(i, p) = A[i*rsa + p*csa] for i < m, p < k, into `out` (a_floats(m, k) floats).
void pack_a(int64_t m, int64_t k, const float* A, int64_t rsa, int64_t csa, float* out);
// B(p, j) = B[p*rsb + j*csb] for p < k, j < n, into `out` (b_floats(k, n) floats).
void pack_b(int64_t k, int64_t n, const float* B, int64_t rsb, int64_t csb, float* out);

// C[0:m, 0:n] (+= when add) = packed A (m x k) @ packed B (k x n); k <= kMaxDepth. b may be packed to a
// depth kb > k (pack_b(kb, ...)): its first k rows are then B, with the bits of a B packed to depth k.
void multiply(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* C, int64_t rsc, bool add,
              int64_t kb = 0);

}  // namespace tp::kernels::packed
