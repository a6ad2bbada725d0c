// f32 matrix product kernels, B in float32 or 16-bit floats. A is (m,k), B is (k,n), C is (m,n).
// Operands are strided views, so a transposed A or B is read by the packing step, never copied first.
#pragma once
#include <cstdint>

#include "tensorpad/half.hpp"

namespace tp::kernels {

// C = A@B, or C += A@B when accumulate, with A(i,p) = A[i*rsa + p*csa], B(p,j) = B[p*rsb + j*csb],
// C(i,j) = C[i*rsc + j]. Packed and cache-blocked (BLIS style); any of m, n, k may be 0.
// C must not overlap A or B.
void sgemm(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const float* B,
           int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate);

// How many threads sgemm may split a product over (default 1), for products of at least min_flops
// (2*m*n*k); the decompositions' reductions and rotations split over the same count. Natively and in
// WASM builds with -pthread the split runs on threads; elsewhere the parts run one after another.
// Results are bit-identical for every thread count. Set it from one thread.
void set_sgemm_threads(int threads, int64_t min_flops = int64_t(1) << 24);
int sgemm_threads();

// How many parts a loop of `work` operations (flops, or elements for a row-wise op) splits into over
// sgemm's threads: all of them from min_flops / 256 (65,536 at the default: some 50 us of work in WASM,
// against the helpers' wake-up of 5-70 us), at most `units` (rows, heads), else 1. The model's
// forward splits its row-wise ops and attention with it; each unit's result must not depend on the split.
int parts_for(double work, int64_t units);

// The plain i-j-p triple loop with a float accumulator: the oracle the fast kernel is tested against.
void sgemm_ref(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
               const float* B, int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate);

// sgemm with B stored as 16-bit floats (bfloat16 or float16, raw bits as in a safetensors file), widened
// to float32 while B is packed, never as a whole. C gets exactly the bits sgemm gives for the widened B,
// whatever the thread count. A linear layer's weight W (n,k) is B = W^T: rsb = 1, csb = k.
// b_finite: the caller knows a float16 B holds no inf or NaN (f16_all_finite, once per weight, not per call):
// the m = 1 product then skips looking for them (issue 23); the same bits either way for such a B. A B that
// does hold inf or NaN must pass false (the default), or those columns come out finite and wrong.
void sgemm_half(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const uint16_t* B,
                int64_t rsb, int64_t csb, Half kind, float* C, int64_t rsc, bool accumulate, bool b_finite = false);

// Whether none of h[0:n] (float16 bits) is inf or NaN: O(n), for sgemm_half's b_finite.
bool f16_all_finite(int64_t n, const uint16_t* h);

// The triple loop for sgemm_half, widening each element of B with the scalar half::to_f32.
void sgemm_half_ref(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa, const uint16_t* B,
                    int64_t rsb, int64_t csb, Half kind, float* C, int64_t rsc, bool accumulate);

namespace detail {

// One tile shape of the packed GEMM, with its cache blocking; sgemm is variants()[0] with its defaults.
// The other shapes stay for the tests (every tile's edges) and for tuning in tests/bench.
struct SgemmVariant {
  const char* name;  // e.g. "f32_gemm_6x8__wasmsimd" (or "__scalar" in native builds)
  int mr, nr;        // register tile: mr rows of A by nr columns of B
  void (*run)(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
              const float* B, int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate,
              int64_t kc, int64_t mc, int64_t nc);  // kc/mc/nc <= 0 means this variant's default
  // The micro-kernel alone, for the benchmark's floor: reps sweeps of one packed A strip over `strips`
  // packed B strips of depth kc (no packing; operands stay in L1/L2). Returns an element of C.
  float (*kernel_alone)(int64_t reps, int64_t kc, int64_t strips);
};
int sgemm_variant_count();
const SgemmVariant& sgemm_variant(int i);

}  // namespace detail
}  // namespace tp::kernels
