// The look-back view's model: a device-wide trace prepared for drawing (every tile's lifetime on the
// lane of its SM it ran in, the descriptor changes in time order) and the descriptors as they stand at
// a chosen time. Plain data, no ImGui: the tests check it field by field.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/lookback.hpp"
#include "analysis/pipeline.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

// One tile's lifetime in one launch, on the lane (a resident slot of its SM) it ran in.
struct TileSpan {
  std::int64_t tile = -1;
  std::uint16_t pass = 0, sm = 0;
  int lane = 0;
  std::uint64_t start = 0, end = 0;
  bool ended = false;
  bool first_level = true;  // a launch over the descriptors' tiles (not the recursion on the tile sums)
  std::vector<std::pair<std::uint64_t, std::uint64_t>> waits;  // [began, ended) of each wait; UINT64_MAX: never ended (deadlock)
};

// A change of one descriptor field, in time order, at the time other tiles can see it: the tile's
// flag, its aggregate or its inclusive prefix. reduce-then-scan has no descriptors: its tile sums act as aggregates (known when a tile of
// the reduce launch ends) and its scanned sums as inclusive prefixes (known when the last launch starts).
struct DescriptorChange {
  std::uint64_t time = 0;
  std::int64_t tile = -1;
  enum class Field : std::uint8_t { Flag, Aggregate, Inclusive } field = Field::Flag;
  TileFlag flag = TileFlag::X;
  Payload value;
};

// A trace prepared for the view (computed once per trace).
struct LookbackRun {
  Trace trace;
  Outcome outcome = Outcome::Correct;
  LookbackSummary summary;              // of the single-pass launch (the last launch with tile events)
  std::int64_t tiles = 0;               // descriptors shown: the first level's tiles
  std::vector<TileSpan> spans;          // every tile of every launch
  int lanes = 0;
  std::vector<int> lane_sm;             // lane -> SM
  std::vector<DescriptorChange> changes;  // by time
  std::uint64_t t0 = 0, t1 = 0;         // the tile events' time range: from 0, gaps between launches folded
  std::uint64_t folded = 0;             // time removed between launches (a GPU trace's host work)
  bool derived_descriptors = false;     // reduce-then-scan: from the tile sums, not from descriptors
  std::uint64_t visible_after = 0;      // emulator: a store is seen this long after its event (the latency)
  PipelineRun pipeline;                 // the pipelined kernel's warp roles (no tiles: not that kernel)
  // Each tile's true aggregate and inclusive prefix, from the reference scan of the input (empty for
  // a segmented scan): a descriptor value that differs is wrong (a stale or torn read passed on).
  std::vector<Payload> expected_aggregate, expected_inclusive;
};
// Whether `value`, shown as tile `tile`'s aggregate (or inclusive prefix), is not the true one.
bool descriptor_value_wrong(const LookbackRun& run, std::int64_t tile, bool inclusive, const Payload& value);
LookbackRun make_lookback_run(Trace trace);

enum class TileLife : std::uint8_t { NotStarted, Running, Waiting, Done };

struct DescriptorState {
  TileFlag flag = TileFlag::X;
  std::optional<Payload> aggregate, inclusive;
  TileLife life = TileLife::NotStarted;
  std::int64_t waiting_for = -1;  // the predecessor it waits on, when waiting
};
// Every descriptor as it stands at `time` (changes at exactly `time` included).
std::vector<DescriptorState> descriptors_at(const LookbackRun& run, std::uint64_t time);

// The inspections `tile` made up to `time` (of the single-pass launch), most recent window last.
std::vector<TileInspection> inspections_until(const LookbackRun& run, std::int64_t tile, std::uint64_t time);

// The time a scene shows by default: the middle of the run.
inline std::uint64_t default_lookback_time(const LookbackRun& r) { return r.t0 + (r.t1 - r.t0) / 2; }

}  // namespace sv::gui
