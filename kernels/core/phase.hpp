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
  // Device-wide scans: one phase per kernel launch (param = recursion level of the tile sums).
  ScanTiles,      // each block scans its tile (hierarchical: with a block algorithm)
  TileSums,       // each tile's last element -> the tile sums
  AddPrefixes,    // each tile adds the scanned sums of the tiles before it
  ReduceTiles,    // each tile's aggregate -> the tile sums (reduce-then-scan)
  ScanWithPrefix, // each tile scans again, seeded with the scanned sums before it
  SinglePass,     // chained and decoupled look-back: one launch
  // Warp-level hybrid block scans (Merrill and Garland, Fig. 2).
  WarpScan,       // Kogge-Stone inside each warp through shuffles (param = shuffle offset)
  WarpSums,       // a warp scans the warps' totals (param = shuffle offset)
  Fan,            // each warp adds the total of the warps before it (param = level, 0 = the data)
  RakeReduce,     // raking: each lane folds the next of its consecutive cells (param = item)
  RakeScan,       // raking: each lane scans its cells seeded with the lanes before it (param = item)
  Interval,       // a kernel of the user's own: the barrier interval (param = its number, 0 before the first barrier)
};
inline constexpr int kPhaseCount = 21;
// The device-wide phases, ScanTiles .. SinglePass (one a kernel launch).
inline constexpr bool is_device_phase(Phase p) { return p >= Phase::ScanTiles && p <= Phase::SinglePass; }

}  // namespace sv
