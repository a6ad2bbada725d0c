// The one error type of the core: every invalid call throws tp::Error("op: what is wrong").
#pragma once
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tp {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
// Message pieces are appended with std::to_string and snprintf, not iostreams: <sstream> alone adds
// about 100 KB to the WebAssembly module. Numbers print as an ostream would ("%g" for floats).
inline void append(std::string& s, std::string_view v) { s += v; }
inline void append(std::string& s, const char* v) { s += v; }
inline void append(std::string& s, char v) { s += v; }
inline void append(std::string& s, bool v) { s += v ? "true" : "false"; }
template <class T>
void append(std::string& s, const T& v) {
  if constexpr (std::is_enum_v<T>) {
    s += std::to_string(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_integral_v<T>) {
    s += std::to_string(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(v));
    s += buf;
  } else {
    static_assert(std::is_convertible_v<const T&, std::string_view>, "tp::fail: unsupported message piece");
    s += std::string_view(v);
  }
}
}  // namespace detail

// Builds "op: message" from pieces (strings, numbers, enums) and throws it.
template <class... Parts>
[[noreturn]] void fail(const char* op, const Parts&... parts) {
  std::string s = op;
  s += ": ";
  (detail::append(s, parts), ...);
  throw Error(s);
}

// Formats a shape as "[2, 3, 4]" for messages.
inline std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace tp

// Kernels assert their preconditions; the operator layer above validates and throws tp::Error.
#define TP_ASSERT(cond) assert(cond)
