// Two runs of one float scan by decoupled look-back, side by side in the look-back view: where each
// tile's look-back stopped in each run, and the outputs whose bits differ. A tile adds what it saw
// from the nearest inclusive prefix on, so a look-back that stops at another predecessor adds in
// another order, and floats round differently in each order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/bit_difference.hpp"
#include "gui/model/lookback_model.hpp"

namespace sv::gui {

// The predecessor whose inclusive prefix (P) ended the tile's look-back: the first P it inspected (a
// window's inspections run nearest first and end at its nearest P). -1: it saw none (tile 0, or a
// look-back that never ended).
std::int64_t lookback_stop(const TileSummary& tile);

struct RunToRun {
  std::vector<std::int64_t> stopped[2];  // each run's lookback_stop by tile
  std::vector<std::int64_t> moved;       // tiles whose look-back stopped at another predecessor in the second run
  BitDifference outputs;                 // the second run's outputs against the first's
  std::int64_t total = 0;                // outputs of a run
  std::int64_t first_tile = -1;          // the tile of the first output whose bits differ
};
RunToRun compare_runs(const LookbackRun& first, const LookbackRun& second);

// The view's sentence over the two scenes.
std::string describe_run_to_run(const RunToRun& r, bool deterministic);

}  // namespace sv::gui
