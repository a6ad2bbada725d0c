// safetensors: an 8-byte little-endian header length, a JSON header
// {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, "__metadata__": {...}},
// then the data section the offsets point into.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "tensorpad/io.hpp"

namespace tp::io {

namespace {

constexpr const char* kOp = "safetensors";
constexpr int kMaxJsonDepth = 16;
constexpr const char* kHex = "0123456789abcdef";  // a valid header nests 3 deep; deep nesting is only ever an attack

// std::map objects: nlohmann's ordered_json inserts in linear time, which makes a 10k-tensor header take
// seconds (and a 100 MB one forever). The file's order of tensors is recorded while parsing instead.
using Json = nlohmann::json;

std::string quote_name(const std::string& name) {
  // Names come from the file: keep messages readable and bounded whatever the name holds, cutting
  // between UTF-8 characters (never before a continuation byte), so the message stays valid UTF-8.
  if (name.size() <= 80) return "'" + name + "'";
  size_t cut = 80;
  while (cut > 0 && (uint8_t(name[cut]) & 0xC0) == 0x80) --cut;
  return "'" + name.substr(0, cut) + "...'";
}

// The offset of the first byte of s that is not well-formed UTF-8 (an overlong form, a surrogate,
// past U+10FFFF, a truncated sequence), or npos: what a JSON writer must refuse.
size_t invalid_utf8_at(const uint8_t* s, size_t size) {
  size_t i = 0;
  while (i < size) {
    const uint8_t c = s[i];
    size_t n;
    uint32_t cp;
    if (c < 0x80) { ++i; continue; }
    if (c >= 0xC2 && c <= 0xDF) n = 1, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF) n = 2, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4) n = 3, cp = c & 0x07;
    else return i;
    if (i + n >= size) return i;
    for (size_t k = 1; k <= n; ++k) {
      const uint8_t d = s[i + k];
      if ((d & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (d & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += n + 1;
  }
  return std::string::npos;
}

// Refuses a name or metadata string the header could not hold as JSON text; what: "a tensor name".
void check_utf8(const char* what, const std::string& s) {
  const size_t at = invalid_utf8_at(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  if (at == std::string::npos) return;
  const uint8_t b = uint8_t(s[at]);
  fail(kOp, "cannot write ", what, " that is not valid UTF-8 (byte 0x", kHex[b >> 4], kHex[b & 15], " at offset ", at,
       at ? ", after " + quote_name(s.substr(0, at)) : std::string(), ")");
}

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
  const size_t bad = invalid_utf8_at(json, len);
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

SafetensorsEntry parse_entry(const std::string& name, const Json& v, uint64_t data_size) {
  SafetensorsEntry e;
  e.name = name;
  const std::string who = "tensor " + quote_name(name);
  if (name.empty()) fail(kOp, "a tensor has an empty name");
  if (!v.is_object()) fail(kOp, who, " is not an object but ", v.type_name());

  auto dt = v.find("dtype");
  if (dt == v.end() || !dt->is_string()) fail(kOp, who, " has no \"dtype\" string");
  const std::string dname = dt->get<std::string>();
  if (!dtype_from_name(dname, &e.dtype))
    fail(kOp, who, " has unknown dtype ", quote_name(dname), " (supported: ", supported_dtypes(), ")");

  auto sh = v.find("shape");
  if (sh == v.end() || !sh->is_array()) fail(kOp, who, " has no \"shape\" array");
  for (const auto& d : *sh) {
    int64_t n;
    if (d.is_number_integer() && !d.is_number_unsigned() && d.get<int64_t>() < 0)
      fail(kOp, who, " has negative dimension ", d.get<int64_t>(), " in shape ", sh->dump());
    if (!as_count(d, &n)) fail(kOp, who, " has a shape ", sh->dump(), " that is not a list of sizes");
    e.shape.push_back(n);
  }
  const int64_t numel = checked_numel(kOp, who, e.shape);

  auto off = v.find("data_offsets");
  int64_t b, en;
  if (off == v.end() || !off->is_array() || off->size() != 2 || !as_count((*off)[0], &b) ||
      !as_count((*off)[1], &en))
    fail(kOp, who, " has no \"data_offsets\" pair of non-negative integers");
  e.begin = uint64_t(b);
  e.end = uint64_t(en);
  if (e.begin > e.end) fail(kOp, who, " has data_offsets [", e.begin, ", ", e.end, "] that run backwards");
  if (e.end > data_size)
    fail(kOp, who, " has data_offsets [", e.begin, ", ", e.end, "] outside the data section (", data_size,
         " bytes)");

  // numel * size can overflow even when numel fits: compare by division first.
  const uint64_t size = dtype_size(e.dtype);
  if (uint64_t(numel) > std::numeric_limits<uint64_t>::max() / size || uint64_t(numel) * size != e.nbytes())
    fail(kOp, who, " of shape ", shape_str(e.shape), " and dtype ", dname, " needs ", numel, " x ", size,
         " bytes but data_offsets [", e.begin, ", ", e.end, "] hold ", e.nbytes());
  return e;
}

}  // namespace

int64_t SafetensorsEntry::numel() const {
  // Validated at parse time (checked_numel): the product fits, unless a dim is 0, when it is 0 however
  // large the others are (multiplying them first would overflow).
  for (int64_t d : shape)
    if (d == 0) return 0;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

const SafetensorsEntry& SafetensorsHeader::at(const std::string& name) const {
  for (const auto& e : tensors)
    if (e.name == name) return e;
  fail(kOp, "no tensor named ", quote_name(name), " (the file has ", tensors.size(), " tensors)");
}

uint64_t safetensors_header_size(const uint8_t* prefix, size_t prefix_len, uint64_t file_size) {
  if (file_size < 8 || prefix_len < 8)
    fail(kOp, "file is ", std::min<uint64_t>(file_size, prefix_len),
         " bytes, too short for the 8-byte header length");
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = (n << 8) | prefix[i];  // little-endian whatever the host
  if (n > kMaxSafetensorsHeader)
    fail(kOp, "header length ", n, " is above the ", kMaxSafetensorsHeader, "-byte limit");
  if (n > file_size - 8)
    fail(kOp, "header length ", n, " is beyond the file (", file_size, " bytes, so at most ", file_size - 8,
         " header bytes): the file is truncated or not safetensors");
  if (n < 2) fail(kOp, "header length ", n, " is too short for a JSON object");
  return n;
}

SafetensorsHeader parse_safetensors_header(const uint8_t* json, size_t json_len, uint64_t file_size) {
  SafetensorsHeader h;
  h.header_size = json_len;
  if (file_size < 8 || json_len > file_size - 8)
    fail(kOp, "header of ", json_len, " bytes does not fit in a file of ", file_size, " bytes");
  h.data_size = file_size - 8 - json_len;

  for (const auto& [key, value] : parse_json(json, json_len)) {
    if (key == "__metadata__") {
      if (!value.is_object()) fail(kOp, "__metadata__ is not an object but ", value.type_name());
      for (const auto& [mk, mv] : value.items())
        h.metadata.emplace_back(mk, mv.is_string() ? mv.get<std::string>() : mv.dump());
      continue;
    }
    h.tensors.push_back(parse_entry(key, value, h.data_size));
  }

  // No two tensors may share bytes (empty tensors share none).
  std::vector<const SafetensorsEntry*> by_offset;
  for (const auto& e : h.tensors)
    if (e.nbytes() > 0) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(),
            [](const SafetensorsEntry* a, const SafetensorsEntry* b) { return a->begin < b->begin; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const auto* a = by_offset[i - 1];
    const auto* b = by_offset[i];
    if (b->begin < a->end)
      fail(kOp, "tensors ", quote_name(a->name), " [", a->begin, ", ", a->end, "] and ", quote_name(b->name), " [",
           b->begin, ", ", b->end, "] overlap");
  }
  return h;
}

SafetensorsHeader parse_safetensors(const uint8_t* file, size_t file_size) {
  const uint64_t n = safetensors_header_size(file, file_size, file_size);
  return parse_safetensors_header(file + 8, size_t(n), file_size);
}

void read_safetensors_tensor(const SafetensorsHeader& h, const SafetensorsEntry& e, const uint8_t* file,
                             size_t file_size, float* dst) {
  if (h.data_offset() + e.end > file_size)
    fail(kOp, "tensor ", quote_name(e.name), " ends at byte ", h.data_offset() + e.end, " beyond the ", file_size,
         "-byte file");
  to_float32(e.dtype, file + h.data_offset() + e.begin, e.numel(), dst);
}

std::vector<uint8_t> write_safetensors(const std::vector<NamedArray>& arrays,
                                       const std::vector<std::pair<std::string, std::string>>& metadata) {
  // Each array is numel(shape) float32 values in C order stored as its dtype (F32, F16 or BF16), or
  // raw elements of its dtype copied as they are.
  // The header text is assembled entry by entry so the tensors keep the caller's order.
  std::string text = "{";
  if (!metadata.empty()) {
    Json m = Json::object();
    for (const auto& [k, v] : metadata) {
      check_utf8("a metadata key", k);
      check_utf8("a metadata value", v);
      m[k] = v;
    }
    text += "\"__metadata__\":" + m.dump();
  }
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const auto& a : arrays) {
    if (a.name.empty()) fail(kOp, "cannot write a tensor with an empty name");
    check_utf8("a tensor name", a.name);
    if (a.name == "__metadata__") fail(kOp, "cannot write a tensor named __metadata__ (reserved)");
    if (!names.insert(a.name).second) fail(kOp, "cannot write two tensors named ", quote_name(a.name));
    if (a.raw && (a.dtype == DType::F8_E4M3 || a.dtype == DType::F8_E5M2 || a.dtype == DType::F8_E8M0))
      fail(kOp, "cannot write tensor ", quote_name(a.name), " as ", dtype_name(a.dtype), " (FP8 types are read only)");
    if (!a.raw && a.dtype != DType::F32 && a.dtype != DType::F16 && a.dtype != DType::BF16)
      fail(kOp, "cannot write tensor ", quote_name(a.name), " as ", dtype_name(a.dtype), " (writable: F32, F16, BF16)");
    const uint64_t bytes =
        uint64_t(checked_numel(kOp, "tensor " + quote_name(a.name), a.shape)) * dtype_size(a.dtype);
    const Json entry = {{"dtype", dtype_name(a.dtype)}, {"shape", a.shape}, {"data_offsets", {offset, offset + bytes}}};
    text += (text.size() > 1 ? "," : "") + Json(a.name).dump() + ":" + entry.dump();
    offset += bytes;
  }
  text += "}";
  // Pad with spaces so the data section starts 8-byte aligned, as the reference writer does.
  text.append((8 - text.size() % 8) % 8, ' ');

  std::vector<uint8_t> out(8 + text.size() + offset);
  const uint64_t n = text.size();
  for (int i = 0; i < 8; ++i) out[i] = uint8_t(n >> (8 * i));
  std::memcpy(out.data() + 8, text.data(), text.size());
  uint8_t* p = out.data() + 8 + text.size();
  for (const auto& a : arrays) {
    const int64_t numel = checked_numel(kOp, a.name, a.shape);
    const size_t bytes = size_t(numel) * dtype_size(a.dtype);
    if (!a.raw) from_float32(a.dtype, a.data, numel, p);
    else if (bytes) std::memcpy(p, a.raw, bytes);
    p += bytes;
  }
  return out;
}

}  // namespace tp::io
