// LLM building blocks: attention, norms, activations, RoPE, rotations (Hadamard, random orthogonal), LoRA.
// Two layers: tp::kernels works on raw row-major pointers and sizes (asserts only); tp::nn / tp::linalg /
// tp::lora / tp::synth take Tensors, validate shapes and options, and throw tp::Error("op: ...").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensorpad/tensor.hpp"

namespace tp::kernels {

// ---- Attention ----------------------------------------------------------------------------------
// One head. Q is (sq,d), K is (sk,d), V is (sk,dv), O is (sq,dv); rows at strides rsq, rsk, rsv, rso.
// O = softmax(scale * Q Kᵀ + M) V with M(i,j) = mask[i*rsm + j*csm] (mask may be null) and, when
// causal, -inf for j > i. Fused (flash style): K/V are visited in tiles with a running row max and
// row sum, so memory is O(tile), never (sq,sk). A row with every key masked gives zeros (not NaN).
// When weights is non-null the (sq,sk) probabilities are wanted anyway: they are written there
// (row stride sk) and O = weights V.
// heads > 1: that many query heads share this K/V head (grouped-query or multi-query attention); head
// g's Q, O, mask and weights start g·hsq, g·hso, g·hsm, g·hsw elements after head 0's. The fused path
// then reads each K/V tile once for the whole group instead of once per head, so K/V memory traffic does
// not grow with the group (the flops are those of per-head calls).
// q0: with causal, query row i sits at position q0 + i and sees keys j <= q0 + i, so rows r0.. of a longer
// query can be computed alone (q, o, mask and weights advanced by r0 rows, q0 = r0). Started at a
// multiple of kAttentionTileRows, such a call runs the very tiles of the whole call: the same bits.
constexpr int64_t kAttentionTileRows = 64;
struct AttentionArgs {
  int64_t sq = 0, sk = 0, d = 0, dv = 0;
  const float* q = nullptr;
  int64_t rsq = 0;
  const float* k = nullptr;
  int64_t rsk = 0;
  const float* v = nullptr;
  int64_t rsv = 0;
  float* o = nullptr;
  int64_t rso = 0;
  float scale = 1.0f;
  bool causal = false;
  int64_t q0 = 0;
  const float* mask = nullptr;
  int64_t rsm = 0, csm = 0;
  float* weights = nullptr;
  int64_t heads = 1;
  int64_t hsq = 0, hso = 0, hsm = 0, hsw = 0;
};
void attention_f32(const AttentionArgs& a);
// softmax(scale QKᵀ + M) V row by row in double: the oracle of the fused kernel.
void attention_ref(const AttentionArgs& a);

// ---- Norms and activations (rows of length d, contiguous) -----------------------------------------
// x is (rows,d), y is (rows,d); weight and bias are (d) or null. Statistics in double.
void layer_norm_f32(int64_t rows, int64_t d, const float* x, const float* weight, const float* bias,
                    float eps, float* y);
void rms_norm_f32(int64_t rows, int64_t d, const float* x, const float* weight, float eps, float* y);
void relu_f32(int64_t n, const float* x, float* y);
void gelu_erf_f32(int64_t n, const float* x, float* y);   // 0.5 x (1 + erf(x/√2)), torch's default
void gelu_tanh_f32(int64_t n, const float* x, float* y);  // the tanh approximation (GPT-2)
void silu_f32(int64_t n, const float* x, float* y);       // x σ(x)

// ---- RoPE ------------------------------------------------------------------------------------------
// R is (dim,dim): block diagonal, block i = [[cos a, sin a], [-sin a, cos a]] with
// a = pos * theta^(-2i/dim), so that a row vector is rotated by x @ R. Angles in double.
void rope_matrix_f32(double pos, int64_t dim, double theta, float* R);
// x is (rows,dim), y is (rows,dim), pos has one position per row: y = x @ R(pos[row]) pairwise,
// y[2i] = x[2i] cos a - x[2i+1] sin a, y[2i+1] = x[2i] sin a + x[2i+1] cos a.
void apply_rope_f32(int64_t rows, int64_t dim, const float* x, const double* pos, double theta, float* y);

// ---- Rotations -------------------------------------------------------------------------------------
// H is (n,n), n a power of 2: Sylvester's H_2n = [[H, H], [H, -H]] divided by √n (so H Hᵀ = I).
void hadamard_f32(int64_t n, float* H);
// x is (rows,d), in place: every row becomes row @ blockdiag(H_block, ..., H_block), block a power of
// 2 dividing d. Butterflies, O(d log block) per row.
void fwht_f32(int64_t rows, int64_t d, int64_t block, float* x);
// The dense product with the block-Hadamard matrix, O(d·block) per row: the oracle of fwht_f32.
void fwht_ref(int64_t rows, int64_t d, int64_t block, float* x);
// G is (n,n) row-major; Q is (n,n): the Q factor of G = QR with diag(R) > 0, which is QR with the sign
// fix Q·sign(diag R). Modified Gram-Schmidt in double on the columns of G: the oracle that
// linalg.randomOrthogonal (Householder QR of linalg.hpp, then the sign fix) is tested against.
void orthonormalize_columns(int64_t n, const double* G, float* Q);

}  // namespace tp::kernels

namespace tp::nn {

struct AttentionOptions {
  bool causal = false;
  std::optional<Tensor> mask;   // additive, broadcastable to [..., Sq, Sk]
  std::optional<float> scale;   // default 1/sqrt(D)
  bool return_weights = false;
  // K/V with fewer heads than Q (dim -3, a divisor of Q's) serve groups of query heads, as torch's
  // enable_gqa: off, differing head counts are a broadcasting error that points here.
  bool enable_gqa = false;
};
struct AttentionResult {
  Tensor output;                  // [..., Sq, Dv]
  std::optional<Tensor> weights;  // [..., Sq, Sk] when asked
};
// Q is [..., Sq, D], K is [..., Sk, D], V is [..., Sk, Dv] (the same leading dims, or broadcastable);
// output [..., Sq, Dv]. causal masks key j for query i when j > i (top-left aligned, as torch's
// is_causal, also when Sq != Sk). A query that sees no key at all gets a zero row (torch gives NaN).
// Grouped-query attention (GQA; MQA when Hkv = 1) is automatic: Q [..., Hq, Sq, D] with K/V
// [..., Hkv, Sk, D], Hkv dividing Hq, gives query head h the KV head h / (Hq/Hkv), as torch's
// enable_gqa=True (repeat_interleave order). K/V are read in place, never repeated. Such shapes did not
// broadcast before, so no call that worked changes meaning.
AttentionResult scaled_dot_product_attention(const Tensor& q, const Tensor& k, const Tensor& v,
                                             const AttentionOptions& opts = {});

// X is [..., n, dModel], Wq is (dModel, heads*dh), Wk/Wv are (dModel, kvHeads*dh) (dh may differ for V),
// Wo is (heads*dhv, dOut). Q = X Wq is split along its last dim into `heads` blocks of dh, each head
// attends, the contexts are concatenated and projected: O = concat(C¹..Cʰ) Wo = Σ_r C^(r) Wo^(r).
// kv_heads < heads shares each K/V head among heads/kv_heads query heads (GQA); 0 means kv_heads = heads.
struct MultiHeadOptions {
  int64_t heads = 1;
  bool causal = false;
  int64_t kv_heads = 0;
};
Tensor multi_head_attention(const Tensor& x, const Tensor& wq, const Tensor& wk, const Tensor& wv,
                            const Tensor& wo, const MultiHeadOptions& opts);

// Over the last dim. weight/bias have shape [d]. eps defaults: 1e-5 (LayerNorm, as torch), 1e-6 (RMSNorm,
// as LLaMA/Qwen).
Tensor layer_norm(const Tensor& x, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                  float eps = 1e-5f);
Tensor rms_norm(const Tensor& x, const std::optional<Tensor>& weight, float eps = 1e-6f);
Tensor relu(const Tensor& x);
Tensor gelu(const Tensor& x, const std::string& approximate = "none");  // "none" (erf) or "tanh"
Tensor silu(const Tensor& x);

// (dim, dim) RoPE matrix for row vectors (x @ R); dim even.
Tensor rope_matrix(double pos, int64_t dim, double theta = 10000.0);
// x is [..., n, dim]; positions has n entries (position of each row along the second-to-last dim).
Tensor apply_rope(const Tensor& x, const std::vector<double>& positions, double theta = 10000.0);

}  // namespace tp::nn

namespace tp::linalg {
Tensor hadamard(int64_t n);                          // (n,n) normalised Sylvester Hadamard
Tensor fwht(const Tensor& x, int64_t block = 0);     // x [..., d] @ blockdiag(H_block...); block 0 = d
Tensor random_orthogonal(int64_t n, uint64_t seed);  // Q of QR(an (n,n) standard Gaussian), diag(R) > 0
Tensor block_diag(const std::vector<Tensor>& mats);  // 2-d blocks along the diagonal
}  // namespace tp::linalg

namespace tp::lora {
// Parameters a rank-r adapter adds to a (dOut, dIn) weight: r (dIn + dOut).
int64_t params(int64_t d_out, int64_t d_in, int64_t r);
// W is (dOut,dIn), A is (r,dIn), B is (dOut,r): W + (alpha/r) B A. alpha defaults to r (factor 1).
Tensor merge(const Tensor& w, const Tensor& a, const Tensor& b, std::optional<double> alpha = {},
             std::optional<int64_t> r = {});
}  // namespace tp::lora

namespace tp::synth {
// LLM-like activations, (tokens, dim), deterministic in seed. Not from a model: a stand-in with the
// property that matters for quantization, a few channels far larger than the rest.
//   x[t,c] = s_c z[t,c]            z standard normal, s_c = exp(0.3 g_c) (channels differ in scale)
//   for the k-th outlier channel c_k (k = 0..outliers-1, distinct, chosen by seed):
//   x[t,c_k] = σ_k m_k (1 + 0.1 z[t,c_k]),  m_k = outlier_scale / (1 + 0.5 k),  σ_k = ±1 fixed
// Outlier channels keep their sign and size across tokens, as the "massive activation" channels of
// real LLMs do.
struct ActivationOptions {
  int64_t tokens = 512;
  int64_t dim = 1024;
  int64_t outliers = 6;
  float outlier_scale = 50.0f;
  uint64_t seed = 0;
};
Tensor activations(const ActivationOptions& opts);
}  // namespace tp::synth
