// Exact sums of floating-point values, for the float lesson's errors (analysis/float_error.hpp).
// Shewchuk's expansions: a sum is kept as a list of doubles whose exact total is the sum, no two of
// them overlapping in their bits, each addition made exact by the two-sum below. Nothing is rounded
// until value() is asked for, so the sum of any number of floats or doubles is exact (barring
// overflow past the largest double).
#pragma once

#include <vector>

#include "core/ops.hpp"

namespace sv {

// a + b = s + e exactly, s = fl(a + b), in T's own arithmetic (Knuth's two-sum; round to nearest).
template <class T>
struct TwoSum {
  T sum, error;
};
template <class T>
TwoSum<T> two_sum(T a, T b) {
  const T s = a + b;
  const T bb = s - a;
  const T e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

class ExactSum {
 public:
  void add(double x);
  // The exact total rounded to a double (the parts added smallest first, then the half-way case
  // corrected, so the rounding is to nearest).
  double value() const;
  // The exact total minus `x`, rounded to a double: the error of a rounded sum x.
  double minus(double x) const;
  // ulp_of(type, the exact total): taken at the total itself, not its rounding, which can round up
  // to the next power of two (0.3 + 0.6 + 0.7 + 0.4 in double is just under 2).
  double ulp(ValueType type) const;

 private:
  std::vector<double> parts_;  // increasing magnitude, non-overlapping, no zeros
};

// The spacing of `type`'s values (float or double) at |x|: one unit in the last place. At 0 (and
// among the subnormals) the smallest subnormal's.
double ulp_of(ValueType type, double x);

}  // namespace sv
