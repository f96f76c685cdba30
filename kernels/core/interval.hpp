// The symbolic interval value of the slides: x3, x0..x3, the identity ID, or an invalid combination.
//
// Combining x(a)..x(b) with x(b+1)..x(c) gives x(a)..x(c). Any other pair is invalid and keeps both
// operands, so a race shows the two ranges it wrongly combined. Associative (invalid absorbs
// everything), not commutative.
#pragma once

#include <cstdint>

#include "core/hd.hpp"

namespace sv {

struct Interval {
  // kind: 0 identity, 1 range lo..hi, 2 invalid (lo..hi combined with lo2..hi2)
  std::int32_t kind = 0;
  std::int32_t lo = 0, hi = 0;
  std::int32_t lo2 = 0, hi2 = 0;

  static constexpr std::int32_t kIdentity = 0, kRange = 1, kInvalid = 2;

  SV_HD static constexpr Interval identity() { return Interval{}; }
  SV_HD static constexpr Interval single(std::int32_t i) { return Interval{kRange, i, i, 0, 0}; }
  SV_HD static constexpr Interval range(std::int32_t lo, std::int32_t hi) { return Interval{kRange, lo, hi, 0, 0}; }
  SV_HD static constexpr Interval invalid(std::int32_t lo, std::int32_t hi, std::int32_t lo2, std::int32_t hi2) {
    return Interval{kInvalid, lo, hi, lo2, hi2};
  }

  SV_HD constexpr bool is_identity() const { return kind == kIdentity; }
  SV_HD constexpr bool is_range() const { return kind == kRange; }
  SV_HD constexpr bool is_invalid() const { return kind == kInvalid; }

  // Algebraically every invalid value is the same absorbing element (which keeps ⊕ associative);
  // the operands it carries are for display only and do not take part in equality.
  SV_HD friend constexpr bool operator==(const Interval& a, const Interval& b) {
    if (a.kind != b.kind) return false;
    return a.kind != kRange || (a.lo == b.lo && a.hi == b.hi);
  }
  SV_HD friend constexpr bool operator!=(const Interval& a, const Interval& b) { return !(a == b); }
};

// a ⊕ b. An invalid operand stays invalid (the first invalid one is kept, so the display shows
// where things first went wrong).
SV_HD constexpr Interval combine(const Interval& a, const Interval& b) {
  if (a.is_identity()) return b;
  if (b.is_identity()) return a;
  if (a.is_invalid()) return a;
  if (b.is_invalid()) return b;
  if (static_cast<long long>(a.hi) + 1 == b.lo) return Interval::range(a.lo, b.hi);
  return Interval::invalid(a.lo, a.hi, b.lo, b.hi);
}

}  // namespace sv
