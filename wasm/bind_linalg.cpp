// Bindings of the decompositions (cpp/include/tensorpad/linalg.hpp) for wasm/js/linalg.js, as rows of
// the generic entry (handles.hpp). No math here: unwrap handles, call the core, wrap the results.
// Multi-output ops return a list of handles. NaN tol means numpy's default tolerance; seeded false means draw a seed from the global stream.
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

using tpw::Args;
using tpw::handles;
using R = tpw::Result;

int h(Tensor t) { return put(std::move(t)); }

double svdvals(const Args& a) { return h(la::svdvals(a.t(0))); }
double svd(const Args& a) {
  la::SvdResult r = la::svd(a.t(0));
  return handles({r.U, r.S, r.Vh});
}
double qr(const Args& a) {
  la::QrResult r = la::qr(a.t(0));
  return handles({r.Q, r.R});
}
double eigh(const Args& a) {
  la::EighResult r = la::eigh(a.t(0));
  return handles({r.eigenvalues, r.eigenvectors});
}
double eigvalsh(const Args& a) { return h(la::eigvalsh(a.t(0))); }
double det(const Args& a) { return h(la::det(a.t(0))); }
double inv(const Args& a) { return h(la::inv(a.t(0))); }
double solve(const Args& a) { return h(la::solve(a.t(0), a.t(1))); }
int matrix_norm(int a, std::string ord) { return guard([&] { return h(la::matrix_norm(get(a), ord)); }); }
int matrix_norm_dims(int a, std::string ord, int d0, int d1, bool keep) {
  return guard([&] { return h(la::matrix_norm(get(a), ord, d0, d1, keep)); });
}
double matrix_rank(const Args& a) { return h(la::matrix_rank(a.t(0), std::isnan(a.d(1)) ? -1.0 : a.d(1))); }
// (a, q, niter, seed, seeded)
double svd_lowrank(const Args& a) {
  const uint64_t s = a.b(4) ? uint64_t(a.d(3)) : tp::global_rng().next_u64();
  la::LowrankResult r = la::svd_lowrank(a.t(0), a.i64(1), a.i64(2), s);
  return handles({r.U, r.S, r.V});
}

// The decompositions' kept work memory, for tp.memory(); its release is for the tests (a larger call frees it).
double scratch_bytes(const Args&) { return double(la::kept_scratch_bytes()); }
double release_scratch(const Args&) {
  la::release_kept_scratch();
  return 0.0;
}

// Arguments in the order JS passes them.
const tpw::OpRow kRows[] = {
    {"linalgSvdvals", R::Number, svdvals},
    {"linalgSvd", R::List, svd},
    {"linalgQr", R::List, qr},
    {"linalgEigh", R::List, eigh},
    {"linalgEigvalsh", R::Number, eigvalsh},
    {"linalgDet", R::Number, det},
    {"linalgInv", R::Number, inv},
    {"linalgSolve", R::Number, solve},
    {"linalgMatrixRank", R::Number, matrix_rank},
    {"linalgSvdLowrank", R::List, svd_lowrank},
    {"linalgScratchBytes", R::Number, scratch_bytes},
    {"linalgReleaseScratch", R::Number, release_scratch},
};
const tpw::OpRows kAdded(kRows);

}  // namespace

// The norms name their order by a string: embind functions of their own.
EMSCRIPTEN_BINDINGS(tensorpad_linalg) {
  emscripten::function("linalgMatrixNorm", &matrix_norm);
  emscripten::function("linalgMatrixNormDims", &matrix_norm_dims);
}
