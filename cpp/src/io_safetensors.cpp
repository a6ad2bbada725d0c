// safetensors: an 8-byte little-endian header length, a JSON header
// {"name": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, "__metadata__": {...}},
// then the data section the offsets point into. This file checks what a JSON reader found in the header
// (io_safetensors_json.cpp natively, wasm/js/safetensors-json.js in the WebAssembly build) and writes
// headers itself: the WebAssembly module carries no JSON parser.
#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "io_safetensors_text.hpp"
#include "sort_order.hpp"
#include "tensorpad/io.hpp"

namespace tp::io {

namespace {

constexpr const char* kOp = "safetensors";
using detail::kHex;
using detail::quote_name;

// Refuses a name or metadata string the header could not hold as JSON text; what: "a tensor name".
void check_utf8(const char* what, const std::string& s) {
  const size_t at = detail::invalid_utf8_at(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  if (at == std::string::npos) return;
  const uint8_t b = uint8_t(s[at]);
  fail(kOp, "cannot write ", what, " that is not valid UTF-8 (byte 0x", kHex[b >> 4], kHex[b & 15], " at offset ", at,
       at ? ", after " + quote_name(s.substr(0, at)) : std::string(), ")");
}

// Checks one tensor member in the order its fields are read, stopping at the JSON reader's problem
// where it comes: a header's first error is the same whichever reader found it.
SafetensorsEntry check_entry(const SafetensorsMember& m, uint64_t data_size) {
  using M = SafetensorsMember;
  SafetensorsEntry e;
  e.name = m.name;
  const std::string who = "tensor " + quote_name(m.name);
  if (m.name.empty()) fail(kOp, "a tensor has an empty name");
  if (m.problem == M::kNotObject) fail(kOp, who, " is not an object but ", m.text);
  if (m.problem == M::kNoDtype) fail(kOp, who, " has no \"dtype\" string");
  if (!dtype_from_name(m.dtype, &e.dtype))
    fail(kOp, who, " has unknown dtype ", quote_name(m.dtype), " (supported: ", supported_dtypes(), ")");
  if (m.problem == M::kNoShape) fail(kOp, who, " has no \"shape\" array");
  if (m.problem == M::kNegativeDim) fail(kOp, who, " has negative dimension ", m.detail, " in shape ", m.text);
  if (m.problem == M::kShapeNotSizes) fail(kOp, who, " has a shape ", m.text, " that is not a list of sizes");
  e.shape = m.shape;
  const int64_t numel = checked_numel(kOp, who, e.shape);
  if (m.problem == M::kNoOffsets) fail(kOp, who, " has no \"data_offsets\" pair of non-negative integers");
  TP_ASSERT(m.problem == M::kNone);
  e.begin = m.begin;
  e.end = m.end;
  if (e.begin > e.end) fail(kOp, who, " has data_offsets [", e.begin, ", ", e.end, "] that run backwards");
  if (e.end > data_size)
    fail(kOp, who, " has data_offsets [", e.begin, ", ", e.end, "] outside the data section (", data_size,
         " bytes)");

  // numel * size can overflow even when numel fits: compare by division first.
  const uint64_t size = dtype_size(e.dtype);
  if (uint64_t(numel) > std::numeric_limits<uint64_t>::max() / size || uint64_t(numel) * size != e.nbytes())
    fail(kOp, who, " of shape ", e.shape, " and dtype ", m.dtype, " needs ", numel, " x ", size,
         " bytes but data_offsets [", e.begin, ", ", e.end, "] hold ", e.nbytes());
  return e;
}

}  // namespace

// As nlohmann's dump() wrote it before, so files written by earlier versions keep their bytes.
void append_json_string(std::string& out, const std::string& s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (uint8_t(c) < 0x20) {
          out += "\\u00";
          out += kHex[uint8_t(c) >> 4];
          out += kHex[c & 15];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

namespace detail {

std::string quote_name(const std::string& name) {
  if (name.size() <= 80) return "'" + name + "'";
  size_t cut = 80;
  while (cut > 0 && (uint8_t(name[cut]) & 0xC0) == 0x80) --cut;
  return "'" + name.substr(0, cut) + "...'";
}

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

}  // namespace detail

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

SafetensorsHeader check_safetensors_header(const std::vector<SafetensorsMember>& members,
                                           std::vector<std::pair<std::string, std::string>> metadata,
                                           uint64_t json_len, uint64_t file_size) {
  SafetensorsHeader h;
  h.header_size = json_len;
  if (file_size < 8 || json_len > file_size - 8)
    fail(kOp, "header of ", json_len, " bytes does not fit in a file of ", file_size, " bytes");
  h.data_size = file_size - 8 - json_len;
  h.tensors.reserve(members.size());
  for (const SafetensorsMember& m : members) {
    if (m.problem == SafetensorsMember::kMetadataNotObject) fail(kOp, "__metadata__ is not an object but ", m.text);
    h.tensors.push_back(check_entry(m, h.data_size));
  }
  h.metadata = std::move(metadata);

  // No two tensors may share bytes (empty tensors share none).
  std::vector<const SafetensorsEntry*> given;
  for (const auto& e : h.tensors)
    if (e.nbytes() > 0) given.push_back(&e);
  const std::vector<int64_t> by_offset = tp::detail::sort_order(
      int64_t(given.size()), [&](int64_t a, int64_t b) { return given[size_t(a)]->begin < given[size_t(b)]->begin; });
  for (size_t i = 1; i < by_offset.size(); ++i) {
    const auto* a = given[size_t(by_offset[i - 1])];
    const auto* b = given[size_t(by_offset[i])];
    if (b->begin < a->end)
      fail(kOp, "tensors ", quote_name(a->name), " [", a->begin, ", ", a->end, "] and ", quote_name(b->name), " [",
           b->begin, ", ", b->end, "] overlap");
  }
  return h;
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
    // As a JSON object held them: sorted by key, the last value of a repeated key kept.
    for (const auto& [k, v] : metadata) {
      check_utf8("a metadata key", k);
      check_utf8("a metadata value", v);
    }
    const int64_t n = int64_t(metadata.size());  // last first, so that a repeated key's last value sorts first
    const auto last_first = [&](int64_t i) -> const std::pair<std::string, std::string>& { return metadata[size_t(n - 1 - i)]; };
    const std::vector<int64_t> sorted =
        tp::detail::sort_order(n, [&](int64_t a, int64_t b) { return last_first(a).first < last_first(b).first; });
    text += "\"__metadata__\":{";
    for (size_t i = 0; i < sorted.size(); ++i) {
      const auto& [k, v] = last_first(sorted[i]);
      if (i && k == last_first(sorted[i - 1]).first) continue;
      if (text.back() != '{') text += ',';
      append_json_string(text, k);
      text += ':';
      append_json_string(text, v);
    }
    text += '}';
  }
  // Which arrays repeat an earlier one's name: the stable order by name puts each repeat right after
  // its first (one sort_order, not a std::set<std::string> tree instance in the core).
  std::vector<uint8_t> repeat(arrays.size(), 0);
  {
    const std::vector<int64_t> by_name = tp::detail::sort_order(
        int64_t(arrays.size()), [&](int64_t a, int64_t b) { return arrays[size_t(a)].name < arrays[size_t(b)].name; });
    for (size_t i = 1; i < by_name.size(); ++i)
      if (arrays[size_t(by_name[i])].name == arrays[size_t(by_name[i - 1])].name) repeat[size_t(by_name[i])] = 1;
  }
  uint64_t offset = 0;
  for (size_t ai = 0; ai < arrays.size(); ++ai) {
    const auto& a = arrays[ai];
    if (a.name.empty()) fail(kOp, "cannot write a tensor with an empty name");
    check_utf8("a tensor name", a.name);
    if (a.name == "__metadata__") fail(kOp, "cannot write a tensor named __metadata__ (reserved)");
    if (repeat[ai]) fail(kOp, "cannot write two tensors named ", quote_name(a.name));
    if (a.raw && (a.dtype == DType::F8_E4M3 || a.dtype == DType::F8_E5M2 || a.dtype == DType::F8_E8M0))
      fail(kOp, "cannot write tensor ", quote_name(a.name), " as ", dtype_name(a.dtype), " (FP8 types are read only)");
    if (!a.raw && a.dtype != DType::F32 && a.dtype != DType::F16 && a.dtype != DType::BF16)
      fail(kOp, "cannot write tensor ", quote_name(a.name), " as ", dtype_name(a.dtype), " (writable: F32, F16, BF16)");
    const uint64_t bytes =
        uint64_t(checked_numel(kOp, "tensor " + quote_name(a.name), a.shape)) * dtype_size(a.dtype);
    // The keys in sorted order, as the JSON object that wrote them before held them.
    if (text.size() > 1) text += ',';
    append_json_string(text, a.name);
    text += ":{\"data_offsets\":[";  // appended piece by piece: no temporary strings
    text += std::to_string(offset);
    text += ',';
    text += std::to_string(offset + bytes);
    text += "],\"dtype\":\"";
    text += dtype_name(a.dtype);
    text += "\",\"shape\":[";
    for (size_t d = 0; d < a.shape.size(); ++d) {
      if (d) text += ',';
      text += std::to_string(a.shape[d]);
    }
    text += "]}";
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
