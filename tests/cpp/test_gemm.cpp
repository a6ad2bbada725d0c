// The packed GEMM (every tile shape) against the plain reference: every edge of the register tile,
// primes, empty sizes, transposed and strided operands, accumulation, several cache blocks; then
// against numpy fixtures, the matrix-vector paths, and the split over threads.
// Inputs are multiples of 1/4 in [-2, 2] unless stated: every product and partial sum is then exact
// in float, so the fast kernel must equal the reference bit for bit whatever its summation order.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../../cpp/src/gemm_packed.hpp"
#include "tensorpad/gemm.hpp"

namespace {

using tp::kernels::sgemm;
using tp::kernels::sgemm_ref;
namespace detail = tp::kernels::detail;

std::vector<float> quarters(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> q(-8, 8);
  std::vector<float> v(count);
  for (float& x : v) x = float(q(rng)) * 0.25f;
  return v;
}

std::vector<float> uniform(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float& x : v) x = u(rng);
  return v;
}

// One product in a given layout: A (m,k) and B (k,n) stored row-major, column-major (transposed)
// or with gaps between rows and columns; C has `pad` spare columns that must stay untouched.
struct Layout {
  bool trans_a = false, trans_b = false;
  int64_t gap = 0;  // extra stride: rows and columns are spaced by (1 + gap) or (extent + gap)
  int64_t pad = 0;  // C row stride is n + pad
};

using GemmFn = void (*)(int64_t, int64_t, int64_t, const float*, int64_t, int64_t, const float*,
                        int64_t, int64_t, float*, int64_t, bool);

struct Case {
  int64_t m, n, k;
  Layout layout;
  bool accumulate = false;
  std::vector<float> a, b, c_fast, c_ref;
  int64_t rsa, csa, rsb, csb, rsc;

  Case(int64_t m_, int64_t n_, int64_t k_, Layout l, bool acc, uint32_t seed, bool exact = true)
      : m(m_), n(n_), k(k_), layout(l), accumulate(acc) {
    // Strides: the inner one is 1 + gap; the outer one covers the inner extent plus a gap.
    const int64_t in = 1 + l.gap;
    if (!l.trans_a) { csa = in; rsa = k * in + l.gap; } else { rsa = in; csa = m * in + l.gap; }
    if (!l.trans_b) { csb = in; rsb = n * in + l.gap; } else { rsb = in; csb = k * in + l.gap; }
    rsc = n + l.pad;
    const size_t a_size = size_t(std::max<int64_t>(1, (m - 1) * rsa + (k - 1) * csa + 1));
    const size_t b_size = size_t(std::max<int64_t>(1, (k - 1) * rsb + (n - 1) * csb + 1));
    a = exact ? quarters(a_size, seed) : uniform(a_size, seed);
    b = exact ? quarters(b_size, seed + 1) : uniform(b_size, seed + 1);
    c_ref = exact ? quarters(size_t(std::max<int64_t>(1, m * rsc)), seed + 2)
                  : uniform(size_t(std::max<int64_t>(1, m * rsc)), seed + 2);
    c_fast = c_ref;
  }

  void run(GemmFn fast) {
    fast(m, n, k, a.data(), rsa, csa, b.data(), rsb, csb, c_fast.data(), rsc, accumulate);
    sgemm_ref(m, n, k, a.data(), rsa, csa, b.data(), rsb, csb, c_ref.data(), rsc, accumulate);
  }

  // Counts elements of C (padding included) outside atol + rtol*|ref|; NaN must match NaN.
  int64_t mismatches(float atol = 0.0f, float rtol = 0.0f) const {
    int64_t bad = 0;
    for (size_t i = 0; i < c_ref.size(); ++i) {
      const float r = c_ref[i], f = c_fast[i];
      if (r == f) continue;  // also equal infinities
      if (std::isnan(r) || std::isnan(f)) {
        bad += std::isnan(r) != std::isnan(f);
      } else if (!(std::fabs(f - r) <= atol + rtol * std::fabs(r))) {
        ++bad;
      }
    }
    return bad;
  }
};

// Runs variant v with small cache blocks so a modest product spans several blocks in every loop.
thread_local int g_variant = 0;
thread_local int64_t g_kc = 0, g_mc = 0, g_nc = 0;
void run_variant(int64_t m, int64_t n, int64_t k, const float* A, int64_t rsa, int64_t csa,
                 const float* B, int64_t rsb, int64_t csb, float* C, int64_t rsc, bool accumulate) {
  detail::sgemm_variant(g_variant).run(m, n, k, A, rsa, csa, B, rsb, csb, C, rsc, accumulate, g_kc,
                                       g_mc, g_nc);
}

}  // namespace

TEST_CASE("every tile shape matches the reference for each m, n and k from 1 to one past its tile") {
  for (int v = 0; v < detail::sgemm_variant_count(); ++v) {
    const auto& var = detail::sgemm_variant(v);
    g_variant = v;
    g_kc = g_mc = g_nc = 0;
    CAPTURE(var.name);
    int64_t failures = 0;
    for (int64_t m = 1; m <= var.mr + 1; ++m)
      for (int64_t n = 1; n <= var.nr + 1; ++n)
        for (int64_t k : {1, 2, 3, 4, 5, 7, 8, 9}) {
          Case c(m, n, k, {}, false, uint32_t(m * 1000 + n * 10 + k));
          c.run(run_variant);
          failures += c.mismatches() != 0;
        }
    CHECK(failures == 0);
  }
}

TEST_CASE("every tile shape matches the reference when the product spans several cache blocks") {
  for (int v = 0; v < detail::sgemm_variant_count(); ++v) {
    const auto& var = detail::sgemm_variant(v);
    g_variant = v;
    g_kc = 5;
    g_mc = 2 * var.mr;
    g_nc = 2 * var.nr;
    CAPTURE(var.name);
    for (bool acc : {false, true}) {
      for (Layout l : {Layout{}, Layout{true, true, 1, 3}}) {
        Case c(5 * var.mr + 1, 5 * var.nr - 1, 17, l, acc, 7u + v);
        c.run(run_variant);
        CHECK(c.mismatches() == 0);
      }
    }
  }
  g_kc = g_mc = g_nc = 0;
}

TEST_CASE("a tall A packed in several row groups still matches the reference, for every tile") {
  // sgemm packs A once per k block in groups of at most 2^20 floats: 2900 rows x kc 384 (two k blocks of
  // 768) is two groups for sgemm's tile and three for a tile that packs A twice; accumulating, B
  // transposed, C padded. Quarters, so the sums are exact and the check is bit for bit.
  for (int v = 0; v < detail::sgemm_variant_count(); ++v) {
    const auto& var = detail::sgemm_variant(v);
    g_variant = v;
    g_kc = g_mc = g_nc = 0;
    CAPTURE(var.name);
    Case c(2900, var.nr + 3, 768, {false, true, 0, 3}, true, 31u + v);
    c.run(run_variant);
    CHECK(c.mismatches() == 0);
  }
}

TEST_CASE("every tile gives sgemm's bits: each element sums over k in the same order whatever the tile") {
  // The property that lets a tile be picked per machine without changing any result.
  const int64_t m = 67, n = 45, k = 777;  // tails in every direction and three k blocks
  std::vector<float> A(size_t(m * k)), B(size_t(k * n)), C0(size_t(m * n)), C(size_t(m * n));
  uint32_t s = 12345;
  for (auto* v : {&A, &B})
    for (float& x : *v) x = float((s = s * 1664525u + 1013904223u) >> 8) * 0x1p-24f - 0.5f;
  sgemm(m, n, k, A.data(), k, 1, B.data(), n, 1, C0.data(), n, false);
  for (int v = 0; v < detail::sgemm_variant_count(); ++v) {
    CAPTURE(detail::sgemm_variant(v).name);
    std::fill(C.begin(), C.end(), -1.0f);
    detail::sgemm_variant(v).run(m, n, k, A.data(), k, 1, B.data(), n, 1, C.data(), n, false, 0, 0, 0);
    CHECK(std::memcmp(C.data(), C0.data(), C.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("packed::multiply on a B packed deeper (kb) reads its first k rows and gives sgemm's bits") {
  // Attention packs each V tile once to the tile's depth and multiplies shallower runs against it.
  namespace packed = tp::kernels::packed;
  const int64_t m = 13, n = 21, kb = 128;  // tails of the 4x8 tile in m and n
  const std::vector<float> A = uniform(size_t(m * kb), 31), B = uniform(size_t(kb * n), 32);
  std::vector<float> ap(size_t(packed::a_floats(m, kb))), bdeep(size_t(packed::b_floats(kb, n))),
      bk(size_t(packed::b_floats(kb, n))), C(size_t(m * n)), C0(size_t(m * n));
  packed::pack_b(kb, n, B.data(), n, 1, bdeep.data());
  for (int64_t k : {1, 3, 8, 9, 64, 127, 128}) {
    CAPTURE(k);
    packed::pack_a(m, k, A.data(), kb, 1, ap.data());
    packed::pack_b(k, n, B.data(), n, 1, bk.data());
    sgemm(m, n, k, A.data(), kb, 1, B.data(), n, 1, C0.data(), n, false);
    std::fill(C.begin(), C.end(), -1.0f);
    packed::multiply(m, n, k, ap.data(), bk.data(), C.data(), n, false);
    CHECK(std::memcmp(C.data(), C0.data(), C.size() * sizeof(float)) == 0);
    std::fill(C.begin(), C.end(), -1.0f);
    packed::multiply(m, n, k, ap.data(), bdeep.data(), C.data(), n, false, kb);
    CHECK(std::memcmp(C.data(), C0.data(), C.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("every tile's kernel-alone probe runs its micro-kernel over every strip and step") {
  // The benchmark's floor probe (tests/bench/gemm.mjs): A = 0.5, B = 0.25, accumulated over reps sweeps of
  // kc steps, so C(0,0) is reps * kc / 8, exact in float.
  for (int v = 0; v < detail::sgemm_variant_count(); ++v) {
    CAPTURE(detail::sgemm_variant(v).name);
    CHECK(detail::sgemm_variant(v).kernel_alone(3, 40, 2) == 15.0f);
    CHECK(detail::sgemm_variant(v).kernel_alone(1, 7, 5) == 0.875f);
  }
}

TEST_CASE("sgemm matches the reference for prime sizes and for k, m and n past one cache block") {
  const int64_t sizes[][3] = {{13, 17, 19}, {31, 37, 41}, {97, 101, 103}, {131, 67, 257},
                              {7, 2053, 11}, {1, 1, 601}, {211, 5, 3}, {1, 263, 269}};
  for (const auto& s : sizes) {
    CAPTURE(s[0]);
    CAPTURE(s[1]);
    CAPTURE(s[2]);
    Case c(s[0], s[1], s[2], {}, false, 11);
    c.run(sgemm);
    CHECK(c.mismatches() == 0);
  }
}

TEST_CASE("sgemm reads transposed and strided operands in place and leaves C's row padding alone") {
  const Layout layouts[] = {{true, false, 0, 0}, {false, true, 0, 0}, {true, true, 0, 0},
                            {false, false, 2, 5}, {true, true, 1, 1}, {true, false, 3, 2}};
  for (const Layout& l : layouts) {
    CAPTURE(l.trans_a);
    CAPTURE(l.trans_b);
    CAPTURE(l.gap);
    for (const auto& s : {std::vector<int64_t>{1, 1, 1}, {9, 13, 7}, {67, 45, 300}}) {
      Case c(s[0], s[1], s[2], l, false, 3);
      c.run(sgemm);
      CHECK(c.mismatches() == 0);
    }
  }
}

TEST_CASE("sgemm with accumulate adds the product to C instead of overwriting it") {
  for (const auto& s : {std::vector<int64_t>{1, 1, 1}, {6, 8, 4}, {29, 23, 300}, {70, 130, 2}}) {
    Case c(s[0], s[1], s[2], {false, false, 0, 2}, true, 5);
    const std::vector<float> before = c.c_fast;
    c.run(sgemm);
    CHECK(c.mismatches() == 0);
    // Spot check against an independent sum for C(0,0).
    float s00 = 0.0f;
    for (int64_t p = 0; p < c.k; ++p) s00 += c.a[size_t(p * c.csa)] * c.b[size_t(p * c.rsb)];
    CHECK(c.c_fast[0] == before[0] + s00);
  }
}

TEST_CASE("sgemm handles empty sizes: k = 0 gives zeros or leaves C, m = 0 or n = 0 touch nothing") {
  for (bool acc : {false, true}) {
    Case c(3, 5, 0, {false, false, 0, 1}, acc, 9);
    const std::vector<float> before = c.c_fast;
    c.run(sgemm);
    CHECK(c.mismatches() == 0);
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 5; ++j)
        CHECK(c.c_fast[size_t(i * 6 + j)] == (acc ? before[size_t(i * 6 + j)] : 0.0f));
    CHECK(c.c_fast[5] == before[5]);  // the padding column
  }
  for (const auto& s : {std::vector<int64_t>{0, 5, 3}, {4, 0, 3}, {0, 0, 0}}) {
    std::vector<float> a(16, 1.0f), b(16, 1.0f), cm(16, 42.0f);
    sgemm(s[0], s[1], s[2], a.data(), 3, 1, b.data(), 5, 1, cm.data(), 5, false);
    for (float x : cm) CHECK(x == 42.0f);
  }
}

TEST_CASE("sgemm agrees with the reference on random reals to float rounding (atol 1e-5*sqrt(k), rtol 1e-4)") {
  for (const auto& s : {std::vector<int64_t>{64, 64, 64}, {100, 37, 513}, {5, 300, 1000}}) {
    Case c(s[0], s[1], s[2], {}, false, 21, false);
    c.run(sgemm);
    CHECK(c.mismatches(1e-5f * std::sqrt(float(s[2])), 1e-4f) == 0);
  }
}

TEST_CASE("sgemm propagates NaN and infinity like the reference, and padding never leaks NaN") {
  Case c(7, 9, 6, {}, false, 13);
  c.a[2 * 6 + 3] = std::numeric_limits<float>::quiet_NaN();  // row 2 of C becomes NaN
  c.b[4 * 9 + 8] = std::numeric_limits<float>::infinity();   // the last column of B holds an inf
  c.run(sgemm);
  CHECK(c.mismatches() == 0);
  CHECK(std::isnan(c.c_fast[2 * 9 + 0]));
  CHECK(!std::isnan(c.c_fast[0 * 9 + 0]));
}

TEST_CASE("sgemm reproduces numpy's products for every 4x8 tail, primes and transposed layouts") {
  // tests/fixtures/gemm/make_gemm_fixtures.py: exact cases must match bit for bit, real ones to
  // atol 1e-5*sqrt(k) + rtol 1e-5 (float32 sums of float32 products against float64 rounded once).
  std::ifstream f(std::string(TP_FIXTURES_DIR) + "/gemm/cases.json");
  REQUIRE(f.good());
  const auto doc = nlohmann::json::parse(f);
  int64_t checked = 0;
  for (const auto& tc : doc.at("cases")) {
    const int64_t m = tc.at("m"), n = tc.at("n"), k = tc.at("k");
    const bool ta = tc.at("trans_a"), tb = tc.at("trans_b"), exact = tc.at("kind") == "exact";
    const float scale = exact ? float(tc.at("scale")) : 1.0f;
    CAPTURE(m);
    CAPTURE(n);
    CAPTURE(k);
    CAPTURE(ta);
    CAPTURE(tb);
    // Store A and B as asked: row-major, or column-major and read in place through the strides.
    std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n), -7.0f);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t p = 0; p < k; ++p)
        a[size_t(ta ? p * m + i : i * k + p)] = float(tc.at("a")[size_t(i * k + p)]) * scale;
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j)
        b[size_t(tb ? j * k + p : p * n + j)] = float(tc.at("b")[size_t(p * n + j)]) * scale;
    sgemm(m, n, k, a.data(), ta ? 1 : k, ta ? m : 1, b.data(), tb ? 1 : n, tb ? k : 1, c.data(), n, false);
    int64_t bad = 0;
    const float atol = exact ? 0.0f : 1e-5f * std::sqrt(float(k)), rtol = exact ? 0.0f : 1e-5f;
    for (size_t i = 0; i < c.size(); ++i) {
      const float ref = float(tc.at("c")[i]);
      bad += !(std::fabs(c[i] - ref) <= atol + rtol * std::fabs(ref));
    }
    CHECK(bad == 0);
    ++checked;
  }
  CHECK(checked > 100);  // the fixture was read, not silently empty
}

TEST_CASE("sgemm computes vector-matrix (m = 1) and matrix-vector (n = 1) products in every layout") {
  // These take the unpacked paths: rows of the matrix streamed, or one dot product per output.
  const Layout layouts[] = {{false, false, 0, 0}, {true, false, 0, 0}, {false, true, 0, 0},
                            {true, true, 0, 0},   {false, false, 2, 1}, {true, true, 1, 3}};
  int64_t failures = 0, cases = 0;
  for (const Layout& l : layouts)
    for (bool acc : {false, true})
      for (int64_t k : {1, 3, 4, 5, 17, 1000})
        for (int64_t len : {1, 2, 3, 4, 5, 7, 8, 9, 33, 1030}) {
          Case row(1, len, k, l, acc, uint32_t(len * 7 + k));
          row.run(sgemm);
          Case col(len, 1, k, l, acc, uint32_t(len * 5 + k));
          col.run(sgemm);
          failures += (row.mismatches() != 0) + (col.mismatches() != 0);
          cases += 2;
        }
  CHECK(cases == 1440);
  CHECK(failures == 0);
}

TEST_CASE("sgemm split over threads gives the same bits as one thread, by columns or by rows") {
  // min_flops 0 so that small products split too; real values, so any change of summation order
  // would show.
  const std::vector<std::vector<int64_t>> shapes = {{67, 300, 45}, {300, 9, 70}, {40, 130, 513},
                                                    {3, 3, 3},     {129, 1031, 17}};
  for (int threads : {2, 3}) {
    for (const auto& s : shapes) {
      for (bool acc : {false, true}) {
        CAPTURE(threads);
        CAPTURE(s[0]);
        CAPTURE(s[1]);
        Case c(s[0], s[1], s[2], {false, true, 0, 3}, acc, 17, false);
        std::vector<float> c_one = c.c_fast;
        tp::kernels::set_sgemm_threads(1);
        sgemm(c.m, c.n, c.k, c.a.data(), c.rsa, c.csa, c.b.data(), c.rsb, c.csb, c_one.data(), c.rsc, acc);
        tp::kernels::set_sgemm_threads(threads, 0);
        sgemm(c.m, c.n, c.k, c.a.data(), c.rsa, c.csa, c.b.data(), c.rsb, c.csb, c.c_fast.data(), c.rsc, acc);
        tp::kernels::set_sgemm_threads(1);
        CHECK(c.c_fast == c_one);
      }
    }
  }
  CHECK(tp::kernels::sgemm_threads() == 1);
}
