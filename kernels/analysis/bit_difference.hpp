// Two runs' outputs compared bit for bit: how many differ, and the first that does. Bits, not
// values: 0.0 and -0.0 are two answers here, as they are to a program that prints or hashes them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/payload.hpp"

namespace sv {

struct BitDifference {
  std::int64_t outputs = 0;  // outputs whose bits differ (a missing output counts as differing)
  std::int64_t first = -1;   // the first of them; -1 when the two are the same
};

inline BitDifference bit_difference(const std::vector<Payload>& a, const std::vector<Payload>& b) {
  BitDifference d;
  const std::size_t n = std::max(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (i >= a.size() || i >= b.size() || a[i] != b[i]) {
      if (d.first < 0) d.first = static_cast<std::int64_t>(i);
      ++d.outputs;
    }
  return d;
}

}  // namespace sv
