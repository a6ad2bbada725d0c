// Embind bindings of the decompositions (cpp/include/tensorpad/linalg.hpp) for wasm/js/linalg.js.
// No math here: unwrap handles, call the core, wrap the results. Multi-output ops return a JS array
// of handles. NaN tol means numpy's default tolerance; seeded false means draw a seed from the global stream.
#include <cmath>

#include "handles.hpp"
#include "tensorpad/linalg.hpp"
#include "tensorpad/random.hpp"

using emscripten::val;
using tp::Tensor;
using tpw::get;
using tpw::guard;
using tpw::put;

namespace la = tp::linalg;

namespace {

int h(Tensor t) { return put(std::move(t)); }

val handles(std::initializer_list<Tensor> ts) {
  val out = val::array();
  int i = 0;
  for (const Tensor& t : ts) out.set(i++, h(t));
  return out;
}

int svdvals(int a) { return guard([&] { return h(la::svdvals(get(a))); }); }
val svd(int a) {
  return guard([&] {
    la::SvdResult r = la::svd(get(a));
    return handles({r.U, r.S, r.Vh});
  });
}
val qr(int a) {
  return guard([&] {
    la::QrResult r = la::qr(get(a));
    return handles({r.Q, r.R});
  });
}
val eigh(int a) {
  return guard([&] {
    la::EighResult r = la::eigh(get(a));
    return handles({r.eigenvalues, r.eigenvectors});
  });
}
int eigvalsh(int a) { return guard([&] { return h(la::eigvalsh(get(a))); }); }
int det(int a) { return guard([&] { return h(la::det(get(a))); }); }
int inv(int a) { return guard([&] { return h(la::inv(get(a))); }); }
int solve(int a, int b) { return guard([&] { return h(la::solve(get(a), get(b))); }); }
int matrix_norm(int a, std::string ord) { return guard([&] { return h(la::matrix_norm(get(a), ord)); }); }
int matrix_norm_dims(int a, std::string ord, int d0, int d1, bool keep) {
  return guard([&] { return h(la::matrix_norm(get(a), ord, d0, d1, keep)); });
}
int matrix_rank(int a, double tol) {
  return guard([&] { return h(la::matrix_rank(get(a), std::isnan(tol) ? -1.0 : tol)); });
}
val svd_lowrank(int a, double q, double niter, double seed, bool seeded) {
  return guard([&] {
    const uint64_t s = seeded ? uint64_t(seed) : tp::global_rng().next_u64();
    la::LowrankResult r = la::svd_lowrank(get(a), int64_t(q), int64_t(niter), s);
    return handles({r.U, r.S, r.V});
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_linalg) {
  using emscripten::function;
  function("linalgSvdvals", &svdvals);
  function("linalgSvd", &svd);
  function("linalgQr", &qr);
  function("linalgEigh", &eigh);
  function("linalgEigvalsh", &eigvalsh);
  function("linalgDet", &det);
  function("linalgInv", &inv);
  function("linalgSolve", &solve);
  function("linalgMatrixNorm", &matrix_norm);
  function("linalgMatrixNormDims", &matrix_norm_dims);
  function("linalgMatrixRank", &matrix_rank);
  function("linalgSvdLowrank", &svd_lowrank);
}
