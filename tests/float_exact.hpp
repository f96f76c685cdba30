// The float tests' own exact arithmetic, apart from the program's (Shewchuk's expansions): each value
// scaled by 2^shift to a 128-bit integer, so sums are integer sums, and an error's ULP counted from
// the integer's bit length. The inputs the tests use are whole multiples of 2^-shift small enough
// for 128 bits (checked as they are scaled).
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/payload.hpp"
#include "core/values.hpp"

namespace float_exact {

using I128 = __int128;

inline double number(sv::ValueType type, const sv::Payload& p) {
  return type == sv::ValueType::F32 ? static_cast<double>(p.as<float>()) : p.as<double>();
}

// The shift that makes floats (scaled slides' values, uniform multiples of 2^-24, 1e8) and doubles
// (uniform multiples of 2^-53, scaled values down to 2^-56, 1e17) whole, with room for 4096 terms.
inline int shift_for(sv::ValueType type) { return type == sv::ValueType::F32 ? 60 : 56; }

inline I128 scaled(double x, int shift) {
  const long double s = std::ldexp(static_cast<long double>(x), shift);
  REQUIRE(s == std::floor(s));
  REQUIRE(std::fabs(s) < std::ldexp(1.0L, 115));
  return static_cast<I128>(s);
}

// |value - exact| in ULPs of `type` at `exact`, both scaled integers.
inline long double ulps(sv::ValueType type, I128 exact, I128 value, int shift) {
  const I128 mag = exact < 0 ? -exact : exact;
  int bits = 0;  // bit length: floor(log2 |exact|) + 1
  for (I128 m = mag; m > 0; m >>= 1) ++bits;
  const bool single = type == sv::ValueType::F32;
  const int min_exp = single ? -126 : -1022, digits = single ? 24 : 53;
  const int e = mag == 0 ? min_exp : std::max(bits - 1 - shift, min_exp);
  const I128 diff = value > exact ? value - exact : exact - value;
  return static_cast<long double>(diff) / std::ldexp(1.0L, e - (digits - 1) + shift);
}

// The left-to-right loop in the type itself.
inline double loop_sum(sv::ValueType type, const std::vector<sv::Payload>& in, std::size_t first, std::size_t last) {
  if (type == sv::ValueType::F32) {
    float s = in[first].as<float>();
    for (std::size_t i = first + 1; i <= last; ++i) s = s + in[i].as<float>();
    return s;
  }
  double s = in[first].as<double>();
  for (std::size_t i = first + 1; i <= last; ++i) s = s + in[i].as<double>();
  return s;
}

}  // namespace float_exact
