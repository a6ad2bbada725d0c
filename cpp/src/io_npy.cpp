// .npy: "\x93NUMPY", version bytes, a little-endian header length (2 bytes in v1, 4 in v2/v3),
// a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }, then the raw data.
#include <algorithm>
#include <cstring>
#include <limits>

#include "tensorpad/io.hpp"

namespace tp::io {

namespace {

constexpr const char* kOp = "npy";
constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

// A value of the header dict: only the three kinds numpy writes there.
struct PyValue {
  enum Kind { Str, Bool, Tuple, Other } kind = Other;
  std::string str;
  bool b = false;
  Shape ints;
};

// Recursive descent over the header text; depth is bounded because tuples hold only integers.
class DictReader {
 public:
  explicit DictReader(const std::string& s) : s_(s) {}

  std::vector<std::pair<std::string, PyValue>> read_dict() {
    std::vector<std::pair<std::string, PyValue>> out;
    expect('{');
    while (true) {
      skip_space();
      if (peek() == '}') break;
      std::string key = read_string();
      expect(':');
      out.emplace_back(key, read_value(key));
      skip_space();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      if (peek() == '}') break;
      bad("expected ',' or '}'");
    }
    ++i_;
    skip_space();
    if (i_ != s_.size()) bad("unexpected text after the dict");
    return out;
  }

 private:
  const std::string& s_;
  size_t i_ = 0;

  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  [[noreturn]] void bad(const char* what) const {
    std::string shown = s_.size() > 200 ? s_.substr(0, 200) + "..." : s_;
    fail(kOp, "header is not a numpy header dict: ", what, " at character ", i_, " of \"", shown, "\"");
  }
  void expect(char c) {
    skip_space();
    if (peek() != c) {
      char msg[] = "expected 'x'";
      msg[10] = c;
      bad(msg);
    }
    ++i_;
  }
  std::string read_string() {
    skip_space();
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted string");
    ++i_;
    std::string out;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') bad("escapes are not supported in header strings");
      out += s_[i_++];
    }
    if (i_ == s_.size()) bad("unterminated string");
    ++i_;
    return out;
  }
  bool match_word(const char* w) {
    const size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  int64_t read_int(const std::string& key) {
    skip_space();
    if (peek() == '-') fail(kOp, "'", key, "' has a negative dimension in \"", s_.substr(0, 200), "\"");
    if (peek() < '0' || peek() > '9') bad("expected an integer");
    int64_t v = 0;
    while (peek() >= '0' && peek() <= '9') {
      const int digit = peek() - '0';
      if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) bad("dimension does not fit in 64 bits");
      v = v * 10 + digit;
      ++i_;
    }
    if (peek() == 'L') ++i_;  // Python 2 longs in old files
    return v;
  }
  PyValue read_value(const std::string& key) {
    skip_space();
    PyValue v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v.kind = PyValue::Str;
      v.str = read_string();
    } else if (match_word("True")) {
      v.kind = PyValue::Bool;
      v.b = true;
    } else if (match_word("False")) {
      v.kind = PyValue::Bool;
    } else if (c == '(') {
      v.kind = PyValue::Tuple;
      ++i_;
      while (true) {
        skip_space();
        if (peek() == ')') break;
        v.ints.push_back(read_int(key));
        if (v.ints.size() > 64) fail(kOp, "'", key, "' has more than 64 dimensions");
        skip_space();
        if (peek() == ',') {
          ++i_;
          continue;
        }
        if (peek() != ')') bad("expected ',' or ')' in a tuple");
      }
      ++i_;
    } else if (c == '[' && key == "descr") {
      fail(kOp, "structured dtypes (a list as '", key, "') are not supported; save a plain numeric array");
    } else {
      bad("expected a string, True, False or a tuple");
    }
    return v;
  }
};

// numpy's dtype strings: byte order ('<' little, '>' big, '|' not applicable, '=' native), kind, size.
DType dtype_from_descr(const std::string& descr) {
  if (descr.size() < 3)
    fail(kOp, "unknown dtype '", descr, "'");
  const char order = descr[0];
  const std::string code = descr.substr(1);
  if (order == '>' && code != "i1" && code != "u1" && code != "b1")
    fail(kOp, "big-endian dtype '", descr, "' is not supported; save with arr.astype('<", code, "')");
  if (order != '<' && order != '|' && order != '=' && order != '>')
    fail(kOp, "unknown dtype '", descr, "' (no byte order mark)");
  static const std::pair<const char*, DType> table[] = {
      {"f8", DType::F64}, {"f4", DType::F32}, {"f2", DType::F16}, {"i8", DType::I64}, {"i4", DType::I32},
      {"i2", DType::I16}, {"i1", DType::I8},  {"u8", DType::U64}, {"u4", DType::U32}, {"u2", DType::U16},
      {"u1", DType::U8},  {"b1", DType::BOOL}};
  for (const auto& [c, dt] : table)
    if (code == c) return dt;
  fail(kOp, "unsupported dtype '", descr, "' (supported: f8, f4, f2, i8, i4, i2, i1, u8, u4, u2, u1, b1)");
}

uint64_t read_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

int64_t NpyHeader::numel() const {
  // Validated at parse time (checked_numel): the product fits with the element size, unless a dim is 0,
  // when it is 0 however large the others are (multiplying them first would overflow).
  for (int64_t d : shape)
    if (d == 0) return 0;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

uint64_t NpyHeader::nbytes() const { return uint64_t(numel()) * dtype_size(dtype); }

uint64_t npy_header_size(const uint8_t* p, size_t len, uint64_t file_size) {
  const uint64_t have = std::min<uint64_t>(len, file_size);
  if (have < 8 || std::memcmp(p, kMagic, 6) != 0) {
    if (have >= 6 && std::memcmp(p, kMagic, 6) != 0)
      fail(kOp, "not a .npy file (it does not start with \\x93NUMPY)");
    fail(kOp, "file is ", have, " bytes, too short for the .npy preamble");
  }
  const int major = p[6];
  if (major < 1 || major > 3)
    fail(kOp, "unsupported format version ", major, ".", int(p[7]), " (supported: 1.0, 2.0, 3.0)");
  const int len_bytes = major == 1 ? 2 : 4;
  if (have < uint64_t(8 + len_bytes))
    fail(kOp, "file is ", have, " bytes, too short for the version ", major, " header length");
  const uint64_t hlen = read_le(p + 8, len_bytes);
  const uint64_t total = 8 + len_bytes + hlen;
  if (hlen > 100'000'000) fail(kOp, "header length ", hlen, " is above the 100000000-byte limit");
  if (total > file_size)
    fail(kOp, "header length ", hlen, " is beyond the file (", file_size, " bytes): the file is truncated");
  return total;
}

NpyHeader parse_npy_header(const uint8_t* p, size_t len, uint64_t file_size) {
  NpyHeader h;
  h.data_offset = npy_header_size(p, len, file_size);
  if (len < h.data_offset)
    fail(kOp, "given ", len, " header bytes but the header needs ", h.data_offset);
  h.major = p[6];
  h.minor = p[7];
  const size_t start = h.major == 1 ? 10 : 12;
  const std::string text(reinterpret_cast<const char*>(p) + start, size_t(h.data_offset) - start);

  bool have_descr = false, have_order = false, have_shape = false;
  for (const auto& [key, v] : DictReader(text).read_dict()) {
    if (key == "descr") {
      if (v.kind != PyValue::Str) fail(kOp, "'descr' is not a string");
      h.descr = v.str;
      h.dtype = dtype_from_descr(v.str);
      have_descr = true;
    } else if (key == "fortran_order") {
      if (v.kind != PyValue::Bool) fail(kOp, "'fortran_order' is not True or False");
      h.fortran_order = v.b;
      have_order = true;
    } else if (key == "shape") {
      if (v.kind != PyValue::Tuple) fail(kOp, "'shape' is not a tuple");
      h.shape = v.ints;
      have_shape = true;
    }
  }
  if (!have_descr || !have_order || !have_shape)
    fail(kOp, "header lacks '", !have_descr ? "descr" : !have_order ? "fortran_order" : "shape", "'");

  const int64_t numel = checked_numel(kOp, "array", h.shape);
  const uint64_t size = dtype_size(h.dtype);
  const uint64_t available = file_size - h.data_offset;
  const bool too_big = uint64_t(numel) > available / size;
  if (too_big || uint64_t(numel) * size != available)
    fail(kOp, "shape ", h.shape, " of '", h.descr, "' needs ", numel, " x ", size, " bytes but the file has ",
         available, " after the header", too_big ? " (truncated)" : "");
  return h;
}

void npy_c_order(const NpyHeader& h, const uint8_t* data, size_t data_len, uint8_t* dst) {
  if (data_len < h.nbytes()) fail(kOp, "given ", data_len, " data bytes but the array needs ", h.nbytes());
  const int64_t numel = h.numel();
  const int64_t nd = int64_t(h.shape.size());
  const size_t size = dtype_size(h.dtype);
  if (numel == 0) return;  // dst may be null
  if (!h.fortran_order || nd < 2) {
    std::memcpy(dst, data, size_t(h.nbytes()));  // a 1-d Fortran array is the same bytes as in C order
    return;
  }
  // Fortran order: element (i0, ..., i_{d-1}) sits at i0 + n0*(i1 + n1*(...)). Walk the output in C order
  // with an odometer of indices, keeping the Fortran offset up to date.
  std::vector<int64_t> fstride(nd), idx(nd, 0);
  int64_t s = 1;
  for (int64_t k = 0; k < nd; ++k) {
    fstride[k] = s;
    s *= h.shape[k];
  }
  int64_t off = 0;
  for (int64_t i = 0; i < numel; ++i) {
    std::memcpy(dst + size_t(i) * size, data + size_t(off) * size, size);
    for (int64_t k = nd - 1; k >= 0; --k) {
      if (++idx[k] < h.shape[k]) {
        off += fstride[k];
        break;
      }
      off -= (h.shape[k] - 1) * fstride[k];
      idx[k] = 0;
    }
  }
}

void decode_npy_data(const NpyHeader& h, const uint8_t* data, size_t data_len, float* dst) {
  if (data_len < h.nbytes()) fail(kOp, "given ", data_len, " data bytes but the array needs ", h.nbytes());
  if (!h.fortran_order || h.shape.size() < 2) {
    to_float32(h.dtype, data, h.numel(), dst);
    return;
  }
  std::vector<uint8_t> c(size_t(h.nbytes()));
  npy_c_order(h, data, data_len, c.data());
  to_float32(h.dtype, c.data(), h.numel(), dst);
}

DecodedArray read_npy(const uint8_t* file, size_t file_size) {
  const NpyHeader h = parse_npy_header(file, file_size, file_size);
  DecodedArray out;
  out.shape = h.shape;
  out.values.resize(h.nbytes() / dtype_size(h.dtype));
  decode_npy_data(h, file + h.data_offset, file_size - h.data_offset, out.values.data());
  return out;
}

namespace {

// The .npy descr numpy writes for a stored type, or nullptr when numpy has none (BF16, FP8).
const char* npy_descr(DType dtype) {
  switch (dtype) {
    case DType::F64: return "<f8";
    case DType::F32: return "<f4";
    case DType::F16: return "<f2";
    case DType::I64: return "<i8";
    case DType::I32: return "<i4";
    case DType::I16: return "<i2";
    case DType::I8: return "|i1";
    case DType::U64: return "<u8";
    case DType::U32: return "<u4";
    case DType::U16: return "<u2";
    case DType::U8: return "|u1";
    case DType::BOOL: return "|b1";
    default: return nullptr;
  }
}

// The file with its header written and the data section left for the caller (at out.size() - nbytes).
std::vector<uint8_t> npy_with_header(const Shape& shape, const char* descr, size_t size, int64_t numel) {
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (";
  for (size_t i = 0; i < shape.size(); ++i) dict += std::to_string(shape[i]) + ", ";
  if (shape.size() > 1) dict.resize(dict.size() - 2);
  else if (shape.size() == 1) dict.resize(dict.size() - 1);  // "(3,)" as Python writes a 1-tuple
  dict += "), }";
  // numpy leaves room for the first dimension to grow to 21 digits (np.lib.format.GROWTH_AXIS_MAX_DIGITS),
  // so a file can be appended to in place; the same spaces make our bytes numpy's.
  if (!shape.empty()) dict.append(21 - std::min<size_t>(21, std::to_string(shape[0]).size()), ' ');
  // Pad with spaces and end with '\n' so the data starts 64-byte aligned, as numpy does: numpy always adds
  // 1 to 64 spaces, so a header that would end exactly on a boundary gets 64 more.
  const auto padded = [&](size_t pre) { return ((pre + dict.size() + 1) / 64 + 1) * 64; };
  const bool v2 = padded(10) - 10 > 65535;  // the padded length must fit version 1's 2-byte field
  const size_t pre = v2 ? 12 : 10;
  const size_t total = padded(pre);
  dict.append(total - pre - dict.size() - 1, ' ');
  dict += '\n';

  std::vector<uint8_t> out(total + size_t(numel) * size);
  std::memcpy(out.data(), kMagic, 6);
  out[6] = v2 ? 2 : 1;
  out[7] = 0;
  const uint64_t hlen = dict.size();
  for (size_t i = 0; i < pre - 8; ++i) out[8 + i] = uint8_t(hlen >> (8 * i));
  std::memcpy(out.data() + pre, dict.data(), dict.size());
  return out;
}

}  // namespace

std::vector<uint8_t> write_npy(const Shape& shape, const float* data, DType dtype) {
  // data is numel(shape) float32 values in C order; the file stores them as dtype.
  if (dtype == DType::BF16)
    fail(kOp, "cannot write dtype BF16: numpy has no bfloat16 (write F32 or F16, or use safetensors)");
  if (dtype != DType::F32 && dtype != DType::F16 && dtype != DType::F64)
    fail(kOp, "cannot write dtype ", dtype_name(dtype), " from float32 values (writable: F32, F16, F64)");
  const int64_t numel = checked_numel(kOp, "array", shape);
  const size_t size = dtype_size(dtype);
  std::vector<uint8_t> out = npy_with_header(shape, npy_descr(dtype), size, numel);
  from_float32(dtype, data, numel, out.data() + out.size() - size_t(numel) * size);
  return out;
}

std::vector<uint8_t> write_npy_raw(const Shape& shape, const void* raw, DType dtype) {
  const char* descr = npy_descr(dtype);
  if (dtype == DType::BF16)
    fail(kOp, "cannot write dtype BF16: numpy has no bfloat16 (write F32 or F16, or use safetensors)");
  if (!descr)
    fail(kOp, "cannot write dtype ", dtype_name(dtype), ": numpy has no such dtype (write F32 or F16, or use safetensors)");
  const int64_t numel = checked_numel(kOp, "array", shape);
  const size_t size = dtype_size(dtype);
  std::vector<uint8_t> out = npy_with_header(shape, descr, size, numel);
  if (numel > 0) std::memcpy(out.data() + out.size() - size_t(numel) * size, raw, size_t(numel) * size);
  return out;
}

}  // namespace tp::io
