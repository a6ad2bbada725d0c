// libFuzzer target for the safetensors reader: any input either parses into tensors whose bytes lie
// inside the file, or throws tp::Error. Anything else (a crash, a sanitizer report, another exception)
// is a bug; tests/fuzz/run.sh builds and runs this, and each crash becomes a case in tests/cpp/test_io.cpp.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "tensorpad/io.hpp"

using namespace tp::io;

static void check(bool ok) {
  if (!ok) std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    // The two-step path the JS side uses: 8 bytes, then the header alone (in its own allocation, so
    // ASan catches any read past it), then each tensor's own byte range.
    const uint64_t n = safetensors_header_size(data, size < 8 ? size : 8, size);
    const std::vector<uint8_t> json(data + 8, data + 8 + n);
    const SafetensorsHeader h = parse_safetensors_header(json.data(), json.size(), size);
    check(h.data_offset() + h.data_size == size);
    std::vector<NamedArray> arrays;
    std::vector<std::vector<float>> values;
    for (const auto& e : h.tensors) {
      check(e.begin <= e.end && e.end <= h.data_size);
      check(uint64_t(e.numel()) * dtype_size(e.dtype) == e.nbytes());
      const std::vector<uint8_t> slice(data + h.data_offset() + e.begin, data + h.data_offset() + e.end);
      values.emplace_back(size_t(e.numel()));
      to_float32(e.dtype, slice.data(), e.numel(), values.back().data());
    }
    // Whatever was read writes back (F16 and BF16 as themselves, the rest as F32) and reads again with the
    // same names and shapes. Every half and bfloat16 value is exact in float32, so F16 and BF16 tensors
    // write back their own bytes, except that a signaling NaN comes back quiet.
    for (size_t i = 0; i < h.tensors.size(); ++i) {
      const DType dt = h.tensors[i].dtype;
      arrays.push_back({h.tensors[i].name, h.tensors[i].shape, values[i].data(),
                        dt == DType::F16 || dt == DType::BF16 ? dt : DType::F32});
    }
    const std::vector<uint8_t> again = write_safetensors(arrays, h.metadata);
    const SafetensorsHeader h2 = parse_safetensors(again.data(), again.size());
    check(h2.tensors.size() == h.tensors.size());
    for (size_t i = 0; i < h.tensors.size(); ++i) {
      const SafetensorsEntry &e = h.tensors[i], &e2 = h2.tensors[i];
      check(e2.name == e.name && e2.shape == e.shape && e2.dtype == arrays[i].dtype);
      if (e.dtype != DType::F16 && e.dtype != DType::BF16) continue;
      const uint16_t quiet = e.dtype == DType::F16 ? 0x0200 : 0x0040;
      const uint16_t exp = e.dtype == DType::F16 ? 0x7c00 : 0x7f80;
      for (int64_t k = 0; k < e.numel(); ++k) {
        uint16_t a, b;
        std::memcpy(&a, data + h.data_offset() + e.begin + 2 * k, 2);
        std::memcpy(&b, again.data() + h2.data_offset() + e2.begin + 2 * k, 2);
        const bool nan = (a & exp) == exp && (a & ~(exp | 0x8000)) != 0;
        check(b == (nan ? uint16_t(a | quiet) : a));
      }
    }
  } catch (const tp::Error&) {
    // A clear refusal is the expected outcome for most inputs.
  }
  return 0;
}
