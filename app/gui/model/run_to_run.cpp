// Two runs of decoupled look-back compared (run_to_run.hpp).
#include "gui/model/run_to_run.hpp"

#include <algorithm>

namespace sv::gui {

std::int64_t lookback_stop(const TileSummary& tile) {
  for (const TileInspection& i : tile.inspections)
    if (i.flag == TileFlag::P) return i.target;
  return -1;
}

RunToRun compare_runs(const LookbackRun& first, const LookbackRun& second) {
  RunToRun r;
  const LookbackRun* runs[2] = {&first, &second};
  for (int k = 0; k < 2; ++k)
    for (const TileSummary& t : runs[k]->summary.tiles) r.stopped[k].push_back(lookback_stop(t));
  const std::size_t tiles = std::min(r.stopped[0].size(), r.stopped[1].size());
  for (std::size_t t = 0; t < tiles; ++t)
    if (r.stopped[0][t] != r.stopped[1][t]) r.moved.push_back(static_cast<std::int64_t>(t));
  r.outputs = bit_difference(first.trace.result.output, second.trace.result.output);
  r.total = static_cast<std::int64_t>(first.trace.result.output.size());
  if (r.outputs.first >= 0 && first.tiles > 0 && r.total > 0) {
    const std::int64_t per_tile = (r.total + first.tiles - 1) / first.tiles;
    r.first_tile = r.outputs.first / per_tile;
  }
  return r;
}

namespace {
// " (at tile 3 in run 1, tile 2 in run 2)": where the tile's look-back stopped in each run.
std::string stops(const RunToRun& r, std::int64_t tile) {
  auto at = [&](int run) {
    const std::int64_t s = r.stopped[run][static_cast<std::size_t>(tile)];
    return s < 0 ? std::string("no P") : "tile " + std::to_string(s);
  };
  return " (at " + at(0) + " in run 1, " + at(1) + " in run 2)";
}
}  // namespace

std::string describe_run_to_run(const RunToRun& r, bool deterministic) {
  const std::string moved = r.moved.empty() ? "no tile's look-back stopped at another predecessor"
                            : std::to_string(r.moved.size()) + (r.moved.size() == 1 ? " tile's look-back (marked) stopped" : " tiles' look-backs (marked) stopped") +
                                  " at another predecessor in run 2, the first tile " + std::to_string(r.moved.front()) + stops(r, r.moved.front());
  std::string bits = r.outputs.outputs == 0
                         ? "the two runs give the same bits in all " + std::to_string(r.total) + " outputs"
                         : std::to_string(r.outputs.outputs) + " of " + std::to_string(r.total) + " outputs differ in their bits, the first output " +
                               std::to_string(r.outputs.first) + ", in tile " + std::to_string(r.first_tile);
  std::string why = deterministic
                        ? "With deterministic=on each tile's prefix is the left fold of the tiles' aggregates in tile order, "
                          "which any predecessor's prefix continues to the same bits."
                        : "Each tile adds the values it saw from the nearest inclusive prefix on: another nearest prefix is "
                          "another order of additions, and a float sum rounds differently in each order.";
  return "Two runs of one float input, under other memory latencies: " + moved + "; " + bits + ". " + why;
}

}  // namespace sv::gui
