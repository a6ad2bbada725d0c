// Embind bindings of tensorpad/logic.hpp for wasm/js/logic.js: comparisons, where, maskedFill, logical ops,
// any/all. No math here. An operand is a tensor handle, or (when its handle is 0) the JS number beside it.
#include "handles.hpp"
#include "tensorpad/logic.hpp"

using emscripten::val;
using tp::Tensor;
using tpw::get;
using tpw::guard;
using tpw::put;

namespace {

int h(Tensor t) { return put(std::move(t)); }
tp::Operand operand(int id, double number) { return id ? tp::Operand::of(get(id)) : tp::Operand::of(number); }

int compare(int op, int a, double an, int b, double bn) {
  return guard([&] { return h(tp::compare(tp::CompareOp(op), operand(a, an), operand(b, bn))); });
}
int where(int cond, int a, double an, int b, double bn) {
  return guard([&] { return h(tp::where(get(cond), operand(a, an), operand(b, bn))); });
}
int masked_fill(int x, int mask, double value) { return guard([&] { return h(tp::masked_fill(get(x), get(mask), value)); }); }
int logical(int op, int a, int b) { return guard([&] { return h(tp::logical(tp::LogicOp(op), get(a), get(b))); }); }
int logical_not(int x) { return guard([&] { return h(tp::logical_not(get(x))); }); }
int any_all(bool any, int x, val dims, bool keepdim) {
  return guard([&] {
    const std::vector<int64_t> d = tpw::to_shape(dims);
    return h(any ? tp::any(get(x), d, keepdim) : tp::all(get(x), d, keepdim));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_logic) {
  using emscripten::function;
  function("compare", &compare);
  function("where", &where);
  function("maskedFill", &masked_fill);
  function("logical", &logical);
  function("logicalNot", &logical_not);
  function("anyAll", &any_all);
}
