// The one error type of the core: every invalid call throws tp::Error("op: what is wrong").
#pragma once
#include <cassert>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>
#include <cstdint>

namespace tp {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Builds "op: message" from any streamable pieces and throws it.
template <class... Parts>
[[noreturn]] void fail(const char* op, const Parts&... parts) {
  std::ostringstream s;
  s << op << ": ";
  (s << ... << parts);
  throw Error(s.str());
}

// Formats a shape as "[2, 3, 4]" for messages.
inline std::string shape_str(const std::vector<int64_t>& shape) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < shape.size(); ++i) s << (i ? ", " : "") << shape[i];
  s << ']';
  return s.str();
}

}  // namespace tp

// Kernels assert their preconditions; the operator layer above validates and throws tp::Error.
#define TP_ASSERT(cond) assert(cond)
