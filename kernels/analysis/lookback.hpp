// Look-back analysis of a device-wide scan's tile-level trace: per tile, when it started, published
// its aggregate (A) and inclusive prefix (P), which predecessors it inspected and what it saw, how
// long it waited; and the stale reads (a flag seen with a value its tile never published with it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tile_times.hpp"  // the phase statistics of a clocked GPU run, re-exported for the views
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

// "tile 5 inspected tile 4: saw P with 17, but tile 4 published P with 40 (stale)"
std::string describe_inspection(const Trace& trace, std::int64_t tile, const TileInspection& i);

}  // namespace sv
