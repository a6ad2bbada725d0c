// Text helpers the safetensors reader and writer share: names quoted for messages, UTF-8 checks.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace tp::io::detail {

constexpr const char* kHex = "0123456789abcdef";

// 'name', cut to 80 bytes between UTF-8 characters (never before a continuation byte) with "..." after:
// names come from the file, so messages stay readable, bounded and valid UTF-8 whatever a name holds.
std::string quote_name(const std::string& name);

// The offset of the first byte of s that is not well-formed UTF-8 (an overlong form, a surrogate,
// past U+10FFFF, a truncated sequence), or npos: what a JSON reader and writer must refuse.
size_t invalid_utf8_at(const uint8_t* s, size_t size);

}  // namespace tp::io::detail
