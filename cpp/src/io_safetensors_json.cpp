// The native JSON reader of safetensors headers: nlohmann's SAX parser finds the root object's members,
// which check_safetensors_header (io_safetensors.cpp) validates. The WebAssembly module does not link this
// file: wasm/js/safetensors-json.js reads the header there, with the same messages.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include <nlohmann/json.hpp>

#include "io_safetensors_text.hpp"
#include "tensorpad/io.hpp"

namespace tp::io {

namespace {

constexpr const char* kOp = "safetensors";
constexpr int kMaxJsonDepth = 16;  // a valid header nests 3 deep; deep nesting is only ever an attack
using detail::kHex;
using detail::quote_name;

// std::map objects: nlohmann's ordered_json inserts in linear time, which makes a 10k-tensor header take
// seconds (and a 100 MB one forever). The file's order of tensors is recorded while parsing instead.
using Json = nlohmann::json;

// Reads a JSON integer that must be a non-negative int64 (dimensions, offsets).
bool as_count(const Json& v, int64_t* out) {
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > uint64_t(std::numeric_limits<int64_t>::max())) return false;
    *out = int64_t(u);
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    *out = v.get<int64_t>();
    return true;
  }
  return false;
}

// The header in one pass of nlohmann's SAX parser: the top-level (key, value) pairs in the file's order,
// each value built as a small DOM of its own, with the nesting bounded before anything is built (so
// "[[[[..." of 100 MB costs nothing). A first pass for the order and then a DOM of the whole header
// (a std::map of every tensor) took about twice the time. (nlohmann's callback parser rescans the
// parent object after every child: quadratic in the number of tensors.)
struct HeaderSax : nlohmann::json_sax<Json> {
  std::vector<std::pair<std::string, Json>> top;  // the root object's members, in order
  const char* root_type = nullptr;                // the root's type once seen ("object", "array", ...)
  std::vector<Json*> open;  // the containers being filled, innermost last (below the root)
  std::string pending_key;  // the key of the next member of open.back(), an object
  int depth = 0;
  std::string error;

  // Stores v where the parser is (the root, a top-level member, an element or a member), returning it.
  Json* put(Json&& v) {
    if (depth == 0) {
      root_type = v.type_name();
      return nullptr;
    }
    if (!root_type || std::strcmp(root_type, "object") != 0) return nullptr;  // refused once parsed
    if (open.empty()) return &(top.back().second = std::move(v));
    Json& parent = *open.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    return &(parent[std::move(pending_key)] = std::move(v));
  }
  bool scalar(Json&& v) {
    put(std::move(v));
    return true;
  }
  bool start(Json&& container) {
    if (depth + 1 > kMaxJsonDepth) fail(kOp, "header nests deeper than ", kMaxJsonDepth, " levels");
    Json* at = put(std::move(container));
    ++depth;
    if (at) open.push_back(at);
    return true;
  }
  bool end() {
    --depth;
    if (!open.empty() && depth >= 1 && int(open.size()) == depth) open.pop_back();
    return true;
  }
  bool null() override { return scalar(Json()); }
  bool boolean(bool b) override { return scalar(Json(b)); }
  bool number_integer(number_integer_t n) override { return scalar(Json(n)); }
  bool number_unsigned(number_unsigned_t n) override { return scalar(Json(n)); }
  bool number_float(number_float_t x, const string_t&) override { return scalar(Json(x)); }
  bool string(string_t& v) override { return scalar(Json(std::move(v))); }
  bool binary(binary_t&) override { return true; }  // JSON text has none
  bool start_object(std::size_t) override { return start(Json::object()); }
  bool start_array(std::size_t) override { return start(Json::array()); }
  bool end_object() override { return end(); }
  bool end_array() override { return end(); }
  bool key(string_t& k) override {
    if (depth == 1 && root_type && std::strcmp(root_type, "object") == 0) {
      top.emplace_back(std::move(k), Json());
    } else {
      pending_key = std::move(k);
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }
};

[[noreturn]] void not_json(std::string what) {
  // nlohmann prefixes "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
  auto pos = what.find("] ");
  if (pos != std::string::npos) what = what.substr(pos + 2);
  if (what.size() > 200) what = what.substr(0, 200) + "...";  // the error quotes the bad token
  fail(kOp, "header is not JSON (", what, ")");
}

// Parses the header: the root object's members in the file's order.
std::vector<std::pair<std::string, Json>> parse_json(const uint8_t* json, size_t len) {
  // JSON text is UTF-8: say where it is not, before the parser quotes the bad bytes back.
  const size_t bad = detail::invalid_utf8_at(json, len);
  if (bad != std::string::npos)
    fail(kOp, "header is not valid UTF-8 (byte 0x", kHex[json[bad] >> 4], kHex[json[bad] & 15], " at offset ", bad, ")");
  HeaderSax sax;
  if (!Json::sax_parse(json, json + len, &sax)) not_json(sax.error);
  if (!sax.root_type || std::strcmp(sax.root_type, "object") != 0)
    fail(kOp, "header is JSON but not an object (it is ", sax.root_type, ")");
  // A name given twice: the names sorted (by pointer, no copies), equal neighbours.
  std::vector<const std::string*> names;
  names.reserve(sax.top.size());
  for (const auto& member : sax.top) names.push_back(&member.first);
  std::sort(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  for (size_t i = 1; i < names.size(); ++i)
    if (*names[i] == *names[i - 1]) fail(kOp, "header names ", quote_name(*names[i]), " twice");
  return std::move(sax.top);
}

// One tensor's fields as parse_safetensors_header reads them, up to the first JSON-level problem.
SafetensorsMember member(const std::string& name, const Json& v) {
  using M = SafetensorsMember;
  M m;
  m.name = name;
  if (!v.is_object()) {
    m.problem = M::kNotObject;
    m.text = v.type_name();
    return m;
  }
  auto dt = v.find("dtype");
  if (dt == v.end() || !dt->is_string()) return m.problem = M::kNoDtype, m;
  m.dtype = dt->get<std::string>();
  auto sh = v.find("shape");
  if (sh == v.end() || !sh->is_array()) return m.problem = M::kNoShape, m;
  for (const auto& d : *sh) {
    int64_t n;
    if (d.is_number_integer() && !d.is_number_unsigned() && d.get<int64_t>() < 0) {
      m.problem = M::kNegativeDim;
      m.detail = std::to_string(d.get<int64_t>());
      m.text = sh->dump();
      return m;
    }
    if (!as_count(d, &n)) {
      m.problem = M::kShapeNotSizes;
      m.text = sh->dump();
      return m;
    }
    m.shape.push_back(n);
  }
  auto off = v.find("data_offsets");
  int64_t b, e;
  if (off == v.end() || !off->is_array() || off->size() != 2 || !as_count((*off)[0], &b) || !as_count((*off)[1], &e))
    return m.problem = M::kNoOffsets, m;
  m.begin = uint64_t(b);
  m.end = uint64_t(e);
  return m;
}

}  // namespace

SafetensorsHeader parse_safetensors_header(const uint8_t* json, size_t json_len, uint64_t file_size) {
  if (file_size < 8 || json_len > file_size - 8)
    fail(kOp, "header of ", json_len, " bytes does not fit in a file of ", file_size, " bytes");
  std::vector<SafetensorsMember> members;
  std::vector<std::pair<std::string, std::string>> metadata;
  for (const auto& [key, value] : parse_json(json, json_len)) {
    if (key == "__metadata__") {
      if (!value.is_object()) {
        SafetensorsMember m;
        m.problem = SafetensorsMember::kMetadataNotObject;
        m.text = value.type_name();
        members.push_back(std::move(m));
        break;  // the first problem is the one reported
      }
      for (const auto& [mk, mv] : value.items()) metadata.emplace_back(mk, mv.is_string() ? mv.get<std::string>() : mv.dump());
      continue;
    }
    members.push_back(member(key, value));
    if (members.back().problem != SafetensorsMember::kNone) break;
  }
  return check_safetensors_header(members, std::move(metadata), json_len, file_size);
}

SafetensorsHeader parse_safetensors(const uint8_t* file, size_t file_size) {
  const uint64_t n = safetensors_header_size(file, file_size, file_size);
  return parse_safetensors_header(file + 8, size_t(n), file_size);
}

}  // namespace tp::io
