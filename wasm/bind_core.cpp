// Bindings of the tensor core: creation, layout, elementwise, reductions, products, comparison. Most are
// rows of the generic entry (handles.hpp); what takes a string or returns a typed array is an embind function.
#include <cmath>

#include "handles.hpp"
#include "tensorpad/ops.hpp"
#include "tensorpad/random.hpp"

using emscripten::val;
using tp::Tensor;
using tpw::get;
using tpw::guard;
using tpw::put;
using tpw::to_shape;

namespace {

int h(Tensor t) { return put(std::move(t)); }

// ---- handles and memory ----
// A typed array onto a contiguous tensor's elements: Float32Array, Float64Array, Int32Array, Int16Array,
// Int8Array, or Uint8Array (uint8, bool); Uint16Array holds float16/bfloat16 bits, and int64 has none
// (JS reads it through float64). Valid only until the heap grows, so JS copies or fills it at once.
val typed_view(const Tensor& t) {
  const size_t n = size_t(t.numel());
  void* p = const_cast<void*>(t.raw());
  using emscripten::typed_memory_view;
  switch (t.dtype()) {
    case tp::DType::Float32: return val(typed_memory_view(n, static_cast<float*>(p)));
    case tp::DType::Float64: return val(typed_memory_view(n, static_cast<double*>(p)));
    case tp::DType::Int32: return val(typed_memory_view(n, static_cast<int32_t*>(p)));
    case tp::DType::Int16: return val(typed_memory_view(n, static_cast<int16_t*>(p)));
    case tp::DType::Int8: return val(typed_memory_view(n, static_cast<int8_t*>(p)));
    case tp::DType::UInt8:
    case tp::DType::Bool: return val(typed_memory_view(n, static_cast<uint8_t*>(p)));
    case tp::DType::Float16:
    case tp::DType::BFloat16: return val(typed_memory_view(n, static_cast<uint16_t*>(p)));
    case tp::DType::Int64: break;
  }
  throw tp::Error("view: an int64 tensor has no typed view (read it as float64)");
}
val tensor_view(int id) {
  return guard([&] {
    const Tensor& t = get(id);
    if (!t.is_contiguous()) throw tp::Error("view: tensor is not contiguous");
    return typed_view(t);
  });
}
// A copy of the elements as JS reads them: 16-bit floats widened to float32, int64 to float64 (exact
// within 2^53), every other dtype in its own typed array (bool as 0/1 bytes).
val copy_out(int id) {
  return guard([&] {
    const Tensor& t = get(id);
    const tp::DType d = t.dtype();
    const tp::DType js = d == tp::DType::Float16 || d == tp::DType::BFloat16 ? tp::DType::Float32
                         : d == tp::DType::Int64                              ? tp::DType::Float64
                                                                              : d;
    const Tensor c = t.to(js).contiguous();
    return typed_view(c).call<val>("slice");
  });
}
using tpw::Args;
using R = tpw::Result;

double list_of(const std::vector<int64_t>& v) { return tpw::list(v); }
double dtype_of(const Args& a) { return int(a.t(0).dtype()); }
double to_dtype(const Args& a) { return h(a.t(0).to(tp::DType(a.i(1)))); }
double shape_of(const Args& a) { return list_of(a.t(0).shape()); }
double strides_of(const Args& a) { return list_of(a.t(0).strides()); }
double is_contiguous(const Args& a) { return a.t(0).is_contiguous(); }
double item(const Args& a) { return a.t(0).item_double(); }
double live_bytes(const Args&) { return double(tp::Storage::live_bytes()); }

// ---- creation ----
int empty(val shape, std::string op) { return guard([&] { return h(Tensor::empty(to_shape(shape), op.c_str())); }); }
int empty_as(val shape, int d, std::string op) {
  return guard([&] { return h(Tensor::empty(to_shape(shape), tp::DType(d), op.c_str())); });
}
int full(val shape, double v, int d, std::string op) {
  return guard([&] { return h(Tensor::full(to_shape(shape), v, tp::DType(d), op.c_str())); });
}
double eye(const Args& a) { return h(tp::eye(a.i(0), a.i(1))); }
double arange(const Args& a) { return h(tp::arange(a.d(0), a.d(1), a.d(2), tp::DType(a.i(3)))); }
// (shape, seed, seeded): unseeded draws continue the global stream.
template <Tensor (*draw)(const std::vector<int64_t>&, tp::Rng&)>
double random(const Args& a) {
  if (!a.b(2)) return h(draw(a.shape(0), tp::global_rng()));
  tp::Rng rng{uint64_t(a.d(1))};
  return h(draw(a.shape(0), rng));
}
Tensor draw_normal(const std::vector<int64_t>& s, tp::Rng& r) { return tp::randn(s, r); }
Tensor draw_uniform(const std::vector<int64_t>& s, tp::Rng& r) { return tp::rand(s, r); }
double manual_seed(const Args& a) {
  tp::manual_seed(uint64_t(a.d(0)));
  return 0;
}

// ---- layout ----
double reshape(const Args& a) { return h(tp::reshape(a.t(0), a.shape(1))); }
double transpose(const Args& a) { return h(tp::transpose(a.t(0), a.i(1), a.i(2))); }
double permute(const Args& a) { return h(tp::permute(a.t(0), a.shape(1))); }
double select_view(const Args& a) { return h(tp::select(a.t(0), a.i(1), a.i64(2))); }
double narrow(const Args& a) { return h(tp::narrow(a.t(0), a.i(1), a.i64(2), a.i64(3))); }
double expand(const Args& a) { return h(tp::expand(a.t(0), a.shape(1))); }
double unsqueeze(const Args& a) { return h(tp::unsqueeze(a.t(0), a.i(1))); }
double contiguous(const Args& a) { return h(a.t(0).contiguous()); }
double clone(const Args& a) { return h(a.t(0).clone()); }
double stack(const Args& a) { return h(tp::stack(a.tensors(0), a.i(1))); }
double cat(const Args& a) { return h(tp::cat(a.tensors(0), a.i(1))); }

// ---- elementwise ----
double binary(const Args& a) { return h(tp::binary(tp::BinaryOp(a.i(0)), a.t(1), a.t(2))); }
double binary_scalar(const Args& a) { return h(tp::binary_scalar(tp::BinaryOp(a.i(0)), a.t(1), a.d(2))); }
double scalar_binary(const Args& a) { return h(tp::scalar_binary(tp::BinaryOp(a.i(0)), a.d(1), a.t(2))); }
double unary(const Args& a) { return h(tp::unary(tp::UnaryOp(a.i(0)), a.t(1))); }
double clamp(const Args& a) { return h(tp::clamp(a.t(0), float(a.d(1)), float(a.d(2)))); }

// ---- reductions and products ----
double reduce(const Args& a) { return h(tp::reduce(tp::ReduceOp(a.i(0)), a.t(1), a.i(2), a.b(3))); }
double reduce_all(const Args& a) { return h(tp::reduce_all(tp::ReduceOp(a.i(0)), a.t(1))); }
double reduce_dims(const Args& a) { return h(tp::reduce_dims(tp::ReduceOp(a.i(0)), a.t(1), a.shape(2), a.b(3))); }
double cumsum(const Args& a) { return h(tp::cumsum(a.t(0), a.i(1))); }
double softmax(const Args& a) { return h(tp::softmax(a.t(0), a.i(1))); }
double matmul(const Args& a) { return h(tp::matmul(a.t(0), a.t(1))); }
double outer(const Args& a) { return h(tp::outer(a.t(0), a.t(1))); }

// ---- comparison and norms ----
double isclose(const Args& a) { return h(tp::isclose(a.t(0), a.t(1), a.d(2), a.d(3), a.b(4))); }
double allclose(const Args& a) { return tp::allclose(a.t(0), a.t(1), a.d(2), a.d(3), a.b(4)); }
double vector_norm(const Args& a) { return h(tp::vector_norm(a.t(0), a.d(1), a.shape(2), a.b(3))); }

// Arguments in the order JS passes them (core.reshape(id, shape)).
const tpw::OpRow kRows[] = {
    {"liveBytes", R::Number, live_bytes},
    {"shape", R::List, shape_of},
    {"strides", R::List, strides_of},
    {"isContiguous", R::Bool, is_contiguous},
    {"item", R::Number, item},
    {"dtype", R::Number, dtype_of},
    {"to", R::Number, to_dtype},
    {"eye", R::Number, eye},
    {"arange", R::Number, arange},
    {"randn", R::Number, random<draw_normal>},
    {"rand", R::Number, random<draw_uniform>},
    {"manualSeed", R::Number, manual_seed},
    {"reshape", R::Number, reshape},
    {"transpose", R::Number, transpose},
    {"permute", R::Number, permute},
    {"select", R::Number, select_view},
    {"narrow", R::Number, narrow},
    {"expand", R::Number, expand},
    {"unsqueeze", R::Number, unsqueeze},
    {"contiguous", R::Number, contiguous},
    {"clone", R::Number, clone},
    {"stack", R::Number, stack},
    {"cat", R::Number, cat},
    {"binary", R::Number, binary},
    {"binaryScalar", R::Number, binary_scalar},
    {"scalarBinary", R::Number, scalar_binary},
    {"unary", R::Number, unary},
    {"clamp", R::Number, clamp},
    {"reduce", R::Number, reduce},
    {"reduceAll", R::Number, reduce_all},
    {"reduceDims", R::Number, reduce_dims},
    {"cumsum", R::Number, cumsum},
    {"softmax", R::Number, softmax},
    {"matmul", R::Number, matmul},
    {"outer", R::Number, outer},
    {"isclose", R::Number, isclose},
    {"allclose", R::Bool, allclose},
    {"vectorNorm", R::Number, vector_norm},
};
const tpw::OpRows kAdded(kRows);

}  // namespace

// What takes or returns a string, a typed array or nothing goes through embind itself.
EMSCRIPTEN_BINDINGS(tensorpad_core) {
  using emscripten::function;
  function("errorPending", &tpw::error_pending);
  function("takeError", &tpw::take_error);
  function("release", &tpw::release);
  function("liveHandles", &tpw::live_handles);
  function("view", &tensor_view);
  function("copyOut", &copy_out);
  function("empty", &empty);
  function("emptyAs", &empty_as);
  function("full", &full);
}
