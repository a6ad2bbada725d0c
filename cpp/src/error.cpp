// The one place tp::fail's messages are written (see error.hpp): compiled once for every call site.
#include "tensorpad/error.hpp"

namespace tp::detail {

void fail_pieces(const char* op, std::initializer_list<Piece> pieces) {
  std::string s = op;
  s += ": ";
  for (const Piece& p : pieces) {
    switch (p.kind) {
      case Piece::kText: s += p.text; break;
      case Piece::kChar: s += p.c; break;
      case Piece::kInt: s += std::to_string(p.i); break;
      case Piece::kUint: s += std::to_string(p.u); break;
      case Piece::kBool: s += p.b ? "true" : "false"; break;
      case Piece::kFloat: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", p.d);
        s += buf;
        break;
      }
    }
  }
  throw Error(s);
}

}  // namespace tp::detail
