// Bindings of issue 22's ops (cpp/include/tensorpad/ops_extra.hpp): ranges, views, layout
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

using tpw::Args;
using R = tpw::Result;

int h(Tensor t) { return put(std::move(t)); }

double linspace(const Args& a) { return h(tp::linspace(a.d(0), a.d(1), a.i64(2), tp::DType(a.i(3)))); }
double logspace(const Args& a) { return h(tp::logspace(a.d(0), a.d(1), a.i64(2), a.d(3), tp::DType(a.i(4)))); }
double split(const Args& a) { return tpw::handles(tp::split(a.t(0), a.i64(1), a.i(2))); }
double split_sizes(const Args& a) { return tpw::handles(tp::split_sizes(a.t(0), a.shape(1), a.i(2))); }
double chunk(const Args& a) { return tpw::handles(tp::chunk(a.t(0), a.i(1), a.i(2))); }
double flatten(const Args& a) { return h(tp::flatten(a.t(0), a.i(1), a.i(2))); }
double unflatten(const Args& a) { return h(tp::unflatten(a.t(0), a.i(1), a.shape(2))); }
double squeeze(const Args& a) { return h(tp::squeeze(a.t(0), a.shape(1), a.b(2))); }
double flip(const Args& a) { return h(tp::flip(a.t(0), a.shape(1))); }
double roll(const Args& a) { return h(tp::roll(a.t(0), a.shape(1), a.shape(2))); }
double repeat(const Args& a) { return h(tp::repeat(a.t(0), a.shape(1))); }
double tile(const Args& a) { return h(tp::tile(a.t(0), a.shape(1))); }
double tril(const Args& a) { return h(tp::tril(a.t(0), a.i64(1))); }
double triu(const Args& a) { return h(tp::triu(a.t(0), a.i64(1))); }

double var(const Args& a) { return h(tp::var(a.t(0), a.shape(1), a.d(2), a.b(3))); }
double std_dev(const Args& a) { return h(tp::std_dev(a.t(0), a.shape(1), a.d(2), a.b(3))); }
double logsumexp(const Args& a) { return h(tp::logsumexp(a.t(0), a.shape(1), a.b(2))); }
double prod(const Args& a) { return h(tp::prod(a.t(0), a.i(1), a.b(2))); }
double prod_all(const Args& a) { return h(tp::prod_all(a.t(0))); }
double cumprod(const Args& a) { return h(tp::cumprod(a.t(0), a.i(1))); }
double log_softmax(const Args& a) { return h(tp::log_softmax(a.t(0), a.i(1))); }
int einsum(std::string eq, val ids) { return guard([&] { return h(tp::einsum(eq, tpw::to_tensors(ids))); }); }

double pair(tp::ValuesIndices r) { return tpw::handles({r.values, r.indices}); }
double argmax(const Args& a) { return h(tp::argmax(a.t(0), a.i(1), a.b(2))); }
double argmin(const Args& a) { return h(tp::argmin(a.t(0), a.i(1), a.b(2))); }
double argmax_all(const Args& a) { return h(tp::argmax_all(a.t(0))); }
double argmin_all(const Args& a) { return h(tp::argmin_all(a.t(0))); }
double max_dim(const Args& a) { return pair(tp::max_dim(a.t(0), a.i(1), a.b(2))); }
double min_dim(const Args& a) { return pair(tp::min_dim(a.t(0), a.i(1), a.b(2))); }
double max_all(const Args& a) { return h(tp::max_all(a.t(0))); }
double min_all(const Args& a) { return h(tp::min_all(a.t(0))); }
double topk(const Args& a) { return pair(tp::topk(a.t(0), a.i64(1), a.i(2), a.b(3), true)); }
double sort(const Args& a) { return pair(tp::sort(a.t(0), a.i(1), a.b(2))); }
double argsort(const Args& a) { return h(tp::sort(a.t(0), a.i(1), a.b(2)).indices); }
double gather(const Args& a) { return h(tp::gather(a.t(0), a.i(1), a.t(2))); }
double index_select(const Args& a) { return h(tp::index_select(a.t(0), a.i(1), a.t(2))); }
double embedding(const Args& a) { return h(tp::embedding(a.t(0), a.t(1))); }

double matrix_power(const Args& a) { return h(tp::linalg::matrix_power(a.t(0), a.i64(1))); }
double pinv(const Args& a) { return h(tp::linalg::pinv(a.t(0), a.d(1), a.d(2))); }
int cond(int id, std::string ord) { return guard([&] { return h(tp::linalg::cond(get(id), ord)); }); }

// Arguments in the order JS passes them.
const tpw::OpRow kRows[] = {
    {"linspace", R::Number, linspace},
    {"logspace", R::Number, logspace},
    {"split", R::List, split},
    {"splitSizes", R::List, split_sizes},
    {"chunk", R::List, chunk},
    {"flatten", R::Number, flatten},
    {"unflatten", R::Number, unflatten},
    {"squeeze", R::Number, squeeze},
    {"flip", R::Number, flip},
    {"roll", R::Number, roll},
    {"repeat", R::Number, repeat},
    {"tile", R::Number, tile},
    {"tril", R::Number, tril},
    {"triu", R::Number, triu},
    {"variance", R::Number, var},
    {"stdDev", R::Number, std_dev},
    {"logsumexp", R::Number, logsumexp},
    {"prod", R::Number, prod},
    {"prodAll", R::Number, prod_all},
    {"cumprod", R::Number, cumprod},
    {"logSoftmax", R::Number, log_softmax},
    {"argmax", R::Number, argmax},
    {"argmin", R::Number, argmin},
    {"argmaxAll", R::Number, argmax_all},
    {"argminAll", R::Number, argmin_all},
    {"maxDim", R::List, max_dim},
    {"minDim", R::List, min_dim},
    {"maxAll", R::Number, max_all},
    {"minAll", R::Number, min_all},
    {"topk", R::List, topk},
    {"sort", R::List, sort},
    {"argsort", R::Number, argsort},
    {"gather", R::Number, gather},
    {"indexSelect", R::Number, index_select},
    {"nnEmbedding", R::Number, embedding},
    {"linalgMatrixPower", R::Number, matrix_power},
    {"linalgPinv", R::Number, pinv},
};
const tpw::OpRows kAdded(kRows);

}  // namespace

// The two ops that take a string stay embind functions of their own.
EMSCRIPTEN_BINDINGS(tensorpad_ops) {
  emscripten::function("einsum", &einsum);
  emscripten::function("linalgCond", &cond);
}
