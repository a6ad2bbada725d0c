// LLM blocks: the worked examples of the source documents, and each fused op against its composition of
// primitives (matmul, softmax, dense matrices).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "helpers.hpp"
#include "tensorpad/nn.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/quant.hpp"
#include "tensorpad/random.hpp"

using namespace tp;
using namespace tpt;

namespace {

Tensor mm(const Tensor& a, const Tensor& b) { return matmul(a, b); }
Tensor tr(const Tensor& a) { return transpose(a, -2, -1); }

// softmax(Q Kᵀ scale + M) V from the primitives of ops.hpp.
Tensor attention_from_primitives(const Tensor& q, const Tensor& k, const Tensor& v, float scale,
                                 const Tensor* mask, bool causal) {
  Tensor s = binary_scalar(BinaryOp::Mul, mm(q, tr(k)), scale);
  if (mask) s = binary(BinaryOp::Add, s, *mask);
  if (causal) {
    const int64_t sq = q.size(-2), sk = k.size(-2);
    std::vector<float> m(sq * sk);
    for (int64_t i = 0; i < sq; ++i)
      for (int64_t j = 0; j < sk; ++j) m[i * sk + j] = j > i ? -INFINITY : 0.0f;
    s = binary(BinaryOp::Add, s, T({sq, sk}, m));
  }
  return mm(softmax(s, -1), v);
}

// The kernel's arguments for G query heads (Q: [G, sq, d], contiguous) on one K/V head (K: [sk, d], V: [sk, dv]),
// writing [G, sq, dv] contiguous; no mask, output pointer left to the caller.
kernels::AttentionArgs grouped_args(const Tensor& Q, const Tensor& K, const Tensor& V, float scale, bool causal) {
  const int64_t G = Q.size(0), sq = Q.size(1), d = Q.size(2), sk = K.size(0), dv = V.size(1);
  kernels::AttentionArgs a;
  a.sq = sq, a.sk = sk, a.d = d, a.dv = dv;
  a.q = Q.data(), a.rsq = d, a.k = K.data(), a.rsk = d, a.v = V.data(), a.rsv = dv, a.rso = dv;
  a.scale = scale, a.causal = causal;
  a.heads = G, a.hsq = sq * d, a.hso = sq * dv;
  return a;
}

}  // namespace

TEST_CASE("attention mixes three value vectors 0.1/0.7/0.2 into (0.5, 1.9, 0.9)") {
  const Tensor V = T({3, 3}, {1, 0, 2, 0, 3, 1, 2, -1, 0});
  // Logits log(0.1), log(0.7), log(0.2): softmax returns exactly that reading distribution.
  const Tensor Q = T({1, 1}, {1});
  const Tensor K = T({3, 1}, {std::log(0.1f), std::log(0.7f), std::log(0.2f)});
  nn::AttentionOptions o;
  o.scale = 1.0f;
  o.return_weights = true;
  const nn::AttentionResult r = nn::scaled_dot_product_attention(Q, K, V, o);
  check_close(*r.weights, T({1, 3}, {0.1f, 0.7f, 0.2f}), 1e-6);
  check_close(r.output, T({1, 3}, {0.5f, 1.9f, 0.9f}), 1e-6);
  // The same distribution given as an additive mask on zero scores.
  nn::AttentionOptions om;
  om.mask = T({1, 3}, {std::log(0.1f), std::log(0.7f), std::log(0.2f)});
  const Tensor out = nn::scaled_dot_product_attention(Tensor::zeros({1, 4}), Tensor::zeros({3, 4}), V, om).output;
  check_close(out, T({1, 3}, {0.5f, 1.9f, 0.9f}), 1e-6);
}

TEST_CASE("causal attention weights have rows summing to 1 and zeros above the diagonal") {
  const Tensor Q = randn_t({6, 4}, 1), K = randn_t({6, 4}, 2), V = randn_t({6, 4}, 3);
  nn::AttentionOptions o;
  o.causal = true;
  o.return_weights = true;
  const nn::AttentionResult r = nn::scaled_dot_product_attention(Q, K, V, o);
  const float* w = r.weights->data();
  for (int i = 0; i < 6; ++i) {
    double sum = 0;
    for (int j = 0; j < 6; ++j) {
      if (j > i) CHECK(w[i * 6 + j] == 0.0f);
      CHECK(w[i * 6 + j] >= 0.0f);
      sum += w[i * 6 + j];
    }
    CHECK(sum == doctest::Approx(1.0).epsilon(1e-6));
  }
  CHECK(w[0] == 1.0f);  // the first token can only read itself
  // The fused path (no weights) gives the same output.
  o.return_weights = false;
  check_close(nn::scaled_dot_product_attention(Q, K, V, o).output, r.output, 1e-6, 1e-5);
}

TEST_CASE("fused attention equals softmax(QKᵀ/√d + M) V from primitives, unbatched and batched") {
  struct Case {
    Shape q, k, v;
    bool causal, use_mask;
  };
  // Sizes cross the 64-row tiles (130, 150) and leave ragged edges; batches broadcast K/V over heads.
  const Case cases[] = {
      {{5, 8}, {7, 8}, {7, 3}, false, false},          {{5, 8}, {7, 8}, {7, 3}, true, false},
      {{130, 16}, {150, 16}, {150, 12}, false, true},  {{130, 16}, {130, 16}, {130, 16}, true, true},
      {{2, 3, 65, 8}, {2, 3, 65, 8}, {2, 3, 65, 5}, true, false},
      {{2, 3, 9, 8}, {2, 1, 11, 8}, {2, 1, 11, 4}, false, true},
  };
  uint64_t seed = 10;
  for (const Case& c : cases) {
    CAPTURE(shape_str(c.q));
    CAPTURE(c.causal);
    const Tensor Q = randn_t(c.q, seed++), K = randn_t(c.k, seed++), V = randn_t(c.v, seed++);
    const int64_t sq = c.q[c.q.size() - 2], sk = c.k[c.k.size() - 2];
    const Tensor M = binary_scalar(BinaryOp::Mul, randn_t({sq, sk}, seed++), 0.5f);
    nn::AttentionOptions o;
    o.causal = c.causal;
    if (c.use_mask) o.mask = M;
    const float scale = float(1.0 / std::sqrt(double(c.q.back())));
    const Tensor ref = attention_from_primitives(Q, K, V, scale, c.use_mask ? &M : nullptr, c.causal);
    check_close(nn::scaled_dot_product_attention(Q, K, V, o).output, ref, 1e-5, 1e-4);
    o.return_weights = true;
    check_close(nn::scaled_dot_product_attention(Q, K, V, o).output, ref, 1e-5, 1e-4);
  }
}

TEST_CASE("fused attention matches the double-precision oracle on a long causal head") {
  const int64_t n = 300, d = 32;
  const Tensor Q = randn_t({n, d}, 41), K = randn_t({n, d}, 42), V = randn_t({n, d}, 43);
  Tensor out = Tensor::empty({n, d}), ref = Tensor::empty({n, d});
  kernels::AttentionArgs a;
  a.sq = a.sk = n, a.d = a.dv = d;
  a.q = Q.data(), a.k = K.data(), a.v = V.data(), a.rsq = a.rsk = a.rsv = a.rso = d;
  a.scale = 0.5f, a.causal = true;
  a.o = out.data();
  kernels::attention_f32(a);
  a.o = ref.data();
  kernels::attention_ref(a);
  check_close(out, ref, 1e-5, 1e-4);
}

TEST_CASE("fused attention matches the oracle at every tile edge (rows 1, 63, 64, 65, 129; keys 1, 64, 65, 127, 128, 129, 257)") {
  // Query tiles of 64 rows, key tiles of 128.
  uint64_t seed = 200;
  for (int64_t sq : {1, 63, 64, 65, 129})
    for (int64_t sk : {1, 64, 65, 127, 128, 129, 257})
      for (bool causal : {false, true}) {
        const int64_t d = 5, dv = 3;
        const Tensor Q = randn_t({sq, d}, seed++), K = randn_t({sk, d}, seed++), V = randn_t({sk, dv}, seed++);
        const Tensor M = randn_t({sq, sk}, seed++);
        Tensor out = Tensor::empty({sq, dv}), ref = Tensor::empty({sq, dv});
        kernels::AttentionArgs a;
        a.sq = sq, a.sk = sk, a.d = d, a.dv = dv;
        a.q = Q.data(), a.k = K.data(), a.v = V.data(), a.rsq = a.rsk = d, a.rsv = a.rso = dv;
        a.scale = 0.7f, a.causal = causal, a.mask = M.data(), a.rsm = sk, a.csm = 1;
        a.o = out.data();
        kernels::attention_f32(a);
        a.o = ref.data();
        kernels::attention_ref(a);
        CAPTURE(sq);
        CAPTURE(sk);
        CAPTURE(causal);
        check_close(out, ref, 1e-5, 1e-4);
      }
}

TEST_CASE("the fused kernel given a group of query heads matches the oracle head by head") {
  // Three query heads on one K/V head, each with its own mask rows; sizes straddle the 64-row tiles.
  uint64_t seed = 500;
  for (int64_t sq : {1, 65, 130})
    for (bool causal : {false, true}) {
      const int64_t G = 3, sk = 70, d = 6, dv = 5;
      const Tensor Q = randn_t({G, sq, d}, seed++), K = randn_t({sk, d}, seed++), V = randn_t({sk, dv}, seed++);
      const Tensor M = randn_t({G, sq, sk}, seed++);
      Tensor out = Tensor::empty({G, sq, dv}), ref = Tensor::empty({G, sq, dv});
      kernels::AttentionArgs a = grouped_args(Q, K, V, 0.4f, causal);
      a.mask = M.data(), a.rsm = sk, a.csm = 1, a.hsm = sq * sk;
      a.o = out.data();
      kernels::attention_f32(a);
      for (int64_t g = 0; g < G; ++g) {  // the oracle one head at a time, no grouping
        kernels::AttentionArgs h = a;
        h.heads = 1;
        h.q += g * a.hsq, h.mask += g * a.hsm, h.o = ref.data() + g * a.hso;
        kernels::attention_ref(h);
      }
      CAPTURE(sq);
      CAPTURE(causal);
      check_close(out, ref, 1e-5, 1e-4);
    }
}

TEST_CASE("attention without a mask (one softmax pass on raw scores) gives the bits of the same call with a zero mask") {
  // No mask and a positive scale: the row max is taken on the raw scores, then scale, shift, exp and sum
  // run in one pass; an additive mask (here all zeros, which changes no score) takes the scale-then-mask
  // path. Key counts with 4-lane tails, one and three key tiles; causal or not.
  uint64_t seed = 700;
  for (int64_t sk : {7, 130, 261})
    for (bool causal : {false, true}) {
      const int64_t G = 2, sq = causal ? sk : 70, d = 9, dv = 5;
      Tensor Q = randn_t({G, sq, d}, seed++);
      for (int64_t i = 0; i < Q.numel(); ++i) Q.data()[i] *= 3.0f;  // logits of a few units: exp's whole range
      const Tensor K = randn_t({sk, d}, seed++), V = randn_t({sk, dv}, seed++);
      const Tensor Z = Tensor::zeros({G, sq, sk});
      Tensor raw = Tensor::empty({G, sq, dv}), masked = Tensor::empty({G, sq, dv});
      kernels::AttentionArgs a = grouped_args(Q, K, V, 0.3f, causal);
      a.o = raw.data();
      kernels::attention_f32(a);
      a.mask = Z.data(), a.rsm = sk, a.csm = 1, a.hsm = sq * sk;
      a.o = masked.data();
      kernels::attention_f32(a);
      CAPTURE(sk);
      CAPTURE(causal);
      CHECK(std::memcmp(raw.data(), masked.data(), size_t(raw.numel()) * sizeof(float)) == 0);
    }
}

TEST_CASE("attention on blocks of query rows (q0) gives the bits of the whole call, causal or masked") {
  // The model forward splits attention over threads by such blocks; 200 rows: blocks of 64, 128 and 8.
  uint64_t seed = 900;
  for (bool causal : {false, true}) {
    const int64_t G = 2, sq = 200, sk = 200, d = 8, dv = 20;  // dv: three strips of packed V
    const Tensor Q = randn_t({G, sq, d}, seed++), K = randn_t({sk, d}, seed++), V = randn_t({sk, dv}, seed++);
    const Tensor M = randn_t({G, sq, sk}, seed++);
    Tensor whole = Tensor::empty({G, sq, dv}), blocks = Tensor::empty({G, sq, dv});
    kernels::AttentionArgs a = grouped_args(Q, K, V, 0.3f, causal);
    if (!causal) a.mask = M.data(), a.rsm = sk, a.csm = 1, a.hsm = sq * sk;
    a.o = whole.data();
    kernels::attention_f32(a);
    // Blocks at multiples of 64, as the model's; then, from row 70 on, blocks whose q0 falls inside key
    // tiles: in the block of rows 70..128 the causal run of rows 70..85 sees none of the key tile that
    // starts at 128 (its key is taken, masked). (A block that ends inside a tile, as rows 0..69 would, may
    // sum its last rows' probabilities in other lanes: nn.hpp promises the bits for multiples of 64.)
    for (const auto& split : {std::vector<std::pair<int64_t, int64_t>>{{0, 64}, {64, 128}, {192, 8}},
                              std::vector<std::pair<int64_t, int64_t>>{{70, 59}, {129, 3}, {132, 68}}}) {
      const int64_t from = split.front().first;
      for (const std::pair<int64_t, int64_t>& block : split) {
        const int64_t r0 = block.first;
        kernels::AttentionArgs b = a;
        b.sq = block.second, b.q0 = r0;
        b.q += r0 * a.rsq, b.o = blocks.data() + r0 * a.rso;
        if (b.mask) b.mask += r0 * a.rsm;
        kernels::attention_f32(b);
      }
      CAPTURE(causal);
      CAPTURE(from);
      for (int64_t g = 0; g < G; ++g)
        CHECK(std::memcmp(whole.data() + (g * sq + from) * dv, blocks.data() + (g * sq + from) * dv,
                          size_t((sq - from) * dv) * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("attention is stable for huge logits and gives zeros for a fully masked row") {
  const Tensor Q = binary_scalar(BinaryOp::Mul, randn_t({4, 8}, 5), 1000.0f), K = randn_t({4, 8}, 6);
  const Tensor V = randn_t({4, 2}, 7);
  nn::AttentionOptions o;
  const Tensor out = nn::scaled_dot_product_attention(Q, K, V, o).output;
  for (int64_t i = 0; i < out.numel(); ++i) CHECK(std::isfinite(out.data()[i]));
  std::vector<float> m(16, 0.0f);
  for (int j = 0; j < 4; ++j) m[4 + j] = -INFINITY;  // row 1 sees nothing
  o.mask = T({4, 4}, m);
  const Tensor masked = nn::scaled_dot_product_attention(Q, K, V, o).output;
  CHECK(masked.data()[2] == 0.0f);
  CHECK(masked.data()[3] == 0.0f);
  CHECK(std::isfinite(masked.data()[0]));
}

TEST_CASE("a NaN score makes its row NaN, as in torch, in the tiled path and with weights, wherever its key tile is") {
  // 130 keys: tiles of 64, 64 and 2. Row 0's scores are NaN through a NaN query; row 1 sees NaN keys
  // 0..63 only through the mask (a NaN mask row), row 2 a NaN mask entry in the last tile; row 3 is clean.
  const int64_t sk = 130;
  Tensor Q = randn_t({4, 8}, 11);
  Q.data()[0] = NAN;
  const Tensor K = randn_t({sk, 8}, 12), V = randn_t({sk, 3}, 13);
  std::vector<float> m(size_t(4 * sk), 0.0f);
  for (int64_t j = 0; j < 64; ++j) m[size_t(sk + j)] = NAN;
  m[size_t(2 * sk + 129)] = NAN;
  for (bool weights : {false, true}) {
    nn::AttentionOptions o;
    o.mask = T({4, sk}, m);
    o.return_weights = weights;
    const Tensor out = nn::scaled_dot_product_attention(Q, K, V, o).output;
    CAPTURE(weights);
    for (int64_t r = 0; r < 3; ++r)
      for (int64_t c = 0; c < 3; ++c) CHECK(std::isnan(out.data()[r * 3 + c]));
    for (int64_t c = 0; c < 3; ++c) CHECK(std::isfinite(out.data()[9 + c]));
  }
}

TEST_CASE("attention reports mismatched shapes by name") {
  CHECK_THROWS_WITH_AS(nn::scaled_dot_product_attention(Tensor::zeros({3, 4}), Tensor::zeros({5, 3}),
                                                        Tensor::zeros({5, 2})),
                       "nn.scaledDotProductAttention: Q [3, 4] and K [5, 3] differ in the last dim (4 != 3)",
                       Error);
  nn::AttentionOptions o;
  o.mask = Tensor::zeros({2, 2});
  CHECK_THROWS_AS(nn::scaled_dot_product_attention(Tensor::zeros({3, 4}), Tensor::zeros({5, 4}),
                                                   Tensor::zeros({5, 2}), o),
                  Error);
}

namespace {
// torch's repeat_interleave along the head dim (-3): each K/V head copied `g` times in a row, so query
// head h meets K/V head h / g. The explicit (materialised) reference for grouped-query attention.
Tensor repeat_heads(const Tensor& t, int64_t g) {
  const int64_t hd = t.dim() - 3;
  std::vector<Tensor> parts;
  for (int64_t j = 0; j < t.size(hd); ++j)
    for (int64_t r = 0; r < g; ++r) parts.push_back(narrow(t, hd, j, 1));
  return cat(parts, hd);
}
}  // namespace

TEST_CASE("grouped-query attention equals attention over K/V heads repeated in repeat_interleave order") {
  struct Case {
    Shape q, k, v;
    bool causal, use_mask;
  };
  // Hq/Hkv = 3, 2 and 8 (MQA through the grouped path needs Hkv = 1, which broadcasts: covered too);
  // 70 queries and 130 keys cross the 64-row tiles.
  const Case cases[] = {
      {{2, 6, 5, 8}, {2, 2, 7, 8}, {2, 2, 7, 4}, false, false},
      {{2, 6, 5, 8}, {2, 2, 7, 8}, {2, 2, 7, 4}, true, true},
      {{4, 70, 16}, {2, 130, 16}, {2, 130, 16}, true, false},
      {{3, 8, 9, 4}, {1, 1, 9, 4}, {1, 1, 9, 6}, false, true},
      {{8, 9, 4}, {1, 11, 4}, {1, 11, 4}, true, true},
  };
  uint64_t seed = 300;
  for (const Case& c : cases) {
    CAPTURE(shape_str(c.q));
    CAPTURE(shape_str(c.k));
    CAPTURE(c.causal);
    const Tensor Q = randn_t(c.q, seed++), K = randn_t(c.k, seed++), V = randn_t(c.v, seed++);
    const int64_t hq = c.q[c.q.size() - 3], hkv = c.k[c.k.size() - 3];
    const int64_t sq = c.q[c.q.size() - 2], sk = c.k[c.k.size() - 2];
    // A mask per query head: it must be read with the query head's index, not the K/V head's.
    const Tensor M = binary_scalar(BinaryOp::Mul, randn_t({hq, sq, sk}, seed++), 0.5f);
    nn::AttentionOptions o;
    o.causal = c.causal;
    o.enable_gqa = true;
    if (c.use_mask) o.mask = M;
    const Tensor Kr = repeat_heads(K, hq / hkv), Vr = repeat_heads(V, hq / hkv);
    const float scale = float(1.0 / std::sqrt(double(c.q.back())));
    const Tensor ref = attention_from_primitives(Q, Kr, Vr, scale, c.use_mask ? &M : nullptr, c.causal);
    check_close(nn::scaled_dot_product_attention(Q, K, V, o).output, ref, 1e-5, 1e-4);
    o.return_weights = true;
    const nn::AttentionResult r = nn::scaled_dot_product_attention(Q, K, V, o);
    check_close(r.output, ref, 1e-5, 1e-4);
    check_close(*r.weights, nn::scaled_dot_product_attention(Q, Kr, Vr, o).weights.value(), 1e-6, 1e-5);
  }
}

TEST_CASE("grouped-query attention reads K/V views in place (transposed heads, broadcast batch)") {
  // K/V as [n, Hkv, d] transposed to [Hkv, n, d], as a fused QKV projection leaves them, and a batch
  // dim of 1 that broadcasts against Q's batch of 2.
  const Tensor Q = randn_t({2, 4, 6, 8}, 400);
  const Tensor K = transpose(randn_t({1, 6, 2, 8}, 401), 1, 2), V = transpose(randn_t({1, 6, 2, 5}, 402), 1, 2);
  REQUIRE(!K.is_contiguous());
  nn::AttentionOptions o;
  o.causal = true;
  const Tensor ref = nn::scaled_dot_product_attention(Q, repeat_heads(K.contiguous(), 2),
                                                      repeat_heads(V.contiguous(), 2), o).output;
  o.enable_gqa = true;
  check_close(nn::scaled_dot_product_attention(Q, K, V, o).output, ref, 1e-6, 1e-5);
}

TEST_CASE("grouped-query attention is asked for, like torch's enable_gqa, and names head counts that do not divide") {
  // Without enable_gqa, differing head counts are a broadcasting error that says how to ask for GQA.
  CHECK_THROWS_WITH_AS(nn::scaled_dot_product_attention(Tensor::zeros({6, 3, 4}), Tensor::zeros({2, 5, 4}),
                                                        Tensor::zeros({2, 5, 2})),
                       "nn.scaledDotProductAttention: dim -3 of Q [6, 3, 4] and of key/value [2, 5, 4] (6 vs 2) do "
                       "not broadcast; if they are attention heads, pass enableGqa: true for grouped-query attention",
                       Error);
  nn::AttentionOptions g;
  g.enable_gqa = true;
  CHECK(nn::scaled_dot_product_attention(Tensor::zeros({6, 3, 4}), Tensor::zeros({2, 5, 4}), Tensor::zeros({2, 5, 2}), g)
            .output.shape() == Shape{6, 3, 2});
  CHECK_THROWS_WITH_AS(nn::scaled_dot_product_attention(Tensor::zeros({6, 3, 4}), Tensor::zeros({4, 5, 4}),
                                                        Tensor::zeros({4, 5, 2}), g),
                       "nn.scaledDotProductAttention: query heads 6 not divisible by key/value heads 4 "
                       "(Q [6, 3, 4], key/value [4, 5, 4])",
                       Error);
  CHECK_THROWS_WITH_AS(nn::scaled_dot_product_attention(Tensor::zeros({2, 6, 3, 4}), Tensor::zeros({2, 3, 5, 4}),
                                                        Tensor::zeros({2, 4, 5, 2}), g),
                       "nn.scaledDotProductAttention: query heads 6 not divisible by value heads 4 "
                       "(Q [2, 6, 3, 4], value [2, 4, 5, 2])",
                       Error);
  // More K/V heads than query heads is not grouping.
  CHECK_THROWS_WITH_AS(nn::scaled_dot_product_attention(Tensor::zeros({2, 3, 4}), Tensor::zeros({4, 5, 4}),
                                                        Tensor::zeros({4, 5, 2}), g),
                       "nn.scaledDotProductAttention: query heads 2 not divisible by key/value heads 4 "
                       "(Q [2, 3, 4], key/value [4, 5, 4])",
                       Error);
  // A mask sized for the K/V heads does not fit the scores [Hq, Sq, Sk].
  g.mask = Tensor::zeros({2, 3, 5});
  CHECK_THROWS_AS(nn::scaled_dot_product_attention(Tensor::zeros({6, 3, 4}), Tensor::zeros({2, 5, 4}),
                                                   Tensor::zeros({2, 5, 2}), g),
                  Error);
}

TEST_CASE("multi-head attention equals the sum over heads of C^(r) W_O^(r)") {
  const int64_t n = 7, dm = 12, h = 3, dh = dm / h;
  const Tensor X = randn_t({n, dm}, 20), Wq = randn_t({dm, dm}, 21), Wk = randn_t({dm, dm}, 22);
  const Tensor Wv = randn_t({dm, dm}, 23), Wo = randn_t({dm, dm}, 24);
  nn::MultiHeadOptions o;
  o.heads = h;
  o.causal = true;
  const Tensor out = nn::multi_head_attention(X, Wq, Wk, Wv, Wo, o);
  Tensor sum = Tensor::zeros({n, dm});
  for (int64_t r = 0; r < h; ++r) {
    auto cols = [&](const Tensor& W) { return narrow(W, 1, r * dh, dh); };
    const Tensor Qr = mm(X, cols(Wq)), Kr = mm(X, cols(Wk)), Vr = mm(X, cols(Wv));
    const Tensor Cr = attention_from_primitives(Qr, Kr, Vr, float(1.0 / std::sqrt(double(dh))), nullptr, true);
    sum = binary(BinaryOp::Add, sum, mm(Cr, narrow(Wo, 0, r * dh, dh)));
  }
  check_close(out, sum, 1e-4, 1e-4);
  // Batched input: each batch element is its own sequence.
  const Tensor Xb = stack({X, binary_scalar(BinaryOp::Mul, X, -0.5f)}, 0);
  const Tensor outb = nn::multi_head_attention(Xb, Wq, Wk, Wv, Wo, o);
  check_close(select(outb, 0, 0), out, 1e-5, 1e-5);
  CHECK_THROWS_AS(nn::multi_head_attention(X, Wq, Wk, Wv, Wo, nn::MultiHeadOptions{5, false}), Error);
}

TEST_CASE("multi-head attention with kvHeads shares K/V head h / (heads/kvHeads) among query heads") {
  const int64_t n = 6, dm = 16, h = 4, dh = 4, dhv = 3;
  for (int64_t kv : {1, 2}) {
    CAPTURE(kv);
    const Tensor X = randn_t({n, dm}, 30), Wq = randn_t({dm, h * dh}, 31);
    const Tensor Wk = randn_t({dm, kv * dh}, 32), Wv = randn_t({dm, kv * dhv}, 33), Wo = randn_t({h * dhv, 5}, 34);
    nn::MultiHeadOptions o{h, true, kv};
    const Tensor out = nn::multi_head_attention(X, Wq, Wk, Wv, Wo, o);
    Tensor sum = Tensor::zeros({n, 5});
    for (int64_t r = 0; r < h; ++r) {
      const int64_t g = r / (h / kv);  // the K/V head this query head reads
      const Tensor Qr = mm(X, narrow(Wq, 1, r * dh, dh)), Kg = mm(X, narrow(Wk, 1, g * dh, dh));
      const Tensor Vg = mm(X, narrow(Wv, 1, g * dhv, dhv));
      const Tensor Cr = attention_from_primitives(Qr, Kg, Vg, float(1.0 / std::sqrt(double(dh))), nullptr, true);
      sum = binary(BinaryOp::Add, sum, mm(Cr, narrow(Wo, 0, r * dhv, dhv)));
    }
    check_close(out, sum, 1e-4, 1e-4);
  }
  const Tensor X = randn_t({n, dm}, 35);
  CHECK_THROWS_WITH_AS(nn::multi_head_attention(X, randn_t({dm, 12}, 1), randn_t({dm, 8}, 2), randn_t({dm, 8}, 3),
                                                randn_t({12, 4}, 4), nn::MultiHeadOptions{6, false, 4}),
                       "nn.multiHeadAttention: heads 6 not divisible by kvHeads 4", Error);
  CHECK_THROWS_WITH_AS(nn::multi_head_attention(X, randn_t({dm, 16}, 1), randn_t({dm, 16}, 2), randn_t({dm, 8}, 3),
                                                randn_t({16, 4}, 4), nn::MultiHeadOptions{4, false, 2}),
                       "nn.multiHeadAttention: Wk [16, 16] must have kvHeads*dh = 2*4 = 8 columns "
                       "(dh from Wq [16, 16] and heads 4)",
                       Error);
  CHECK_THROWS_WITH_AS(nn::multi_head_attention(X, randn_t({dm, 16}, 1), randn_t({dm, 8}, 2), randn_t({dm, 8}, 3),
                                                randn_t({8, 4}, 4), nn::MultiHeadOptions{4, false, 2}),
                       "nn.multiHeadAttention: Wo [8, 4] must have 16 rows (the concatenated heads)", Error);
}

TEST_CASE("RMSNorm of (3, 4, 0) is (3√3/5, 4√3/5, 0) and ignores the overall scale") {
  const Tensor h = T({3}, {3, 4, 0});
  const float r3 = std::sqrt(3.0f);
  check_close(nn::rms_norm(h, std::nullopt, 0.0f), T({3}, {3 * r3 / 5, 4 * r3 / 5, 0}), 1e-6);
  check_close(nn::rms_norm(T({3}, {30, 40, 0}), std::nullopt, 0.0f), nn::rms_norm(h, std::nullopt, 0.0f), 1e-7);
  // Its output has RMS 1, and the weight scales feature by feature.
  const Tensor y = nn::rms_norm(h, T({3}, {2, 1, 5}), 0.0f);
  check_close(y, T({3}, {6 * r3 / 5, 4 * r3 / 5, 0}), 1e-6);
  CHECK_THROWS_AS(nn::rms_norm(h, T({2}, {1, 1})), Error);
}

TEST_CASE("LayerNorm gives each row zero mean and unit variance, then the affine map") {
  const Tensor x = binary_scalar(BinaryOp::Add, binary_scalar(BinaryOp::Mul, randn_t({4, 64}, 30), 7.0f), 3.0f);
  const Tensor y = nn::layer_norm(x, std::nullopt, std::nullopt, 0.0f);
  for (int r = 0; r < 4; ++r) {
    double mean = 0, var = 0;
    for (int j = 0; j < 64; ++j) mean += y.data()[r * 64 + j];
    mean /= 64;
    for (int j = 0; j < 64; ++j) var += (y.data()[r * 64 + j] - mean) * (y.data()[r * 64 + j] - mean);
    var /= 64;
    CHECK(std::fabs(mean) < 1e-6);
    CHECK(var == doctest::Approx(1.0).epsilon(1e-5));
  }
  // Then γ ⊙ ĥ + β, the same γ and β for every row. With the source's γ = (2, 0.5, 1), β = (0.1, 0, -0.2):
  // (a, -a, 0) normalises to ĥ = (√1.5, -√1.5, 0), so the output is (2√1.5 + 0.1, -0.5√1.5, -0.2).
  const float r = std::sqrt(1.5f);
  check_close(nn::layer_norm(T({3}, {4, -4, 0}), std::nullopt, std::nullopt, 0.0f), T({3}, {r, -r, 0}), 1e-6);
  const Tensor out = nn::layer_norm(T({3}, {4, -4, 0}), T({3}, {2, 0.5f, 1}), T({3}, {0.1f, 0, -0.2f}), 0.0f);
  check_close(out, T({3}, {2 * r + 0.1f, -0.5f * r, -0.2f}), 1e-6);
}

TEST_CASE("relu, gelu (erf and tanh) and silu match their formulas") {
  const Tensor x = T({5}, {-3, -1, 0, 0.5f, 2});
  check_close(nn::relu(x), T({5}, {0, 0, 0, 0.5f, 2}), 0);
  // torch.nn.functional.gelu (erf) and approximate='tanh', silu: values from their closed forms.
  check_close(nn::gelu(x), T({5}, {-0.0040496f, -0.1586553f, 0, 0.3457312f, 1.9544997f}), 1e-6);
  check_close(nn::gelu(x, "tanh"), T({5}, {-0.0036374f, -0.1588080f, 0, 0.3457140f, 1.9545977f}), 1e-6);
  check_close(nn::silu(x), T({5}, {-0.1422776f, -0.2689414f, 0, 0.3112297f, 1.7615942f}), 1e-6);
  CHECK_THROWS_AS(nn::gelu(x, "fast"), Error);
}

TEST_CASE("RoPE: R_3 is orthogonal and R_3ᵀ R_7 = R_4 for dim 8; applyRope equals x @ R") {
  const Tensor R3 = nn::rope_matrix(3, 8), R7 = nn::rope_matrix(7, 8), R4 = nn::rope_matrix(4, 8);
  check_close(mm(R3, tr(R3)), eye(8), 1e-6);
  check_close(mm(tr(R3), R7), R4, 1e-5);
  // The first block rotates by the angle pos itself: R_3[0:2,0:2] = [[cos 3, sin 3], [-sin 3, cos 3]].
  CHECK(R3.data()[0] == doctest::Approx(std::cos(3.0)));
  CHECK(R3.data()[1] == doctest::Approx(std::sin(3.0)));
  CHECK(R3.data()[8] == doctest::Approx(-std::sin(3.0)));
  // Pairwise form: row i of x rotated by R_{pos_i}.
  const Tensor x = randn_t({2, 4, 8}, 50);
  const std::vector<double> pos = {0, 3, 7, 11};
  const Tensor y = nn::apply_rope(x, pos);
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 4; ++i) {
      const Tensor row = narrow(select(x, 0, b), 0, i, 1);
      check_close(narrow(select(y, 0, b), 0, i, 1), mm(row, nn::rope_matrix(pos[i], 8)), 1e-5);
    }
  // Scores depend on relative position only: (q R_m)·(k R_n) = q R_{m-n} kᵀ.
  const Tensor q = randn_t({1, 8}, 51), k = randn_t({1, 8}, 52);
  const float lhs = mm(mm(q, R7), tr(mm(k, R3))).item();
  const float rhs = mm(mm(q, nn::rope_matrix(4, 8)), tr(k)).item();
  CHECK(lhs == doctest::Approx(rhs).epsilon(1e-5));
  CHECK_THROWS_WITH_AS(nn::rope_matrix(1, 7), "nn.ropeMatrix: dim must be even and positive (pairs of coordinates rotate), got 7", Error);
  CHECK_THROWS_AS(nn::apply_rope(x, {1, 2}), Error);
}

TEST_CASE("hadamard(n) is Sylvester's, orthogonal, and refuses n not a power of 2") {
  const Tensor H2 = linalg::hadamard(2);
  const float s = float(1 / std::sqrt(2.0));
  check_close(H2, T({2, 2}, {s, s, s, -s}), 1e-7);
  const Tensor H = linalg::hadamard(64);
  check_close(mm(H, tr(H)), eye(64), 1e-5);
  // H_4 = [[H_2, H_2], [H_2, -H_2]] / √2
  const Tensor H4 = linalg::hadamard(4);
  CHECK(H4.data()[2 * 4 + 2] == doctest::Approx(-0.5));
  CHECK(H4.data()[1 * 4 + 2] == doctest::Approx(0.5));
  CHECK(H4.data()[1 * 4 + 3] == doctest::Approx(-0.5));
  CHECK_THROWS_WITH_AS(linalg::hadamard(12), "linalg.hadamard: n must be a power of 2 (Sylvester's construction doubles the size), got 12", Error);
}

TEST_CASE("fwht equals multiplication by the (block-)Hadamard matrix") {
  for (int64_t d : {1, 2, 8, 64, 256}) {
    const Tensor x = randn_t({3, d}, 60 + d);
    check_close(linalg::fwht(x), mm(x, linalg::hadamard(d)), 1e-5, 1e-5);
  }
  const Tensor x = randn_t({2, 5, 256}, 70);
  std::vector<Tensor> blocks(8, linalg::hadamard(32));
  check_close(linalg::fwht(x, 32), mm(x, linalg::block_diag(blocks)), 1e-5, 1e-5);
  Tensor r = randn_t({4, 128}, 71);
  Tensor f = r.clone();
  kernels::fwht_f32(4, 128, 16, f.data());
  kernels::fwht_ref(4, 128, 16, r.data());
  check_close(f, r, 1e-5, 1e-5);
  CHECK_THROWS_AS(linalg::fwht(x, 24), Error);
  CHECK_THROWS_AS(linalg::fwht(randn_t({2, 12}, 1)), Error);
  CHECK_THROWS_AS(linalg::fwht(x, 512), Error);
}

TEST_CASE("randomOrthogonal is orthogonal, seeded, and preserves X Wᵀ = (XQ)(WQ)ᵀ") {
  const Tensor Q = linalg::random_orthogonal(48, 3);
  check_close(mm(tr(Q), Q), eye(48), 1e-5);
  check_close(linalg::random_orthogonal(48, 3), Q, 0);
  // Sign-fixed QR is unique: Householder (with the fix) and Gram-Schmidt give the same Q.
  {
    Rng rng(3);
    std::vector<float> g(48 * 48);
    rng.fill_normal(g.data(), 48 * 48);
    std::vector<double> gd(g.begin(), g.end());
    Tensor mgs = Tensor::empty({48, 48});
    kernels::orthonormalize_columns(48, gd.data(), mgs.data());
    check_close(Q, mgs, 1e-5);
  }
  CHECK(linalg::random_orthogonal(48, 4).data()[0] != Q.data()[0]);
  const Tensor X = randn_t({10, 48}, 80), W = randn_t({20, 48}, 81);
  check_close(mm(mm(X, Q), tr(mm(W, Q))), mm(X, tr(W)), 1e-4, 1e-4);
  const Tensor X2 = randn_t({10, 16}, 82), W2 = randn_t({20, 16}, 83);
  check_close(mm(linalg::fwht(X2), tr(linalg::fwht(W2))), mm(X2, tr(W2)), 1e-4, 1e-4);
}

TEST_CASE("blockDiag places blocks along the diagonal; as torch, a 0-d block is 1x1 and a 1-d block one row") {
  const Tensor B = linalg::block_diag({T({1, 2}, {1, 2}), T({2, 1}, {3, 4})});
  check_close(B, T({3, 3}, {1, 2, 0, 0, 0, 3, 0, 0, 4}), 0);
  // torch.block_diag(tensor(5.), tensor([1., 2.]), tensor([[3.], [4.]])) is 4 x 4:
  const Tensor M = linalg::block_diag({Tensor::scalar(5.f), T({2}, {1, 2}), T({2, 1}, {3, 4})});
  check_close(M, T({4, 4}, {5, 0, 0, 0, /**/ 0, 1, 2, 0, /**/ 0, 0, 0, 3, /**/ 0, 0, 0, 4}), 0);
  CHECK_THROWS_AS(linalg::block_diag({Tensor::zeros({2, 2, 2})}), Error);
}

TEST_CASE("fwht of a tensor with an empty last dim is empty, not a block-size error") {
  const Tensor y = linalg::fwht(Tensor::zeros({3, 0}), 0);
  CHECK(y.shape() == Shape{3, 0});
}

TEST_CASE("LoRA adds r(dIn + dOut) parameters: 131072, 294912 at rank 16 and 65536 at rank 8") {
  CHECK(lora::params(4096, 4096, 16) == 131072);
  CHECK(lora::params(14336, 4096, 16) == 294912);
  CHECK(lora::params(4096, 4096, 8) == 65536);
  CHECK_THROWS_AS(lora::params(0, 4, 1), Error);
}

TEST_CASE("lora.merge is W + (alpha/r) B A and has rank-r update") {
  const Tensor W = randn_t({6, 5}, 90), A = randn_t({2, 5}, 91), B = randn_t({6, 2}, 92);
  const Tensor merged = lora::merge(W, A, B, 16.0, 2);
  check_close(merged, binary(BinaryOp::Add, W, binary_scalar(BinaryOp::Mul, mm(B, A), 8.0f)), 1e-5, 1e-5);
  check_close(lora::merge(W, A, B), binary(BinaryOp::Add, W, mm(B, A)), 1e-5, 1e-5);
  CHECK_THROWS_AS(lora::merge(W, B, A), Error);
}

TEST_CASE("rotating synthetic outlier activations cuts max/median >= 3x and W8A8 error >= 2x") {
  const Tensor X = synth::activations({512, 1024, 6, 50.0f, 0});
  const Tensor W = binary_scalar(BinaryOp::Mul, randn_t({768, 1024}, 100), 1.0f / 32);
  const Tensor Y = mm(X, tr(W));
  auto peak = [](const Tensor& x) {
    std::vector<float> a(x.data(), x.data() + x.numel());
    for (float& v : a) v = std::fabs(v);
    std::nth_element(a.begin(), a.begin() + a.size() / 2, a.end());
    const float med = a[a.size() / 2];
    return *std::max_element(a.begin(), a.end()) / med;
  };
  auto w8a8 = [&](const Tensor& xq, const Tensor& wq) {
    return quant::rel_error(mm(quant::fake_quant(xq, 8, false), tr(quant::fake_quant(wq, 8, true))), Y);
  };
  const double peak0 = peak(X), err0 = w8a8(X, W);
  MESSAGE("no rotation: max/median " << peak0 << ", W8A8 " << err0);
  CHECK(peak0 > 30);
  // Block Hadamard (1024 = 8 x 128) through the fast transform, and a random orthogonal Q.
  const Tensor Xh = linalg::fwht(X, 128), Wh = linalg::fwht(W, 128);
  const Tensor Q = linalg::random_orthogonal(1024, 0);
  const Tensor Xq = mm(X, Q), Wq = mm(W, Q);
  check_close(mm(Xh, tr(Wh)), Y, 2e-3, 1e-3);
  for (auto [name, xr, wr] : {std::tuple{std::string("block Hadamard"), Xh, Wh}, std::tuple{std::string("random orthogonal"), Xq, Wq}}) {
    const double p = peak(xr), e = w8a8(xr, wr);
    MESSAGE(name << ": max/median " << p << ", W8A8 " << e);
    CHECK(peak0 / p >= 3.0);
    CHECK(err0 / e >= 2.0);
  }
}

TEST_CASE("synth.activations is deterministic in its seed and validates its options") {
  const Tensor a = synth::activations({16, 64, 2, 20.0f, 5}), b = synth::activations({16, 64, 2, 20.0f, 5});
  check_close(a, b, 0);
  CHECK_THROWS_AS(synth::activations({16, 64, 65, 20.0f, 5}), Error);
}

// ---- against numpy (tests/fixtures/nn/make_nn_fixtures.py) -------------------------------------------
namespace {
const nlohmann::json& fixtures() {
  static const nlohmann::json j = [] {
    std::ifstream in(std::string(TP_FIXTURES_DIR) + "/nn/nn_fixtures.json");
    REQUIRE_MESSAGE(in.good(), "missing tests/fixtures/nn/nn_fixtures.json (run make_nn_fixtures.py)");
    return nlohmann::json::parse(in);
  }();
  return j;
}
Tensor fx(const nlohmann::json& e) {
  const Shape shape = e["shape"].get<Shape>();
  const std::vector<double> d = e["data"].get<std::vector<double>>();
  std::vector<float> f(d.begin(), d.end());
  return Tensor::from(shape, f.data());
}
}  // namespace

TEST_CASE("attention and multi-head attention match numpy") {
  const auto& a = fixtures()["attention"];
  const Tensor q = fx(a["q"]), k = fx(a["k"]), v = fx(a["v"]);
  nn::AttentionOptions o;
  o.mask = fx(a["mask"]);
  check_close(nn::scaled_dot_product_attention(q, k, v, o).output, fx(a["out"]), 1e-5, 1e-4);
  nn::AttentionOptions c;
  c.causal = true;
  check_close(nn::scaled_dot_product_attention(q, k, v, c).output, fx(a["out_causal"]), 1e-5, 1e-4);
  nn::AttentionOptions s;
  s.scale = 0.5f;
  check_close(nn::scaled_dot_product_attention(q, k, v, s).output, fx(a["out_scale_half"]), 1e-5, 1e-4);
  const auto& m = fixtures()["mha"];
  nn::MultiHeadOptions mo;
  mo.heads = m["heads"].get<int64_t>();
  mo.causal = true;
  check_close(nn::multi_head_attention(fx(m["x"]), fx(m["wq"]), fx(m["wk"]), fx(m["wv"]), fx(m["wo"]), mo),
              fx(m["out"]), 1e-5, 1e-4);
}

TEST_CASE("grouped-query and multi-query attention match numpy's repeat_interleave reference") {
  const auto& g = fixtures()["gqa"];
  const Tensor q = fx(g["q"]), k = fx(g["k"]), v = fx(g["v"]);  // 6 query heads, 2 K/V heads
  nn::AttentionOptions plain;
  plain.enable_gqa = true;
  check_close(nn::scaled_dot_product_attention(q, k, v, plain).output, fx(g["out"]), 1e-5, 1e-4);
  nn::AttentionOptions m;
  m.enable_gqa = true;
  m.mask = fx(g["mask"]);
  m.return_weights = true;
  const nn::AttentionResult rm = nn::scaled_dot_product_attention(q, k, v, m);
  check_close(rm.output, fx(g["out_mask"]), 1e-5, 1e-4);
  check_close(*rm.weights, fx(g["weights_mask"]), 1e-6, 1e-4);
  nn::AttentionOptions c;
  c.causal = true;
  c.enable_gqa = true;
  check_close(nn::scaled_dot_product_attention(q, k, v, c).output, fx(g["out_causal"]), 1e-5, 1e-4);
  c.return_weights = true;
  const nn::AttentionResult rc = nn::scaled_dot_product_attention(q, k, v, c);
  check_close(rc.output, fx(g["out_causal"]), 1e-5, 1e-4);
  check_close(*rc.weights, fx(g["weights_causal"]), 1e-6, 1e-4);
  const auto& mq = fixtures()["mqa"];
  nn::AttentionOptions mc;
  mc.causal = true;
  check_close(nn::scaled_dot_product_attention(fx(mq["q"]), fx(mq["k"]), fx(mq["v"]), mc).output,
              fx(mq["out_causal"]), 1e-5, 1e-4);
  const auto& mh = fixtures()["mha_gqa"];
  nn::MultiHeadOptions mo;
  mo.heads = mh["heads"].get<int64_t>();
  mo.kv_heads = mh["kv_heads"].get<int64_t>();
  mo.causal = true;
  check_close(nn::multi_head_attention(fx(mh["x"]), fx(mh["wq"]), fx(mh["wk"]), fx(mh["wv"]), fx(mh["wo"]), mo),
              fx(mh["out"]), 1e-5, 1e-4);
}

TEST_CASE("norms, activations, RoPE, Hadamard and LoRA match numpy") {
  const auto& n = fixtures()["norms"];
  check_close(nn::layer_norm(fx(n["x"]), fx(n["weight"]), fx(n["bias"])), fx(n["layer_norm"]), 1e-5, 1e-5);
  check_close(nn::rms_norm(fx(n["x"]), fx(n["weight"])), fx(n["rms_norm"]), 1e-5, 1e-5);
  const auto& a = fixtures()["activations"];
  check_close(nn::gelu(fx(a["x"])), fx(a["gelu"]), 1e-6, 1e-6);
  check_close(nn::gelu(fx(a["x"]), "tanh"), fx(a["gelu_tanh"]), 1e-6, 1e-6);
  check_close(nn::silu(fx(a["x"])), fx(a["silu"]), 1e-6, 1e-6);
  const auto& r = fixtures()["rope"];
  check_close(nn::apply_rope(fx(r["x"]), r["positions"].get<std::vector<double>>()), fx(r["out"]), 1e-5, 1e-5);
  check_close(nn::rope_matrix(3, 8), fx(r["R3"]), 1e-6);
  const auto& h = fixtures()["hadamard"];
  check_close(linalg::hadamard(8), fx(h["H8"]), 1e-7);
  check_close(linalg::fwht(fx(h["x"])), fx(h["fwht"]), 1e-5, 1e-5);
  check_close(linalg::fwht(fx(h["x"]), 8), fx(h["fwht_block8"]), 1e-5, 1e-5);
  const auto& l = fixtures()["lora"];
  check_close(lora::merge(fx(l["w"]), fx(l["a"]), fx(l["b"]), l["alpha"].get<double>(), l["r"].get<int64_t>()),
              fx(l["merged"]), 1e-5, 1e-5);
}

TEST_CASE("fakeQuant matches numpy's float32 round-half-even bit for bit") {
  const auto& q = fixtures()["quant"];
  check_close(quant::fake_quant(fx(q["x"]), 8, false), fx(q["w8_tensor"]), 0);
  check_close(quant::fake_quant(fx(q["x"]), 4, true), fx(q["w4_row"]), 0);
}
