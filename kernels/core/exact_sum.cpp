// Shewchuk's expansion sum (exact_sum.hpp).
#include "core/exact_sum.hpp"

#include <cmath>
#include <limits>

namespace sv {

void ExactSum::add(double x) {
  // Grow the expansion by x: each part absorbs x's carry, keeping the part's rounding error.
  std::size_t kept = 0;
  for (double p : parts_) {
    const TwoSum<double> t = two_sum(x, p);
    if (t.error != 0) parts_[kept++] = t.error;
    x = t.sum;
  }
  parts_.resize(kept);
  if (x != 0) parts_.push_back(x);
}

double ExactSum::value() const {
  if (parts_.empty()) return 0;
  // From the largest part down: once an addition is inexact, the parts below only break a tie.
  std::size_t i = parts_.size() - 1;
  double hi = parts_[i], lo = 0;
  while (i > 0) {
    const TwoSum<double> t = two_sum(hi, parts_[--i]);
    hi = t.sum;
    lo = t.error;
    if (lo != 0) break;
  }
  // A half-way rounding (lo exactly half an ulp of hi) goes the other way when the parts below
  // push the total past the half.
  if (i > 0 && ((lo < 0 && parts_[i - 1] < 0) || (lo > 0 && parts_[i - 1] > 0))) {
    const double twice = lo * 2;
    const double up = hi + twice;
    if (twice == up - hi) hi = up;
  }
  return hi;
}

double ExactSum::minus(double x) const {
  ExactSum d = *this;
  d.add(-x);
  return d.value();
}

double ExactSum::ulp(ValueType type) const {
  const double v = value();
  if (v == 0 || !std::isfinite(v)) return ulp_of(type, v);
  const double below = minus(v);  // what the rounding added or took away
  const bool power_of_two = std::ldexp(1.0, std::ilogb(v)) == std::abs(v);
  const bool under = (v > 0 && below < 0) || (v < 0 && below > 0);
  return power_of_two && under ? ulp_of(type, v / 2) : ulp_of(type, v);
}

double ulp_of(ValueType type, double x) {
  const bool single = type == ValueType::F32;
  const int digits = single ? std::numeric_limits<float>::digits : std::numeric_limits<double>::digits;
  const int min_exponent = (single ? std::numeric_limits<float>::min_exponent : std::numeric_limits<double>::min_exponent) - 1;
  const int e = x == 0 || !std::isfinite(x) ? min_exponent : std::max(std::ilogb(x), min_exponent);
  return std::ldexp(1.0, e - (digits - 1));
}

}  // namespace sv
