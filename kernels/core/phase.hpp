// The named rounds of the scan algorithms; kernels mark each round with x.step(Phase, param).
#pragma once

#include <cstdint>

namespace sv {

enum class Phase : std::uint8_t {
  Load,           // global -> shared
  Stride,         // Kogge-Stone: add the element `stride` to the left
  Reduction,      // Brent-Kung reduction tree
  PostReduction,  // Brent-Kung distribution tree
  UpSweep,        // Blelloch up-sweep (reduce)
  ClearRoot,      // Blelloch: last element := identity
  DownSweep,      // Blelloch down-sweep
  Span,           // Sklansky: upper half of each 2*span group adds the lower half's last element
  Store,          // shared -> global
};
inline constexpr int kPhaseCount = 9;

}  // namespace sv
