// Embind bindings of the file readers and writers (cpp/include/tensorpad/io.hpp) for wasm/js/io.js.
// JS reads the bytes (Blob.slice, fs positioned reads) and hands over only what each step needs:
// the 8-byte prefix, the members JS read from the JSON header, then one tensor's bytes. Errors travel as
// pending messages.
#include <algorithm>
#include <cstring>

#include "handles.hpp"
#include "tensorpad/io.hpp"
#include "tensorpad/io_tensor.hpp"

using emscripten::typed_memory_view;
using emscripten::val;
using tp::Tensor;
namespace io = tp::io;

namespace {

size_t length_of(const val& bytes) { return size_t(bytes["length"].as<double>()); }

// Copies a JS Uint8Array into the heap (TypedArray.set is a memcpy on the JS side).
std::vector<uint8_t> copy_in(const val& bytes) {
  std::vector<uint8_t> out(length_of(bytes));
  if (!out.empty()) val(typed_memory_view(out.size(), out.data())).call<void>("set", bytes);
  return out;
}

// A fresh JS Uint8Array holding a copy of the bytes.
val copy_out(const std::vector<uint8_t>& bytes) {
  return val(typed_memory_view(bytes.size(), bytes.data())).call<val>("slice");
}

uint64_t file_size_of(double size) {
  if (!(size >= 0) || size > 9007199254740992.0) tp::fail("io", "file size ", size, " is not a byte count");
  return uint64_t(size);
}

// The tensor dtype to load a stored type as: `to` is a tp::DType code (wasm/js/dtype.js), or -1 for
// the stored type's own (io::load_dtype).
tp::DType load_as(io::DType stored, int to) {
  if (to < 0) return io::load_dtype(stored);
  TP_ASSERT(to < tp::kNumDTypes);  // wasm/js/io.js validated the name
  return tp::DType(to);
}

io::DType stored_named(const std::string& name) {
  io::DType dt;
  if (!io::dtype_from_name(name, &dt))
    tp::fail("io", "unknown dtype '", name, "' (supported: ", io::supported_dtypes(), ")");
  return dt;
}

// Chunked decoding, so a large tensor never has all its raw bytes in the heap (or in JS) at once:
// decode_begin allocates the tensor (of the stored dtype, or `to`), decode_chunk converts bytes into it
// from an element offset.
int decode_begin(std::string dtype, val shape, int to) {
  return tpw::guard([&] {
    const io::DType dt = stored_named(dtype);
    const io::Shape s = tpw::to_shape(shape);
    io::checked_numel("io", "tensor", s);
    return tpw::put(Tensor::empty(s, load_as(dt, to), "io"));  // the core's size limit, named before any read
  });
}

bool decode_chunk(int id, std::string dtype, double first, val bytes) {
  return tpw::guard([&] {
    const io::DType dt = stored_named(dtype);
    Tensor& t = const_cast<Tensor&>(tpw::get(id));  // a fresh tensor this file owns until it is returned
    const size_t n = length_of(bytes), size = io::dtype_size(dt);
    const int64_t count = int64_t(n / size);
    if (n % size != 0 || !(first >= 0 && first <= double(t.numel())) || int64_t(first) + count > t.numel())
      tp::fail("io", "chunk of ", n, " bytes at element ", first, " does not fit a ", io::dtype_name(dt), " tensor of ",
               t.numel(), " elements");
    if (count == 0) return true;
    uint8_t* dst = static_cast<uint8_t*>(t.raw()) + int64_t(first) * tp::itemsize(t.dtype());
    if (io::stored_dtype(t.dtype()) == dt && dt != io::DType::BOOL) {  // the same bytes: straight into the heap
      val(typed_memory_view(n, dst)).call<void>("set", bytes);
    } else {
      const std::vector<uint8_t> raw = copy_in(bytes);
      io::decode_elements(dt, raw.data(), count, t.dtype(), dst);
    }
    return true;
  });
}

// ---- safetensors ----

// Why get() cannot load entry e as a tensor, or "": the core's size limit, and dims JS cannot hold
// exactly (they reach the JS API as numbers, and a file may declare [0, 2^63 - 1]: an empty tensor).
std::string unloadable(const io::SafetensorsEntry& e) {
  size_t cut = std::min<size_t>(e.name.size(), 80);  // between UTF-8 characters
  while (cut < e.name.size() && (uint8_t(e.name[cut]) & 0xC0) == 0x80) --cut;
  const std::string who = "tensor '" + e.name.substr(0, cut) + (cut < e.name.size() ? "...'" : "'");
  for (int64_t d : e.shape)
    if (d > (int64_t(1) << 53) - 1)
      return who + " has dimension " + std::to_string(d) + " in shape " + tp::shape_str(e.shape) +
             ", beyond 2^53 - 1, which JS numbers cannot hold exactly";
  try {
    tp::checked_numel("io", e.shape);
  } catch (const tp::Error& x) {
    return x.what();
  }
  return "";
}

double st_header_size(val prefix, double file_size) {
  return tpw::guard([&] {
    const auto p = copy_in(prefix);
    return double(io::safetensors_header_size(p.data(), p.size(), file_size_of(file_size)));
  });
}

// The members wasm/js/safetensors-json.js found in a header, in the compact text it writes: counts and
// numbers end with ';', strings are "<UTF-8 byte count>:<bytes>":
//   <members>; then per member <problem>; <name> <dtype> <text> <detail> <ndim>; <dims>;... <begin>; <end>;
//   then <metadata pairs>; and per pair <key> <value>.
// JS wrote it from a header it parsed, so a malformed text is a bug of ours: asserted, not reported.
class MemberText {
 public:
  explicit MemberText(const std::string& s) : s_(s) {}
  uint64_t number() {
    uint64_t v = 0;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') v = v * 10 + uint64_t(s_[i_++] - '0');
    TP_ASSERT(i_ < s_.size() && (s_[i_] == ';' || s_[i_] == ':'));
    ++i_;
    return v;
  }
  std::string string() {
    const size_t n = size_t(number());
    TP_ASSERT(n <= s_.size() - i_);
    std::string out = s_.substr(i_, n);
    i_ += n;
    return out;
  }
  bool done() const { return i_ == s_.size(); }

 private:
  const std::string& s_;
  size_t i_ = 0;
};

// The validated header as JSON text for JSON.parse: one string crosses into JS instead of thousands of
// embind calls (a 1000-tensor header went from ~40 ms to a few).
// {"dataOffset", "tensors": [{name, dtype, itemsize, shape, begin, end, error?}], "metadata": [[key, value], ...]};
// error says why get() cannot load that tensor (it is listed all the same).
// metadata travels as pairs so JS builds the object and a key like "__proto__" stays a key.
std::string st_check_header(std::string members, double json_len, double file_size) {
  return tpw::guard([&] {
    MemberText in(members);
    std::vector<io::SafetensorsMember> found(size_t(in.number()));
    for (auto& m : found) {
      m.problem = io::SafetensorsMember::Problem(in.number());
      m.name = in.string();
      m.dtype = in.string();
      m.text = in.string();
      m.detail = in.string();
      m.shape.resize(size_t(in.number()));
      for (auto& d : m.shape) d = int64_t(in.number());
      m.begin = in.number();
      m.end = in.number();
    }
    std::vector<std::pair<std::string, std::string>> metadata(size_t(in.number()));
    for (auto& [k, v] : metadata) k = in.string(), v = in.string();
    TP_ASSERT(in.done());
    const io::SafetensorsHeader h =
        io::check_safetensors_header(found, std::move(metadata), file_size_of(json_len), file_size_of(file_size));
    // Written as text, not built as a JSON DOM and dumped: for a header of a million tensors the DOM
    // cost as much as the parse.
    // Appended piece by piece: each "..." + std::to_string(...) chain was a temporary string, with its
    // destructor on the normal and the exceptional path, inlined at -Oz.
    std::string out = "{\"dataOffset\":";
    out += std::to_string(h.data_offset());
    out += ",\"tensors\":[";
    for (size_t i = 0; i < h.tensors.size(); ++i) {
      const auto& e = h.tensors[i];
      out += i ? ",{\"name\":" : "{\"name\":";
      io::append_json_string(out, e.name);
      out += ",\"dtype\":\"";
      out += io::dtype_name(e.dtype);
      out += "\",\"itemsize\":";
      out += std::to_string(io::dtype_size(e.dtype));
      out += ",\"shape\":[";
      for (size_t d = 0; d < e.shape.size(); ++d) {
        if (d) out += ',';
        out += std::to_string(e.shape[d]);
      }
      out += "],\"begin\":";
      out += std::to_string(e.begin);
      out += ",\"end\":";
      out += std::to_string(e.end);
      const std::string why = unloadable(e);
      if (!why.empty()) {
        out += ",\"error\":";
        io::append_json_string(out, why);
      }
      out += '}';
    }
    out += "],\"metadata\":[";
    for (size_t i = 0; i < h.metadata.size(); ++i) {
      out += i ? ",[" : "[";
      io::append_json_string(out, h.metadata[i].first);
      out += ',';
      io::append_json_string(out, h.metadata[i].second);
      out += ']';
    }
    return out + "]}";
  });
}

// names[i] is written from tensor ids[i] as dtypes[i] (the safetensors spelling; wasm/js/io.js has
// already mapped torch-like names to it); metadata is [[key, value], ...].
val st_save(val names, val ids, val metadata, val dtypes) {
  return tpw::guard([&] {
    const auto keys = emscripten::vecFromJSArray<std::string>(names);
    const auto types = emscripten::vecFromJSArray<std::string>(dtypes);
    const auto tensors = tpw::to_tensors(ids);
    TP_ASSERT(types.size() == keys.size() && tensors.size() == keys.size());
    std::vector<io::NamedTensor> named;
    for (size_t i = 0; i < keys.size(); ++i) named.push_back({keys[i], tensors[i], stored_named(types[i])});
    std::vector<std::pair<std::string, std::string>> meta;
    const size_t m = length_of(metadata);
    for (size_t i = 0; i < m; ++i)
      meta.emplace_back(metadata[i][0].as<std::string>(), metadata[i][1].as<std::string>());
    return copy_out(io::write_safetensors_tensors(named, meta));
  });
}

// ---- .npy ----
double npy_header_size(val prefix, double file_size) {
  return tpw::guard([&] {
    const auto p = copy_in(prefix);
    return double(io::npy_header_size(p.data(), p.size(), file_size_of(file_size)));
  });
}

val npy_parse_header(val header, double file_size) {
  return tpw::guard([&] {
    const auto bytes = copy_in(header);
    const io::NpyHeader h = io::parse_npy_header(bytes.data(), bytes.size(), file_size_of(file_size));
    val out = val::object();
    out.set("version", std::to_string(h.major) + "." + std::to_string(h.minor));
    out.set("descr", h.descr);
    out.set("dtype", std::string(io::dtype_name(h.dtype)));
    out.set("itemsize", double(io::dtype_size(h.dtype)));
    out.set("fortranOrder", h.fortran_order);
    out.set("shape", tpw::from_shape(h.shape));
    out.set("dataOffset", double(h.data_offset));
    return out;
  });
}

// The whole array at once: used for Fortran order, which is transposed while converting.
int npy_decode(val header, double file_size, val data, int to) {
  return tpw::guard([&] {
    const auto hb = copy_in(header);
    const io::NpyHeader h = io::parse_npy_header(hb.data(), hb.size(), file_size_of(file_size));
    const auto raw = copy_in(data);
    return tpw::put(io::decode_npy_tensor(h, raw.data(), raw.size(), load_as(h.dtype, to)));
  });
}

val npy_save(int id, std::string dtype) {
  return tpw::guard([&] { return copy_out(io::write_npy_tensor(tpw::get(id), stored_named(dtype))); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(tensorpad_io) {
  using emscripten::function;
  function("ioSafetensorsHeaderSize", &st_header_size);
  function("ioSafetensorsCheckHeader", &st_check_header);
  function("ioDecodeBegin", &decode_begin);
  function("ioDecodeChunk", &decode_chunk);
  function("ioSaveSafetensors", &st_save);
  function("ioNpyHeaderSize", &npy_header_size);
  function("ioNpyParseHeader", &npy_parse_header);
  function("ioNpyDecode", &npy_decode);
  function("ioSaveNpy", &npy_save);
}
