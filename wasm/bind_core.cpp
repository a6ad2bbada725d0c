// Embind bindings of the tensor core: creation, layout, elementwise, reductions, products, comparison.
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
int dtype_of(int id) { return guard([&] { return int(get(id).dtype()); }); }
int to_dtype(int id, int d) { return guard([&] { return h(get(id).to(tp::DType(d))); }); }
val shape_of(int id) { return guard([&] { return tpw::from_shape(get(id).shape()); }); }
val strides_of(int id) { return guard([&] { return tpw::from_shape(get(id).strides()); }); }
bool is_contiguous(int id) { return guard([&] { return get(id).is_contiguous(); }); }
double item(int id) { return guard([&] { return get(id).item_double(); }); }
double live_bytes() { return double(tp::Storage::live_bytes()); }

// ---- creation ----
int empty(val shape, std::string op) { return guard([&] { return h(Tensor::empty(to_shape(shape), op.c_str())); }); }
int empty_as(val shape, int d, std::string op) {
  return guard([&] { return h(Tensor::empty(to_shape(shape), tp::DType(d), op.c_str())); });
}
int full(val shape, double v, int d, std::string op) {
  return guard([&] { return h(Tensor::full(to_shape(shape), v, tp::DType(d), op.c_str())); });
}
int eye(int n, int m) { return guard([&] { return h(tp::eye(n, m)); }); }
int arange(double s, double e, double st, int d) {
  return guard([&] { return h(tp::arange(s, e, st, tp::DType(d))); });
}
int randn(val shape, double seed, bool seeded) {
  return guard([&] {
    if (!seeded) return h(tp::randn(to_shape(shape), tp::global_rng()));
    tp::Rng rng{uint64_t(seed)};
    return h(tp::randn(to_shape(shape), rng));
  });
}
int rand_uniform(val shape, double seed, bool seeded) {
  return guard([&] {
    if (!seeded) return h(tp::rand(to_shape(shape), tp::global_rng()));
    tp::Rng rng{uint64_t(seed)};
    return h(tp::rand(to_shape(shape), rng));
  });
}
void manual_seed(double seed) { tp::manual_seed(uint64_t(seed)); }

// ---- layout ----
int reshape(int id, val shape) { return guard([&] { return h(tp::reshape(get(id), to_shape(shape))); }); }
int transpose(int id, int a, int b) { return guard([&] { return h(tp::transpose(get(id), a, b)); }); }
int permute(int id, val dims) { return guard([&] { return h(tp::permute(get(id), to_shape(dims))); }); }
int select_view(int id, int d, double i) { return guard([&] { return h(tp::select(get(id), d, int64_t(i))); }); }
int narrow(int id, int d, double s, double l) {
  return guard([&] { return h(tp::narrow(get(id), d, int64_t(s), int64_t(l))); });
}
int expand(int id, val shape) { return guard([&] { return h(tp::expand(get(id), to_shape(shape))); }); }
int unsqueeze(int id, int d) { return guard([&] { return h(tp::unsqueeze(get(id), d)); }); }
int contiguous(int id) { return guard([&] { return h(get(id).contiguous()); }); }
int clone(int id) { return guard([&] { return h(get(id).clone()); }); }
int stack(val ids, int d) { return guard([&] { return h(tp::stack(tpw::to_tensors(ids), d)); }); }
int cat(val ids, int d) { return guard([&] { return h(tp::cat(tpw::to_tensors(ids), d)); }); }

// ---- elementwise ----
int binary(int op, int a, int b) { return guard([&] { return h(tp::binary(tp::BinaryOp(op), get(a), get(b))); }); }
int binary_scalar(int op, int a, double s) {
  return guard([&] { return h(tp::binary_scalar(tp::BinaryOp(op), get(a), s)); });
}
int scalar_binary(int op, double s, int b) {
  return guard([&] { return h(tp::scalar_binary(tp::BinaryOp(op), s, get(b))); });
}
int unary(int op, int id) { return guard([&] { return h(tp::unary(tp::UnaryOp(op), get(id))); }); }
int clamp(int id, double lo, double hi) { return guard([&] { return h(tp::clamp(get(id), float(lo), float(hi))); }); }

// ---- reductions and products ----
int reduce(int op, int id, int d, bool keep) {
  return guard([&] { return h(tp::reduce(tp::ReduceOp(op), get(id), d, keep)); });
}
int reduce_all(int op, int id) { return guard([&] { return h(tp::reduce_all(tp::ReduceOp(op), get(id))); }); }
int reduce_dims(int op, int id, val dims, bool keep) {
  return guard([&] { return h(tp::reduce_dims(tp::ReduceOp(op), get(id), to_shape(dims), keep)); });
}
int cumsum(int id, int d) { return guard([&] { return h(tp::cumsum(get(id), d)); }); }
int softmax(int id, int d) { return guard([&] { return h(tp::softmax(get(id), d)); }); }
int matmul(int a, int b) { return guard([&] { return h(tp::matmul(get(a), get(b))); }); }
int outer(int a, int b) { return guard([&] { return h(tp::outer(get(a), get(b))); }); }

// ---- comparison and norms ----
int isclose(int a, int b, double rtol, double atol, bool equal_nan) {
  return guard([&] { return h(tp::isclose(get(a), get(b), rtol, atol, equal_nan)); });
}
bool allclose(int a, int b, double rtol, double atol, bool equal_nan) {
  return guard([&] { return tp::allclose(get(a), get(b), rtol, atol, equal_nan); });
}
int vector_norm(int id, double ord, val dims, bool keep) {
  return guard([&] { return h(tp::vector_norm(get(id), ord, to_shape(dims), keep)); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_core) {
  using emscripten::function;
  function("errorPending", &tpw::error_pending);
  function("takeError", &tpw::take_error);
  function("release", &tpw::release);
  function("liveHandles", &tpw::live_handles);
  function("liveBytes", &live_bytes);
  function("view", &tensor_view);
  function("copyOut", &copy_out);
  function("shape", &shape_of);
  function("strides", &strides_of);
  function("isContiguous", &is_contiguous);
  function("item", &item);
  function("dtype", &dtype_of);
  function("to", &to_dtype);
  function("empty", &empty);
  function("emptyAs", &empty_as);
  function("full", &full);
  function("eye", &eye);
  function("arange", &arange);
  function("randn", &randn);
  function("rand", &rand_uniform);
  function("manualSeed", &manual_seed);
  function("reshape", &reshape);
  function("transpose", &transpose);
  function("permute", &permute);
  function("select", &select_view);
  function("narrow", &narrow);
  function("expand", &expand);
  function("unsqueeze", &unsqueeze);
  function("contiguous", &contiguous);
  function("clone", &clone);
  function("stack", &stack);
  function("cat", &cat);
  function("binary", &binary);
  function("binaryScalar", &binary_scalar);
  function("scalarBinary", &scalar_binary);
  function("unary", &unary);
  function("clamp", &clamp);
  function("reduce", &reduce);
  function("reduceAll", &reduce_all);
  function("reduceDims", &reduce_dims);
  function("cumsum", &cumsum);
  function("softmax", &softmax);
  function("matmul", &matmul);
  function("outer", &outer);
  function("isclose", &isclose);
  function("allclose", &allclose);
  function("vectorNorm", &vector_norm);
}
