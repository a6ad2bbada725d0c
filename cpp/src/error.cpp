// The one place tp::fail's messages are written (see error.hpp): compiled once for every call site.
#include <cmath>

#include "tensorpad/error.hpp"

namespace tp::detail {

namespace {

// a * b = hi + lo exactly (Dekker's product, Veltkamp's split): no FMA, which WebAssembly lacks.
void two_product(double a, double b, double* hi, double* lo) {
  const auto split = [](double x, double* h, double* l) {
    const double c = 134217729.0 * x;  // 2^27 + 1
    *h = c - (c - x);
    *l = x - *h;
  };
  double ah, al, bh, bl;
  split(a, &ah, &al);
  split(b, &bh, &bl);
  *hi = a * b;
  *lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
}

// v * 10^k rounded to an integer as printf rounds: on the exact value, half to even. For |k| <= 22 the
// power is exact and a product (or quotient) that rounds to a tie is settled by its exact remainder
// (0.9078255 is 0.907825499... in binary and prints as 0.907825); beyond, the scaling is off by an ulp
// or two, which moves the rounding only for a value within about 1e-16 of halfway.
double round_scaled(double v, int k) {
  static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (k > 22 || k < -22) {
    while (k > 300) v *= 1e300, k -= 300;
    while (k < -300) v *= 1e-300, k += 300;
    return std::nearbyint(v * std::pow(10.0, k));
  }
  const double p = kPow10[k < 0 ? -k : k];
  const double m = k >= 0 ? v * p : v / p;
  const double below = std::floor(m);
  if (m - below != 0.5) return std::nearbyint(m);
  double hi, lo, above;  // the sign of exact - m
  if (k >= 0) {
    two_product(v, p, &hi, &lo);
    above = lo;                 // v * p = m + lo
  } else {
    two_product(m, p, &hi, &lo);
    above = (v - hi) - lo;      // v - m * p, exact: hi is within a factor 2 of v
  }
  if (above > 0) return below + 1;
  if (above < 0) return below;
  return std::nearbyint(m);     // a true tie: half to even
}

void append_digits(std::string& out, uint64_t d, int count) {
  char buf[20];
  for (int i = count - 1; i >= 0; --i, d /= 10) buf[i] = char('0' + d % 10);
  out.append(buf, size_t(count));
}

}  // namespace

void append_g(std::string& out, double v) {
  if (std::signbit(v)) out += '-';
  if (std::isnan(v)) return void(out += "nan");
  v = std::fabs(v);
  if (std::isinf(v)) return void(out += "inf");
  if (v == 0) return void(out += '0');
  // The 6 significant digits d (100000 <= d < 1000000) and the decimal exponent e: v ~ d * 10^(e-5).
  int e = int(std::floor(std::log10(v)));
  double m = round_scaled(v, 5 - e);
  if (m < 1e5) m = round_scaled(v, 5 - --e);  // log10 rounded up across a power of ten
  if (m >= 1e6) m /= 10, ++e;                              // 999999.5 rounded up to 1000000
  uint64_t d = uint64_t(m);
  int digits = 6;
  while (digits > 1 && d % 10 == 0) d /= 10, --digits;  // %g drops trailing zeros
  if (e < -4 || e >= 6) {  // exponent form: d.ddddde+XX
    append_digits(out, d / uint64_t(std::pow(10.0, digits - 1)), 1);
    if (digits > 1) {
      out += '.';
      append_digits(out, d, digits - 1);  // the low digits-1 digits
    }
    out += e < 0 ? "e-" : "e+";
    const int a = e < 0 ? -e : e;
    append_digits(out, uint64_t(a), a >= 100 ? 3 : 2);
  } else if (e >= 0) {  // e + 1 integer digits, then the rest after the point
    if (digits <= e + 1) {
      append_digits(out, d, digits);
      out.append(size_t(e + 1 - digits), '0');
    } else {
      const uint64_t p = uint64_t(std::pow(10.0, digits - e - 1));
      append_digits(out, d / p, e + 1);
      out += '.';
      append_digits(out, d % p, digits - e - 1);
    }
  } else {  // 0.000ddd
    out += "0.";
    out.append(size_t(-e - 1), '0');
    append_digits(out, d, digits);
  }
}

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
      case Piece::kFloat: append_g(s, p.d); break;
      case Piece::kShape: s += shape_str(*p.shape); break;
    }
  }
  throw Error(s);
}

}  // namespace tp::detail
