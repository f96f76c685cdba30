// A clocked single-pass run's three times per tile and their phase statistics: what the benchmark's
// phase breakdown prints. A leaf beside bench_result.hpp, so the GPU executor and the benchmark
// need no analysis header.
#pragma once

#include <cstdint>
#include <vector>

namespace sv {

// Where a single-pass tile's time goes, from three times of each tile in tile order: its id taken,
// its aggregate published (A), its inclusive prefix published (P). `load` is taken -> A (the
// elements arrive and are reduced), `lookback` A -> P, which splits exactly into `late`, from the
// tile's A until the last A of the tiles before it (no P can come earlier: a prefix needs every
// element before it), and `after`, from there to the tile's P (the polls, and the inclusive
// prefixes' way along the chain). `p_lag`: how many tiles back the nearest P was at the tile's A
// (the look-back's walk). Tile 0 counts in `load` only; a tile with a time missing (0) is left out.
struct TileTimes {
  std::uint64_t taken = 0, aggregate = 0, inclusive = 0;
};
struct PhaseQuantiles {
  double median = 0, p90 = 0;
};
struct TilePhaseStats {
  std::int64_t tiles = 0;          // tiles with all three times
  double span_ns = 0;              // the first id taken to the last P
  PhaseQuantiles load, lookback, late, after, p_lag;  // ns (p_lag: tiles)
  double late_share = 0;           // the sum of `late` over the sum of `lookback`
  std::uint64_t tick_ns = 0;       // the clock's smallest step among the times (0: none seen)
};
TilePhaseStats tile_phase_stats(const std::vector<TileTimes>& tiles);

}  // namespace sv
