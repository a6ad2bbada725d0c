// Reading numpy-made fixtures (tests/fixtures/**.json) into tensors, for the C++ suite.
#pragma once
#include <cmath>
#include <fstream>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "tensorpad/tensor.hpp"

namespace fixtures {

inline nlohmann::json load(const std::string& relative) {
  std::ifstream in(std::string(TP_FIXTURES_DIR) + "/" + relative);
  if (!in) throw std::runtime_error("missing fixture " + relative);
  return nlohmann::json::parse(in);
}

// Non-finite values travel as the strings "inf", "-inf" and "nan".
inline float number(const nlohmann::json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<float>::quiet_NaN();
    return s == "inf" ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  }
  return v.get<float>();
}

inline tp::Tensor tensor(const nlohmann::json& j) {
  tp::Shape shape = j.at("shape").get<tp::Shape>();
  tp::Tensor t = tp::Tensor::empty(shape);
  const auto& data = j.at("data");
  for (size_t i = 0; i < data.size(); ++i) t.data()[i] = number(data[i]);
  return t;
}

// |got - want| <= atol + rtol * |want| everywhere, with equal shapes; returns a description of the
// first failure, or "" when all match.
inline std::string mismatch(const tp::Tensor& got_in, const tp::Tensor& want, double atol, double rtol) {
  const tp::Tensor got = got_in.contiguous();
  if (got.shape() != want.shape()) return "shape " + tp::shape_str(got.shape()) + " != " + tp::shape_str(want.shape());
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double g = got.data()[i], w = want.data()[i];
    if (g == w) continue;
    if (std::isnan(g) || std::isnan(w) || std::fabs(g - w) > atol + rtol * std::fabs(w))
      return "index " + std::to_string(i) + ": got " + std::to_string(g) + ", want " + std::to_string(w);
  }
  return "";
}

}  // namespace fixtures
