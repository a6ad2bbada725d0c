// safetensors: an 8-byte little-endian header length, a JSON header
// {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, "__metadata__": {...}},
// then the data section the offsets point into.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "tensorpad/io.hpp"

namespace tp::io {

namespace {

constexpr const char* kOp = "safetensors";
constexpr int kMaxJsonDepth = 16;  // a valid header nests 3 deep; deep nesting is only ever an attack

// std::map objects: nlohmann's ordered_json inserts in linear time, which makes a 10k-tensor header take
// seconds (and a 100 MB one forever). The file's order of tensors is recorded while parsing instead.
using Json = nlohmann::json;

std::string quote_name(const std::string& name) {
  // Names come from the file: keep messages readable and bounded whatever the name holds.
  std::string s = name.size() > 80 ? name.substr(0, 80) + "..." : name;
  return "'" + s + "'";
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

// A first SAX pass over the header: bounds the nesting before any DOM is built (so "[[[[..." of 100 MB
// costs nothing), records the top-level keys in the file's order, and refuses a key given twice.
// (nlohmann's callback parser would do the same in one pass, but it rescans the parent object after
// every child, which makes a 10k-tensor header take seconds.)
struct HeaderScan : nlohmann::json_sax<Json> {
  std::vector<std::string>* order;
  std::set<std::string> seen;
  int depth = 0;
  std::string error;

  explicit HeaderScan(std::vector<std::string>* o) : order(o) {}
  bool open() {
    if (++depth > kMaxJsonDepth) fail(kOp, "header nests deeper than ", kMaxJsonDepth, " levels");
    return true;
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return open(); }
  bool start_array(std::size_t) override { return open(); }
  bool end_object() override { return --depth, true; }
  bool end_array() override { return --depth, true; }
  bool key(string_t& k) override {
    if (depth == 1) {
      if (!seen.insert(k).second) fail(kOp, "header names ", quote_name(k), " twice");
      order->push_back(k);
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

// Parses the header, appending its top-level keys to `order` as they appear.
Json parse_json(const uint8_t* json, size_t len, std::vector<std::string>* order) {
  HeaderScan scan(order);
  if (!Json::sax_parse(json, json + len, &scan)) not_json(scan.error);
  try {
    return Json::parse(json, json + len);
  } catch (const Json::exception& e) {
    not_json(e.what());  // the scan accepted it, so this is only a number out of range or the like
  }
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

  std::vector<std::string> order;
  const Json root = parse_json(json, json_len, &order);
  if (!root.is_object()) fail(kOp, "header is JSON but not an object (it is ", root.type_name(), ")");

  for (const std::string& key : order) {
    const Json& value = root.at(key);
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
  // Each array is numel(shape) float32 values in C order, stored as its dtype (F32, F16 or BF16).
  // The header text is assembled entry by entry so the tensors keep the caller's order.
  std::string text = "{";
  if (!metadata.empty()) {
    Json m = Json::object();
    for (const auto& [k, v] : metadata) m[k] = v;
    text += "\"__metadata__\":" + m.dump();
  }
  std::set<std::string> names;
  uint64_t offset = 0;
  for (const auto& a : arrays) {
    if (a.name.empty()) fail(kOp, "cannot write a tensor with an empty name");
    if (a.name == "__metadata__") fail(kOp, "cannot write a tensor named __metadata__ (reserved)");
    if (!names.insert(a.name).second) fail(kOp, "cannot write two tensors named ", quote_name(a.name));
    if (a.dtype != DType::F32 && a.dtype != DType::F16 && a.dtype != DType::BF16)
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
    from_float32(a.dtype, a.data, numel, p);
    p += size_t(numel) * dtype_size(a.dtype);
  }
  return out;
}

}  // namespace tp::io
