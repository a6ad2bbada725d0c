// Embind bindings of issue 22's ops (cpp/include/tensorpad/ops_extra.hpp): ranges, views, layout
// copies, reductions, index ops, einsum and linalg's matrixPower, pinv and cond. Unwrap, call, wrap: no math here.
#include "handles.hpp"
#include "tensorpad/ops_extra.hpp"

using emscripten::val;
using tp::Tensor;
using tpw::get;
using tpw::guard;
using tpw::put;
using tpw::to_shape;

namespace {

int h(Tensor t) { return put(std::move(t)); }
val handles(const std::vector<Tensor>& ts) {
  val a = val::array();
  for (size_t i = 0; i < ts.size(); ++i) a.set(i, h(ts[i]));
  return a;
}

int linspace(double s, double e, double n, int d) {
  return guard([&] { return h(tp::linspace(s, e, int64_t(n), tp::DType(d))); });
}
int logspace(double s, double e, double n, double base, int d) {
  return guard([&] { return h(tp::logspace(s, e, int64_t(n), base, tp::DType(d))); });
}
val split(int id, double size, int d) { return guard([&] { return handles(tp::split(get(id), int64_t(size), d)); }); }
val split_sizes(int id, val sizes, int d) {
  return guard([&] { return handles(tp::split_sizes(get(id), to_shape(sizes), d)); });
}
val chunk(int id, int n, int d) { return guard([&] { return handles(tp::chunk(get(id), n, d)); }); }
int flatten(int id, int s, int e) { return guard([&] { return h(tp::flatten(get(id), s, e)); }); }
int unflatten(int id, int d, val sizes) { return guard([&] { return h(tp::unflatten(get(id), d, to_shape(sizes))); }); }
int squeeze(int id, val dims, bool all) { return guard([&] { return h(tp::squeeze(get(id), to_shape(dims), all)); }); }
int flip(int id, val dims) { return guard([&] { return h(tp::flip(get(id), to_shape(dims))); }); }
int roll(int id, val shifts, val dims) {
  return guard([&] { return h(tp::roll(get(id), to_shape(shifts), to_shape(dims))); });
}
int repeat(int id, val reps) { return guard([&] { return h(tp::repeat(get(id), to_shape(reps))); }); }
int tile(int id, val reps) { return guard([&] { return h(tp::tile(get(id), to_shape(reps))); }); }
int tril(int id, double k) { return guard([&] { return h(tp::tril(get(id), int64_t(k))); }); }
int triu(int id, double k) { return guard([&] { return h(tp::triu(get(id), int64_t(k))); }); }

int var(int id, val dims, double correction, bool keep) {
  return guard([&] { return h(tp::var(get(id), to_shape(dims), correction, keep)); });
}
int std_dev(int id, val dims, double correction, bool keep) {
  return guard([&] { return h(tp::std_dev(get(id), to_shape(dims), correction, keep)); });
}
int logsumexp(int id, val dims, bool keep) { return guard([&] { return h(tp::logsumexp(get(id), to_shape(dims), keep)); }); }
int prod(int id, int d, bool keep) { return guard([&] { return h(tp::prod(get(id), d, keep)); }); }
int prod_all(int id) { return guard([&] { return h(tp::prod_all(get(id))); }); }
int cumprod(int id, int d) { return guard([&] { return h(tp::cumprod(get(id), d)); }); }
int log_softmax(int id, int d) { return guard([&] { return h(tp::log_softmax(get(id), d)); }); }
int einsum(std::string eq, val ids) { return guard([&] { return h(tp::einsum(eq, tpw::to_tensors(ids))); }); }

val pair(tp::ValuesIndices r) { return handles({r.values, r.indices}); }
int argmax(int id, int d, bool keep) { return guard([&] { return h(tp::argmax(get(id), d, keep)); }); }
int argmin(int id, int d, bool keep) { return guard([&] { return h(tp::argmin(get(id), d, keep)); }); }
int argmax_all(int id) { return guard([&] { return h(tp::argmax_all(get(id))); }); }
int argmin_all(int id) { return guard([&] { return h(tp::argmin_all(get(id))); }); }
val max_dim(int id, int d, bool keep) { return guard([&] { return pair(tp::max_dim(get(id), d, keep)); }); }
val min_dim(int id, int d, bool keep) { return guard([&] { return pair(tp::min_dim(get(id), d, keep)); }); }
int max_all(int id) { return guard([&] { return h(tp::max_all(get(id))); }); }
int min_all(int id) { return guard([&] { return h(tp::min_all(get(id))); }); }
val topk(int id, double k, int d, bool largest) {
  return guard([&] { return pair(tp::topk(get(id), int64_t(k), d, largest, true)); });
}
val sort(int id, int d, bool desc) { return guard([&] { return pair(tp::sort(get(id), d, desc)); }); }
int argsort(int id, int d, bool desc) { return guard([&] { return h(tp::sort(get(id), d, desc).indices); }); }
int gather(int id, int d, int index) { return guard([&] { return h(tp::gather(get(id), d, get(index))); }); }
int index_select(int id, int d, int index) { return guard([&] { return h(tp::index_select(get(id), d, get(index))); }); }
int embedding(int ids, int w) { return guard([&] { return h(tp::embedding(get(ids), get(w))); }); }

int matrix_power(int id, double k) { return guard([&] { return h(tp::linalg::matrix_power(get(id), int64_t(k))); }); }
int pinv(int id, double atol, double rtol) { return guard([&] { return h(tp::linalg::pinv(get(id), atol, rtol)); }); }
int cond(int id, std::string ord) { return guard([&] { return h(tp::linalg::cond(get(id), ord)); }); }

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_ops) {
  using emscripten::function;
  function("linspace", &linspace);
  function("logspace", &logspace);
  function("split", &split);
  function("splitSizes", &split_sizes);
  function("chunk", &chunk);
  function("flatten", &flatten);
  function("unflatten", &unflatten);
  function("squeeze", &squeeze);
  function("flip", &flip);
  function("roll", &roll);
  function("repeat", &repeat);
  function("tile", &tile);
  function("tril", &tril);
  function("triu", &triu);
  function("variance", &var);
  function("stdDev", &std_dev);
  function("logsumexp", &logsumexp);
  function("prod", &prod);
  function("prodAll", &prod_all);
  function("cumprod", &cumprod);
  function("logSoftmax", &log_softmax);
  function("einsum", &einsum);
  function("argmax", &argmax);
  function("argmin", &argmin);
  function("argmaxAll", &argmax_all);
  function("argminAll", &argmin_all);
  function("maxDim", &max_dim);
  function("minDim", &min_dim);
  function("maxAll", &max_all);
  function("minAll", &min_all);
  function("topk", &topk);
  function("sort", &sort);
  function("argsort", &argsort);
  function("gather", &gather);
  function("indexSelect", &index_select);
  function("nnEmbedding", &embedding);
  function("linalgMatrixPower", &matrix_power);
  function("linalgPinv", &pinv);
  function("linalgCond", &cond);
}
