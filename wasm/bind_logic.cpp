// Bindings of tensorpad/logic.hpp for wasm/js/logic.js: comparisons, where, maskedFill, logical ops,
// any/all. No math here. An operand is a tensor handle, or (when its handle is 0) the JS number beside it.
#include "handles.hpp"
#include "tensorpad/logic.hpp"

using tp::Tensor;
using tpw::put;

namespace {

using tpw::Args;
using R = tpw::Result;

int h(Tensor t) { return put(std::move(t)); }
// An operand in two slots: a tensor handle, or (handle 0) the number in the next slot.
tp::Operand operand(const Args& a, int k) { return a.i(k) ? tp::Operand::of(a.t(k)) : tp::Operand::of(a.d(k + 1)); }

// (op, a, aNumber, b, bNumber)
double compare(const Args& a) { return h(tp::compare(tp::CompareOp(a.i(0)), operand(a, 1), operand(a, 3))); }
// (cond, a, aNumber, b, bNumber)
double where(const Args& a) { return h(tp::where(a.t(0), operand(a, 1), operand(a, 3))); }
double masked_fill(const Args& a) { return h(tp::masked_fill(a.t(0), a.t(1), a.d(2))); }
double logical(const Args& a) { return h(tp::logical(tp::LogicOp(a.i(0)), a.t(1), a.t(2))); }
double logical_not(const Args& a) { return h(tp::logical_not(a.t(0))); }
// (any, x, dims, keepdim)
double any_all(const Args& a) {
  const std::vector<int64_t> d = a.shape(2);
  return h(a.b(0) ? tp::any(a.t(1), d, a.b(3)) : tp::all(a.t(1), d, a.b(3)));
}

// Arguments in the order JS passes them.
const tpw::OpRow kRows[] = {
    {"compare", R::Number, compare},
    {"where", R::Number, where},
    {"maskedFill", R::Number, masked_fill},
    {"logical", R::Number, logical},
    {"logicalNot", R::Number, logical_not},
    {"anyAll", R::Number, any_all},
};
const tpw::OpRows kAdded(kRows);

}  // namespace
