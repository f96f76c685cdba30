// Look-back analysis of a device-wide scan's tile-level trace: per tile, when it started, published
// its aggregate (A) and inclusive prefix (P), which predecessors it inspected and what it saw, how
// long it waited; and the stale reads (a flag seen with a value its tile never published with it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv {

struct TileInspection {
  std::int64_t target = -1;
  TileFlag flag = TileFlag::X;
  Payload value;
  std::uint32_t spins = 0;
  std::uint64_t time = 0;
  bool stale = false;  // the value is not what `target` published with `flag`
};

struct TileSummary {
  std::int64_t tile = -1;
  std::uint32_t block = 0;
  std::uint16_t sm = 0;
  std::uint64_t start = 0, end = 0;            // times (end = 0: never ended)
  bool ended = false;
  std::int64_t a_at = -1, p_at = -1;           // publish times, -1 when never published
  Payload aggregate, inclusive;                // the published values
  std::vector<TileInspection> inspections;     // in order
  std::uint64_t wait_began = 0;                // first Wait event's time
  bool waited = false;
  std::int64_t waiting_for = -1;               // the predecessor of the last Wait event
  std::uint64_t spins = 0;                     // polls that found the window not ready
};

struct LookbackSummary {
  std::vector<TileSummary> tiles;  // by tile id, of the single-pass launch (or the last launch)
  std::int64_t inspections = 0;
  std::int64_t stale_reads = 0;
  std::uint64_t max_spins = 0;
  std::int64_t waited_tiles = 0;
};

// Pass: the launch (step) whose tile events to summarize; -1 = the last launch that has any.
LookbackSummary summarize_lookback(const Trace& trace, int pass = -1);

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

// "tile 5 inspected tile 4: saw P with 17, but tile 4 published P with 40 (stale)"
std::string describe_inspection(const Trace& trace, std::int64_t tile, const TileInspection& i);

}  // namespace sv
