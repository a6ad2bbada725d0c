// A seeded, counter-based random generator whose streams are bit-identical in native and WASM builds.
#pragma once
#include <cstdint>

#include "tensorpad/tensor.hpp"

namespace tp {

// Value number i of a stream is a pure function of (seed, i): SplitMix64 mixing of the pair.
// Normals use Box–Muller with our own log/sin/cos built from IEEE +, *, / only, so no libm
// difference between glibc and Emscripten's musl can change a bit.
class Rng {
 public:
  constexpr explicit Rng(uint64_t seed = 0) : seed_(seed) {}
  uint64_t seed() const { return seed_; }
  uint64_t counter() const { return counter_; }

  uint64_t next_u64();
  float uniform();                          // in [0, 1), 24 random bits
  void fill_uniform(float* out, int64_t n);  // n draws of uniform()
  void fill_normal(float* out, int64_t n);   // standard normal; consumes ceil(n/2) pairs

 private:
  uint64_t seed_;
  uint64_t counter_ = 0;
};

// The stream that randn/rand draw from when no seed is given; tp.manualSeed resets it.
Rng& global_rng();
void manual_seed(uint64_t seed);

Tensor randn(const Shape& shape, Rng& rng);
Tensor rand(const Shape& shape, Rng& rng);

namespace detmath {
double log(double x);                          // x > 0
void sincos(double x, double* s, double* c);  // |x| <= 8
}  // namespace detmath

}  // namespace tp
