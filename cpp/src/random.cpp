// The counter-based generator, deterministic math for Box–Muller, and random tensors.
#include "tensorpad/random.hpp"

#include <cmath>

namespace tp {

namespace {
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

uint64_t Rng::next_u64() {
  // Two rounds so that neighbouring seeds and counters give unrelated values.
  return mix64(mix64(seed_ * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL) + (counter_++) * 0x9e3779b97f4a7c15ULL);
}

float Rng::uniform() { return float(next_u64() >> 40) * (1.0f / 16777216.0f); }

void Rng::fill_uniform(float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = uniform();
}

void Rng::fill_normal(float* out, int64_t n) {
  const double two_pi = 6.283185307179586;
  for (int64_t i = 0; i < n; i += 2) {
    const uint64_t bits = next_u64();
    const double u1 = (double(bits >> 40) + 1.0) / 16777216.0;                 // (0, 1]: log is finite
    const double u2 = double((bits >> 8) & 0xffffffULL) / 16777216.0;          // [0, 1)
    const double r = std::sqrt(-2.0 * detmath::log(u1));                       // sqrt is exactly rounded
    double s, c;
    detmath::sincos(two_pi * u2 - 3.141592653589793, &s, &c);                  // angle in [-pi, pi)
    out[i] = float(r * c);
    if (i + 1 < n) out[i + 1] = float(r * s);
  }
}

Rng& global_rng() {
  static Rng rng(0);
  return rng;
}

void manual_seed(uint64_t seed) { global_rng() = Rng(seed); }

Tensor randn(const Shape& shape, Rng& rng) {
  Tensor t = Tensor::empty(shape, "randn");
  rng.fill_normal(t.data(), t.numel());
  return t;
}

Tensor rand(const Shape& shape, Rng& rng) {
  Tensor t = Tensor::empty(shape, "rand");
  rng.fill_uniform(t.data(), t.numel());
  return t;
}

namespace detmath {

double log(double x) {
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s), s = (m-1)/(m+1), |s| < 0.172.
  int e = 0;
  double m = std::frexp(x, &e);  // exact
  if (m < 0.7071067811865476) {
    m *= 2.0;
    e -= 1;
  }
  const double s = (m - 1.0) / (m + 1.0), s2 = s * s;
  double term = s, sum = 0.0;
  for (int k = 1; k <= 41; k += 2) {  // 21 terms: s^42 < 1e-32, far below double rounding
    sum += term / double(k);
    term *= s2;
  }
  return 2.0 * sum + double(e) * 0.6931471805599453;
}

void sincos(double x, double* s, double* c) {
  // Reduce by quadrant q = round(x / (pi/2)) with a two-part pi/2 (Cody–Waite), then Taylor series.
  const double q = std::nearbyint(x * 0.6366197723675814);
  const double r = (x - q * 1.5707963267948966) - q * 6.123233995736766e-17;
  const double r2 = r * r;
  double ts = r, tc = 1.0, ss = 0.0, cc = 0.0;
  for (int k = 0; k < 12; ++k) {  // |r| <= pi/4: r^24/24! < 1e-25
    ss += ts;
    cc += tc;
    ts *= -r2 / double((2 * k + 2) * (2 * k + 3));
    tc *= -r2 / double((2 * k + 1) * (2 * k + 2));
  }
  switch (((int64_t(q) % 4) + 4) % 4) {
    case 0: *s = ss; *c = cc; break;
    case 1: *s = cc; *c = -ss; break;
    case 2: *s = -ss; *c = -cc; break;
    default: *s = -cc; *c = ss; break;
  }
}

}  // namespace detmath
}  // namespace tp
