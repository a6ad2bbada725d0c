// The 16-bit conversions (against closed forms and round trips) and sgemm_half, the GEMM whose B is
// bfloat16 or float16: bit for bit equal to sgemm on the widened B (every tile tail, both B layouts,
// the matrix-vector paths, several k blocks, any thread count), and equal to its scalar reference.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tensorpad/gemm.hpp"
#include "tensorpad/half.hpp"

namespace {

using tp::Half;
using namespace tp::half;

uint32_t bits(float f) { return f32_to_bits(f); }

// 16-bit values of uniform reals in [-1, 1] (or multiples of 1/4 in [-2, 2] when exact).
std::vector<uint16_t> half_values(size_t count, Half kind, uint32_t seed, bool exact = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> q(-8, 8);
  std::vector<uint16_t> v(count);
  for (auto& h : v) {
    const float x = exact ? float(q(rng)) * 0.25f : u(rng);
    h = kind == Half::BF16 ? f32_to_bf16(x) : f32_to_f16(x);
  }
  return v;
}

std::vector<float> reals(size_t count, uint32_t seed, bool exact = false) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_int_distribution<int> q(-8, 8);
  std::vector<float> v(count);
  for (float& x : v) x = exact ? float(q(rng)) * 0.25f : u(rng);
  return v;
}

std::vector<float> widened(const std::vector<uint16_t>& h, Half kind) {
  std::vector<float> f(h.size());
  for (size_t i = 0; i < h.size(); ++i) f[i] = to_f32(kind, h[i]);
  return f;
}

bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

// One product C (m,n) (+)= A (m,k) @ B (k,n) with B 16-bit, stored as a weight W (n,k) (B = W^T) or
// row-major (k,n), optionally with gaps between B's elements; C has 3 spare columns.
struct HalfCase {
  int64_t m, n, k, rsb, csb, rsc;
  Half kind;
  std::vector<float> a, c0;
  std::vector<uint16_t> b;

  HalfCase(int64_t m_, int64_t n_, int64_t k_, Half kind_, bool weight, int64_t gap, uint32_t seed, bool exact = false)
      : m(m_), n(n_), k(k_), kind(kind_) {
    const int64_t in = 1 + gap;
    if (weight) { rsb = in; csb = k * in + gap; } else { csb = in; rsb = n * in + gap; }
    rsc = n + 3;
    a = reals(size_t(std::max<int64_t>(1, m * k)), seed, exact);
    b = half_values(size_t(std::max<int64_t>(1, (k - 1) * rsb + (n - 1) * csb + 1)), kind, seed + 1, exact);
    c0 = reals(size_t(std::max<int64_t>(1, m * rsc)), seed + 2, exact);
  }
  std::vector<float> half_gemm(bool acc) const {
    std::vector<float> c = c0;
    tp::kernels::sgemm_half(m, n, k, a.data(), k, 1, b.data(), rsb, csb, kind, c.data(), rsc, acc);
    return c;
  }
  std::vector<float> f32_gemm(bool acc) const {
    const std::vector<float> bf = widened(b, kind);
    std::vector<float> c = c0;
    tp::kernels::sgemm(m, n, k, a.data(), k, 1, bf.data(), rsb, csb, c.data(), rsc, acc);
    return c;
  }
  std::vector<float> reference(bool acc) const {
    std::vector<float> c = c0;
    tp::kernels::sgemm_half_ref(m, n, k, a.data(), k, 1, b.data(), rsb, csb, kind, c.data(), rsc, acc);
    return c;
  }
};

}  // namespace

TEST_CASE("bfloat16 and float16 widen to the float32 values their bits stand for") {
  CHECK(bf16_to_f32(0x3f80) == 1.0f);
  CHECK(bf16_to_f32(0xc040) == -3.0f);
  CHECK(bf16_to_f32(0x0001) == 0x1p-133f);  // the smallest bfloat16 subnormal
  CHECK(std::isinf(bf16_to_f32(0xff80)));
  CHECK(f16_to_f32(0x3c00) == 1.0f);
  CHECK(f16_to_f32(0xc000) == -2.0f);
  CHECK(f16_to_f32(0x7bff) == 65504.0f);
  CHECK(f16_to_f32(0x0400) == 0x1p-14f);     // smallest normal
  CHECK(f16_to_f32(0x0001) == 0x1p-24f);     // smallest subnormal
  CHECK(f16_to_f32(0x03ff) == 1023 * 0x1p-24f);
  CHECK(bits(f16_to_f32(0x8000)) == 0x80000000u);  // -0 keeps its sign
  CHECK(f16_to_f32(0xfc00) == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(f16_to_f32(0x7e00)));
  CHECK(std::isnan(f16_to_f32(0xfc01)));
}

TEST_CASE("float32 narrows to bfloat16 and float16 rounding to nearest even, and widening round-trips") {
  CHECK(f32_to_bf16(1.0f + 0x1p-8f) == 0x3f80);  // a tie goes to the even 1.0
  CHECK(f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3f81);
  CHECK(f32_to_bf16(1.0f + 3 * 0x1p-8f) == 0x3f82);  // a tie goes to the even 0x3f82
  CHECK(f32_to_f16(1.0f + 0x1p-11f) == 0x3c00);
  CHECK(f32_to_f16(1.0f + 3 * 0x1p-11f) == 0x3c02);
  CHECK(f32_to_f16(65519.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);  // rounds past the largest finite value
  CHECK(f32_to_f16(-1e10f) == 0xfc00);
  CHECK(f32_to_f16(0x1p-25f) == 0x0000);      // half the smallest subnormal: a tie to even zero
  CHECK(f32_to_f16(3 * 0x1p-25f) == 0x0002);  // 1.5 ulps: a tie to even 2
  CHECK(f32_to_f16(0x1p-14f - 0x1p-26f) == 0x0400);  // rounds up into the normals
  CHECK(f32_to_f16(-0.0f) == 0x8000);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(f16_to_f32(f32_to_f16(nan))));
  CHECK(std::isnan(bf16_to_f32(f32_to_bf16(nan))));
  int64_t bad = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const auto v = uint16_t(h);
    const float f = f16_to_f32(v), g = bf16_to_f32(v);
    if (!std::isnan(f)) bad += f32_to_f16(f) != v;
    if (!std::isnan(g)) bad += f32_to_bf16(g) != v;
  }
  CHECK(bad == 0);
}

TEST_CASE("widen_half (the packing conversion) gives the scalar conversion's bits for all 65536 inputs") {
  std::vector<uint16_t> all(65536 + 5);
  for (size_t i = 0; i < all.size(); ++i) all[i] = uint16_t(i);  // plus a 5-value tail past 8-wide vectors
  for (Half kind : {Half::BF16, Half::F16}) {
    std::vector<float> out(all.size());
    tp::kernels::widen_half(kind, all.data(), out.data(), int64_t(all.size()));
    int64_t bad = 0;
    for (size_t i = 0; i < all.size(); ++i) bad += bits(out[i]) != bits(to_f32(kind, all[i]));
    CHECK(bad == 0);
  }
  // In a scrambled order (40503 is odd: a permutation) many 8-wide blocks mix finite values with inf or
  // NaN: float16's fast path takes only all-finite blocks, and the others must match too.
  std::vector<uint16_t> mixed(65536);
  for (size_t i = 0; i < mixed.size(); ++i) mixed[i] = uint16_t(i * 40503u);
  std::vector<float> out(mixed.size());
  tp::kernels::widen_half(Half::F16, mixed.data(), out.data(), int64_t(mixed.size()));
  int64_t bad = 0;
  for (size_t i = 0; i < mixed.size(); ++i) bad += bits(out[i]) != bits(to_f32(Half::F16, mixed[i]));
  CHECK(bad == 0);
}

TEST_CASE("sgemm_half gives sgemm's bits on the widened B for every tile tail, both layouts, several k blocks") {
  int64_t failures = 0, cases = 0;
  for (Half kind : {Half::BF16, Half::F16})
    for (bool weight : {true, false})
      for (int64_t m : {2, 3, 4, 5, 9})
        for (int64_t n = 2; n <= 17; ++n)
          for (int64_t k : {1, 7, 8, 9, 17, 400, 801}) {
            if (k > 17 && n % 5 != 0) continue;  // deep products for a few widths only
            HalfCase c(m, n, k, kind, weight, 0, uint32_t(m * 10000 + n * 100 + k));
            for (bool acc : {false, true}) {
              failures += !same_bits(c.half_gemm(acc), c.f32_gemm(acc));
              ++cases;
            }
          }
  CHECK(cases > 500);
  CHECK(failures == 0);
}

TEST_CASE("sgemm_half matches its scalar reference exactly on exact inputs and to rounding on reals") {
  for (Half kind : {Half::BF16, Half::F16})
    for (bool weight : {true, false})
      for (int64_t gap : {0, 2}) {
        CAPTURE(weight);
        CAPTURE(gap);
        HalfCase exact(37, 29, 301, kind, weight, gap, 5, true);
        CHECK(same_bits(exact.half_gemm(false), exact.reference(false)));
        CHECK(same_bits(exact.half_gemm(true), exact.reference(true)));
        HalfCase real(33, 70, 513, kind, weight, gap, 6);
        const auto fast = real.half_gemm(false), ref = real.reference(false);
        int64_t bad = 0;
        for (size_t i = 0; i < fast.size(); ++i)
          bad += !(std::fabs(fast[i] - ref[i]) <= 1e-5f * std::sqrt(513.0f) + 1e-4f * std::fabs(ref[i]));
        CHECK(bad == 0);
      }
}

TEST_CASE("sgemm_half's matrix-vector paths (one row of A, or one column of B) give sgemm's bits") {
  int64_t failures = 0, cases = 0;
  for (Half kind : {Half::BF16, Half::F16})
    for (bool weight : {true, false})
      for (int64_t gap : {0, 1})
        for (int64_t k : {1, 5, 8, 17, 1000})
          for (int64_t len : {1, 3, 8, 9, 1030, 2100}) {
            HalfCase row(1, len, k, kind, weight, gap, uint32_t(len + k));
            HalfCase col(len, 1, k, kind, weight, gap, uint32_t(len * 3 + k));
            for (bool acc : {false, true}) {
              failures += !same_bits(row.half_gemm(acc), row.f32_gemm(acc));
              failures += !same_bits(col.half_gemm(acc), col.f32_gemm(acc));
              cases += 2;
            }
          }
  CHECK(cases == 960);
  CHECK(failures == 0);
}

// Every finite float16 bit pattern (subnormals and -0 among them), in a scrambled order.
static std::vector<uint16_t> every_finite_f16() {
  std::vector<uint16_t> finite;
  for (uint32_t i = 0; i < 65536; ++i) {
    const auto h = uint16_t(i * 40503u);
    if ((h & 0x7c00) != 0x7c00) finite.push_back(h);
  }
  return finite;
}

TEST_CASE("one token times a float16 weight gives sgemm's bits for every float16 value, tiny and huge x included") {
  // Rows of the weight W (n,k), B = W^T: every finite float16 (subnormals among them) in a scrambled
  // order; the same with an inf in the tail past 16-wide vectors, with a NaN inside them, and with
  // all 65536 values. The m = 1 path scales x by 2^112 instead of each weight (when every |x| < 2^16):
  // tiny x puts products among the float32 subnormals, and one |x| of 70000 must take the other path.
  const std::vector<uint16_t> finite = every_finite_f16();
  const int64_t k = int64_t(finite.size()) + 5, n = 4;
  std::vector<uint16_t> w(size_t(n * k));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p) w[size_t(j * k + p)] = j == 3 ? uint16_t(p * 40503) : finite[size_t(p) % finite.size()];
  w[size_t(1 * k + k - 2)] = 0xfc00;  // -inf in the scalar tail
  w[size_t(2 * k + 100)] = 0x7e01;    // a NaN inside the vector loop
  const std::vector<float> wide = widened(w, Half::F16);
  for (float scale : {1.0f, 0x1p-120f, 0x1p-140f})
    for (bool huge : {false, true}) {
      CAPTURE(scale);
      CAPTURE(huge);
      std::vector<float> x = reals(size_t(k), 7);
      for (float& v : x) v *= scale;
      if (huge) x[size_t(k / 2)] = 70000.0f;
      std::vector<float> fast(static_cast<size_t>(n)), ref(static_cast<size_t>(n));
      tp::kernels::sgemm_half(1, n, k, x.data(), k, 1, w.data(), 1, k, Half::F16, fast.data(), n, false);
      tp::kernels::sgemm(1, n, k, x.data(), k, 1, wide.data(), 1, k, ref.data(), n, false);
      CHECK(bits(fast[0]) == bits(ref[0]));
      CHECK(std::isinf(fast[1]));
      CHECK(bits(fast[1]) == bits(ref[1]));
      CHECK(std::isnan(fast[2]));
      CHECK(std::isnan(fast[3]));
    }
}

TEST_CASE("one token times a float16 weight passed as known finite (b_finite) gives the bits of the checked path") {
  // W (n,k) holds every finite float16 (subnormals and -0 among them), scrambled, each row from another
  // start; k = 63,488 + 5 leaves a scalar tail past the 16-wide loop. With b_finite the m = 1 path drops its
  // inf/NaN check (WebAssembly only; natively both paths are one): the sums must not change, for tiny x
  // (subnormal products), and with one |x| >= 2^16 (the unscaled loop).
  const std::vector<uint16_t> finite = every_finite_f16();
  const int64_t k = int64_t(finite.size()) + 5, n = 3;
  std::vector<uint16_t> w(size_t(n * k));
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p) w[size_t(j * k + p)] = finite[size_t(p + 977 * j) % finite.size()];
  REQUIRE(tp::kernels::f16_all_finite(n * k, w.data()));
  const std::vector<float> wide = widened(w, Half::F16);
  for (float scale : {1.0f, 0x1p-120f, 0x1p-140f})
    for (bool huge : {false, true}) {
      CAPTURE(scale);
      CAPTURE(huge);
      std::vector<float> x = reals(size_t(k), 11);
      for (float& v : x) v *= scale;
      if (huge) x[size_t(k / 3)] = -70000.0f;
      std::vector<float> flagged(static_cast<size_t>(n)), checked(static_cast<size_t>(n)), ref(static_cast<size_t>(n));
      tp::kernels::sgemm_half(1, n, k, x.data(), k, 1, w.data(), 1, k, Half::F16, flagged.data(), n, false, true);
      tp::kernels::sgemm_half(1, n, k, x.data(), k, 1, w.data(), 1, k, Half::F16, checked.data(), n, false);
      tp::kernels::sgemm(1, n, k, x.data(), k, 1, wide.data(), 1, k, ref.data(), n, false);
      CHECK(same_bits(flagged, ref));
      CHECK(same_bits(checked, ref));
    }
  // A bfloat16 B ignores the flag (its loop has no check to skip): still sgemm's bits.
  HalfCase c(1, 37, 1000, Half::BF16, true, 0, 5);
  std::vector<float> bf = c.c0;
  tp::kernels::sgemm_half(1, c.n, c.k, c.a.data(), c.k, 1, c.b.data(), c.rsb, c.csb, Half::BF16, bf.data(), c.rsc, false, true);
  CHECK(same_bits(bf, c.f32_gemm(false)));
}

TEST_CASE("f16_all_finite is false exactly when some float16 is inf or NaN, wherever it sits") {
  // Oracle: the scalar widening's std::isfinite. Each of the 2048 inf/NaN patterns (both signs), at a
  // place in the 8-wide loop and in the tail, among the largest finite values (0x7bff, 0xfbff) that must not
  // count; lengths 0-20 for every tail, and the whole float16 range.
  std::vector<uint16_t> all(65536);
  for (uint32_t i = 0; i < 65536; ++i) all[i] = uint16_t(i * 40503u);
  int64_t oracle_special = 0;
  for (uint16_t h : all) oracle_special += !std::isfinite(tp::half::f16_to_f32(h));
  CHECK(oracle_special == 2048);
  CHECK(!tp::kernels::f16_all_finite(65536, all.data()));
  std::vector<uint16_t> finite;
  for (uint16_t h : all)
    if (std::isfinite(tp::half::f16_to_f32(h))) finite.push_back(h);
  CHECK(tp::kernels::f16_all_finite(int64_t(finite.size()), finite.data()));
  CHECK(tp::kernels::f16_all_finite(0, nullptr));
  int64_t wrong = 0, cases = 0;
  for (int64_t len = 1; len <= 20; ++len)
    for (int64_t at = 0; at < len; ++at) {
      std::vector<uint16_t> v(static_cast<size_t>(len));
      for (int64_t i = 0; i < len; ++i) v[size_t(i)] = i % 2 ? 0xfbff : 0x7bff;
      wrong += !tp::kernels::f16_all_finite(len, v.data());
      for (uint32_t s = 0; s < 2048; s += 67) {  // 31 of the specials, signs and payloads mixed
        v[size_t(at)] = uint16_t((s & 1 ? 0xfc00u : 0x7c00u) | (s >> 1) | (s == 0 ? 0 : 1));
        wrong += tp::kernels::f16_all_finite(len, v.data());
        ++cases;
      }
    }
  for (uint32_t s = 0; s < 2048; ++s) {  // every special, inside the 8-wide loop of a 21-long run
    std::vector<uint16_t> v(21, 0x3c00);
    v[9] = uint16_t(0x7c00 | ((s & 0x3ff)) | ((s & 0x400) << 5));
    REQUIRE(!std::isfinite(tp::half::f16_to_f32(v[9])));
    wrong += tp::kernels::f16_all_finite(21, v.data());
    ++cases;
  }
  CHECK(cases == 210 * 31 + 2048);
  CHECK(wrong == 0);
}

TEST_CASE("sgemm_half split over threads gives the same bits as one thread") {
  for (int threads : {2, 3})
    for (const auto& s : {std::vector<int64_t>{67, 300, 45}, {300, 9, 70}, {40, 130, 513}, {129, 1031, 17}}) {
      CAPTURE(threads);
      CAPTURE(s[0]);
      HalfCase c(s[0], s[1], s[2], Half::BF16, true, 0, 23);
      tp::kernels::set_sgemm_threads(1);
      const auto one = c.half_gemm(false);
      tp::kernels::set_sgemm_threads(threads, 0);
      const auto many = c.half_gemm(false);
      tp::kernels::set_sgemm_threads(1);
      CHECK(same_bits(one, many));
      CHECK(same_bits(one, c.f32_gemm(false)));
    }
}

TEST_CASE("sgemm_half propagates a float16 infinity or NaN in B to the columns that read it") {
  HalfCase c(6, 10, 9, Half::F16, true, 0, 31, true);
  c.b[size_t(3 * c.csb + 4)] = 0x7c00;  // column 3 of B (row 3 of the weight) holds +inf
  c.b[size_t(7 * c.csb + 0)] = 0x7e00;  // column 7 holds a NaN
  const auto fast = c.half_gemm(false), ref = c.reference(false);
  int64_t bad = 0;
  for (size_t i = 0; i < fast.size(); ++i) bad += !(fast[i] == ref[i] || (std::isnan(fast[i]) && std::isnan(ref[i])));
  CHECK(bad == 0);
  for (int64_t i = 0; i < c.m; ++i) CHECK(std::isnan(fast[size_t(i * c.rsc + 7)]));
  CHECK(!std::isnan(fast[0]));
}

TEST_CASE("sgemm_half widens every float16 value (subnormals, signed zeros, inf, NaN) to sgemm's bits, packed or not") {
  // B holds each of the 63,488 finite float16 values (subnormals and -0 among them) in a scrambled order, as a
  // weight W (n,k) and row-major (k,n); n = 19 and k = 3343 are off the 4x8 tile and the 8-wide conversion, and
  // k spans 9 blocks of KC. Then an inf or NaN in each place the widening reaches: the 8-wide loop, the k tail
  // past it, and the last (zero-padded) strip of columns. m = 5 goes through packing, m = 1 through the
  // matrix-vector paths (one dot per column of a weight, rows of a row-major B). Every column of C must have
  // sgemm's bits on the widened B, and only the columns that read an inf or NaN are not finite.
  const std::vector<uint16_t> finite = every_finite_f16();
  const int64_t n = 19, k = 3343;
  REQUIRE(size_t(n * k) >= finite.size());
  for (int run = 0; run < 4; ++run) {
    const int64_t m = run < 2 ? 5 : 1;
    const bool weight = run % 2 == 0;
    CAPTURE(m);
    CAPTURE(weight);
    const int64_t rsb = weight ? 1 : n, csb = weight ? k : 1;
    std::vector<uint16_t> b(size_t(n * k));
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) b[size_t(p * rsb + j * csb)] = finite[size_t(j * k + p) % finite.size()];
    b[size_t(100 * rsb + 2 * csb)] = 0x7c00;        // +inf in the 8-wide loop (column 2)
    b[size_t((k - 3) * rsb + 5 * csb)] = 0xfc00;    // -inf in the k tail (column 5)
    b[size_t(7 * rsb + 9 * csb)] = 0x7d01;          // a signalling-looking NaN (column 9)
    b[size_t((k / 2) * rsb + 17 * csb)] = 0xfe00;   // a NaN in the last, partial strip (column 17)
    const std::vector<float> a = reals(size_t(m * k), 41), wide = widened(b, Half::F16);
    std::vector<float> fast(size_t(m * n)), ref(size_t(m * n));
    tp::kernels::sgemm_half(m, n, k, a.data(), k, 1, b.data(), rsb, csb, Half::F16, fast.data(), n, false);
    tp::kernels::sgemm(m, n, k, a.data(), k, 1, wide.data(), rsb, csb, ref.data(), n, false);
    CHECK(same_bits(fast, ref));
    int64_t nonfinite_columns = 0;
    for (int64_t j = 0; j < n; ++j) {
      bool finite_column = true;
      for (int64_t i = 0; i < m; ++i) finite_column = finite_column && std::isfinite(fast[size_t(i * n + j)]);
      nonfinite_columns += !finite_column;
      if (j == 9 || j == 17) CHECK(std::isnan(fast[size_t(j)]));
    }
    CHECK(nonfinite_columns == 4);
  }
}
