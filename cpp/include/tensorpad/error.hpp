// The one error type of the core: every invalid call throws tp::Error("op: what is wrong").
#pragma once
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
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
// One piece of a message, by value or by view: fail() turns its arguments into these and one function
// compiled once (error.cpp) writes the text, so the hundreds of call sites do not each instantiate the
// formatting. Numbers print as an ostream would ("%g" for floats), without iostreams (<sstream> alone
// adds about 100 KB to the WebAssembly module). A shape (std::vector<int64_t>) prints as shape_str writes
// it, "[2, 3, 4]", from a pointer: no std::string temporary at the call site, whose construction and
// cleanup on the way out were repeated at each of the ~140 call sites that named a shape.
struct Piece {
  enum Kind : uint8_t { kText, kChar, kInt, kUint, kFloat, kBool, kShape } kind;
  union {
    std::string_view text;
    char c;
    int64_t i;
    uint64_t u;
    double d;
    bool b;
    const std::vector<int64_t>* shape;
  };
  Piece(std::string_view v) : kind(kText), text(v) {}
  Piece(const char* v) : kind(kText), text(v) {}
  Piece(const std::string& v) : kind(kText), text(v) {}
  Piece(char v) : kind(kChar), c(v) {}
  Piece(bool v) : kind(kBool), b(v) {}
  Piece(const std::vector<int64_t>& v) : kind(kShape), shape(&v) {}
  template <class T, std::enable_if_t<std::is_enum_v<T>, int> = 0>
  Piece(T v) : kind(kInt), i(int64_t(static_cast<std::underlying_type_t<T>>(v))) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
  Piece(T v) : kind(std::is_signed_v<T> ? kInt : kUint) {
    if constexpr (std::is_signed_v<T>) i = v; else u = v;
  }
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Piece(T v) : kind(kFloat), d(double(v)) {}
};

// Throws Error("op: " + the pieces).
[[noreturn]] void fail_pieces(const char* op, std::initializer_list<Piece> pieces);

// Appends v as printf's "%g" writes it (6 significant digits of the exact binary value, trailing zeros
// cut, "1e+06" from 1e6 and below 1e-4; "inf", "-nan"), without printf: the printf family and the long
// double arithmetic it brings were bytes of the WebAssembly module for this one use. Exact from 1e-17 to
// 1e27; beyond, a value within about 1e-16 (relative) of a 6-digit halfway point may round the other way.
void append_g(std::string& out, double v);
}  // namespace detail

// Builds "op: message" from pieces (strings, numbers, enums, shapes) and throws it.
template <class... Parts>
[[noreturn]] void fail(const char* op, const Parts&... parts) {
  detail::fail_pieces(op, {detail::Piece(parts)...});
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
