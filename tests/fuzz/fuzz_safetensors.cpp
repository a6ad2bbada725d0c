// libFuzzer target for the safetensors reader: any input either parses into tensors whose bytes lie
// inside the file, or throws tp::Error. Anything else (a crash, a sanitizer report, another exception)
// is a bug; tests/fuzz/run.sh builds and runs this, and each crash becomes a case in tests/cpp/test_io.cpp.
#include <cstdint>
#include <cstdlib>
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
    // Whatever was read writes back as F32 and reads again with the same names and shapes.
    for (size_t i = 0; i < h.tensors.size(); ++i)
      arrays.push_back({h.tensors[i].name, h.tensors[i].shape, values[i].data()});
    const std::vector<uint8_t> again = write_safetensors(arrays, h.metadata);
    const SafetensorsHeader h2 = parse_safetensors(again.data(), again.size());
    check(h2.tensors.size() == h.tensors.size());
    for (size_t i = 0; i < h.tensors.size(); ++i)
      check(h2.tensors[i].name == h.tensors[i].name && h2.tensors[i].shape == h.tensors[i].shape);
  } catch (const tp::Error&) {
    // A clear refusal is the expected outcome for most inputs.
  }
  return 0;
}
