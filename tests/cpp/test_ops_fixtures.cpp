// Every op of the core against numpy's results on the same inputs (tests/fixtures/core/ops.json).
#include <doctest/doctest.h>

#include <map>

#include "fixtures.hpp"
#include "tensorpad/ops.hpp"

using tp::Tensor;

namespace {

Tensor run_case(const nlohmann::json& c) {
  const std::string op = c["op"];
  const auto& args = c["args"];
  std::map<std::string, Tensor> in;
  for (auto& [k, v] : c["inputs"].items()) in.emplace(k, fixtures::tensor(v));
  static const std::map<std::string, tp::BinaryOp> binary = {{"add", tp::BinaryOp::Add}, {"sub", tp::BinaryOp::Sub},
      {"mul", tp::BinaryOp::Mul}, {"div", tp::BinaryOp::Div}, {"pow", tp::BinaryOp::Pow}};
  static const std::map<std::string, tp::UnaryOp> unary = {{"neg", tp::UnaryOp::Neg}, {"abs", tp::UnaryOp::Abs},
      {"exp", tp::UnaryOp::Exp}, {"square", tp::UnaryOp::Square}, {"sqrt", tp::UnaryOp::Sqrt},
      {"log", tp::UnaryOp::Log}, {"round", tp::UnaryOp::Round}};
  static const std::map<std::string, tp::ReduceOp> reduce = {{"sum", tp::ReduceOp::Sum},
      {"mean", tp::ReduceOp::Mean}, {"amax", tp::ReduceOp::Amax}, {"amin", tp::ReduceOp::Amin},
      {"median", tp::ReduceOp::Median}};
  if (binary.count(op)) return tp::binary(binary.at(op), in.at("a"), in.at("b"));
  if (unary.count(op)) return tp::unary(unary.at(op), in.at("x"));
  if (reduce.count(op)) {
    if (args.contains("dims")) return tp::reduce_dims(reduce.at(op), in.at("x"), args["dims"].get<std::vector<int64_t>>(), args["keepdim"]);
    if (args["dim"].is_null()) return tp::reduce_all(reduce.at(op), in.at("x"));
    return tp::reduce(reduce.at(op), in.at("x"), args["dim"], args["keepdim"]);
  }
  if (op == "clamp") return tp::clamp(in.at("x"), args["min"], args["max"]);
  if (op == "cumsum") return tp::cumsum(in.at("x"), args["dim"]);
  if (op == "softmax") return tp::softmax(in.at("x"), args["dim"]);
  if (op == "matmul") return tp::matmul(in.at("a"), in.at("b"));
  if (op == "outer") return tp::outer(in.at("a"), in.at("b"));
  if (op == "transpose") return tp::transpose(in.at("x"), args["dim0"], args["dim1"]);
  if (op == "permute") return tp::permute(in.at("x"), args["dims"].get<tp::Shape>());
  if (op == "reshape") return tp::reshape(in.at("x"), args["shape"].get<tp::Shape>());
  if (op == "select") return tp::select(in.at("x"), args["dim"], args["index"]);
  if (op == "narrow") return tp::narrow(in.at("x"), args["dim"], args["start"], args["length"]);
  if (op == "stack") return tp::stack({in.at("a"), in.at("b")}, args["dim"]);
  if (op == "cat") return tp::cat({in.at("a"), in.at("b")}, args["dim"]);
  if (op == "norm") {  // ord: a number, "inf", "-inf" or "fro" (2 over every element)
    const double ord = !args["ord"].is_string() ? args["ord"].get<double>()
        : args["ord"] == "inf" ? INFINITY : args["ord"] == "-inf" ? -INFINITY : 2.0;
    if (args.contains("dims")) return tp::vector_norm(in.at("x"), ord, args["dims"].get<std::vector<int64_t>>(), args["keepdim"]);
    std::vector<int64_t> dims;
    if (!args["dim"].is_null()) dims.push_back(args["dim"]);
    return tp::vector_norm(in.at("x"), ord, dims, false);
  }
  if (op == "isclose")  // bool, compared as 0/1 floats with numpy's
    return tp::isclose(in.at("a"), in.at("b"), args["rtol"], args["atol"], args["equal_nan"]).to(tp::DType::Float32);
  throw std::runtime_error("fixture op " + op + " has no runner");
}

}  // namespace

TEST_CASE("every core op matches numpy on the committed fixtures") {
  const auto doc = fixtures::load("core/ops.json");
  REQUIRE(doc["cases"].size() >= 160);
  for (const auto& c : doc["cases"]) {
    CAPTURE(c["op"].get<std::string>());
    CAPTURE(c["args"].dump());
    const Tensor got = run_case(c);
    const Tensor want = fixtures::tensor(c["expect"]);
    CHECK(fixtures::mismatch(got, want, 1e-5, 1e-5) == "");
  }
}
