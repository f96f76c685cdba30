// Floats graded as numerical analysis grades a sum: each output of a float kernel against the scan of
// the same inputs in float64, within a bound that grows with the number of additions behind it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ops.hpp"
#include "core/payload.hpp"

namespace sv::cuda {

// What one output should be: the float64 sum of its terms, the sum of their magnitudes, and how many
// additions make it (its terms less one; 0 for an exclusive scan's first output, the identity).
struct FloatExpected {
  double value = 0;
  double magnitude = 0;
  std::int64_t additions = 0;
};

// The float64 scan of `input`, restarting every `section` elements (a block's own elements).
std::vector<FloatExpected> float64_scan(ValueType type, const std::vector<Payload>& input, std::int64_t section, bool exclusive);

// The largest error a correct kernel may have: factor * gamma(k) * magnitude, gamma(k) = k u / (1 - k u)
// with u the unit roundoff of `type` (2^-24 for float), k the additions. Higham's bound holds for a sum
// in any order of additions (a Brent-Kung tree, a Kogge-Stone's, the sequential one), so factor 1 never
// fails a correct kernel; the float64 reference's own error is added on top.
double float_tolerance(ValueType type, const FloatExpected& e, double factor);

// Whether `actual` (a float or double payload) is within that tolerance of the float64 value.
bool float_output_ok(ValueType type, const FloatExpected& e, const Payload& actual, double factor);

// The card's sentence on how floats are judged.
std::string float_tolerance_text(ValueType type, double factor);

}  // namespace sv::cuda
