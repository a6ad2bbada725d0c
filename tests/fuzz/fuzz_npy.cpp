// libFuzzer target for the .npy reader: any input either decodes to an array whose size matches its
// shape, or throws tp::Error. Anything else is a bug (see tests/fuzz/run.sh).
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
    // The two-step path: the preamble, then the header, then the data, each in its own allocation.
    const uint64_t hsize = npy_header_size(data, size < 12 ? size : 12, size);
    const std::vector<uint8_t> header(data, data + hsize);
    const NpyHeader h = parse_npy_header(header.data(), header.size(), size);
    check(h.data_offset + h.nbytes() == size);
    const std::vector<uint8_t> body(data + h.data_offset, data + size);
    std::vector<float> values(size_t(h.nbytes() / dtype_size(h.dtype)));
    decode_npy_data(h, body.data(), body.size(), values.data());

    // The one-step path agrees bit for bit, and the array writes back and reads again unchanged.
    const DecodedArray a = read_npy(data, size);
    check(a.shape == h.shape && a.values.size() == values.size());
    check(values.empty() || std::memcmp(a.values.data(), values.data(), values.size() * 4) == 0);
    const std::vector<uint8_t> again = write_npy(a.shape, a.values.data());
    const DecodedArray b = read_npy(again.data(), again.size());
    check(b.shape == a.shape);
    check(values.empty() || std::memcmp(b.values.data(), values.data(), values.size() * 4) == 0);
    // Written as F16 and F64 it reads back as the values rounded to half (F16) or unchanged (F64).
    for (DType dt : {DType::F16, DType::F64}) {
      const std::vector<uint8_t> as = write_npy(a.shape, a.values.data(), dt);
      const DecodedArray c = read_npy(as.data(), as.size());
      check(c.shape == a.shape && c.values.size() == values.size());
      for (size_t i = 0; i < values.size(); ++i) {
        const float want = dt == DType::F16 ? half_to_float(float_to_half(values[i])) : values[i];
        check(want != want ? c.values[i] != c.values[i] : std::memcmp(&want, &c.values[i], 4) == 0);
      }
    }
  } catch (const tp::Error&) {
  }
  return 0;
}
