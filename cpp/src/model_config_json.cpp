// parse_config(text): config.json parsed with nlohmann, read through the ConfigObject view. The
// WebAssembly module does not link this (JS parses the file and wasm/bind_model.cpp views that object).
#include <nlohmann/json.hpp>

#include "tensorpad/model.hpp"

namespace tp::model {

namespace {

using nlohmann::json;

class JsonObject : public ConfigObject {
 public:
  explicit JsonObject(const json& j) : j_(j) {}
  Kind kind(const char* key) const override {
    const json* v = at(key);
    if (!v || v->is_null()) return kAbsent;
    if (v->is_boolean()) return kBool;
    if (v->is_number_integer() || v->is_number_unsigned()) return kInt;
    if (v->is_number()) return kNumber;
    if (v->is_string()) return kString;
    if (v->is_object()) return kObject;
    if (v->is_array()) return kArray;
    return kOther;
  }
  double number(const char* key) const override { return at(key)->get<double>(); }
  bool boolean(const char* key) const override { return at(key)->get<bool>(); }
  std::string string(const char* key) const override { return at(key)->get<std::string>(); }
  std::string text(const char* key) const override { return at(key)->dump(); }
  std::unique_ptr<ConfigObject> object(const char* key) const override { return std::make_unique<JsonObject>(*at(key)); }
  std::vector<std::string> strings(const char* key) const override {
    std::vector<std::string> out;
    for (const auto& e : *at(key)) out.push_back(e.is_string() ? e.get<std::string>() : std::string());
    return out;
  }
  std::vector<double> integers(const char* key) const override {
    std::vector<double> out;
    for (const auto& e : *at(key))
      if (e.is_number_integer() || e.is_number_unsigned()) out.push_back(e.get<double>());
    return out;
  }

 private:
  const json* at(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
  }
  const json& j_;
};

}  // namespace

Config parse_config(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded()) fail("model.config", "config.json is not valid JSON");
  if (!j.is_object()) fail("model.config", "config.json must hold an object, got ", j.type_name());
  return parse_config(JsonObject(j));
}

}  // namespace tp::model
