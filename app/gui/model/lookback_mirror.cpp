// The look-back view in words (lookback_mirror.hpp).
#include "gui/model/lookback_mirror.hpp"

#include <algorithm>

#include "core/values.hpp"

namespace sv::gui {

namespace {

std::string value_words(const LookbackRun& r, std::int64_t tile, bool inclusive, const std::optional<Payload>& v) {
  if (!v) return "-";
  std::string s = format_value(r.trace.meta.type, *v);
  if (descriptor_value_wrong(r, tile, inclusive, *v)) s += " (wrong)";
  return s;
}

}  // namespace

LookbackMirror mirror_lookback(const LookbackUi& ui) {
  LookbackMirror m;
  if (ui.run_to_run) m.summary = describe_run_to_run(*ui.run_to_run, ui.lesson.floats && ui.lesson.deterministic);
  static const char* const life[] = {"not started", "running", "waiting", "done"};
  for (std::size_t k = 0; k < ui.runs.size(); ++k) {
    const LookbackRun& r = ui.runs[k];
    LookbackMirrorRun run;
    run.title = r.trace.meta.algorithm + (ui.run_to_run ? ", run " + std::to_string(k + 1) : std::string()) + ": " +
                std::to_string(r.tiles) + " tiles, result " + std::string(outcome_name(r.outcome)) + ", " +
                std::to_string(r.summary.stale_reads) + " stale reads";
    const bool gpu = r.trace.meta.executor.kind == "gpu";
    run.time = "time " + std::to_string(ui.time) + " of " + std::to_string(r.t1) + (gpu ? " ns" : " cycles") +
               (ui.playing ? " (playing: the table follows when it stops)" : "");
    const auto states = descriptors_at(r, ui.time);
    const std::int64_t shown = std::min<std::int64_t>(r.tiles, kLookbackMirrorTiles);
    for (std::int64_t t = 0; t < shown; ++t) {
      const DescriptorState& d = states[static_cast<std::size_t>(t)];
      LookbackMirrorTile tile;
      tile.tile = t;
      tile.flag = std::string(tile_flag_name(d.flag));
      tile.aggregate = value_words(r, t, false, d.aggregate);
      tile.inclusive = value_words(r, t, true, d.inclusive);
      tile.state = life[static_cast<int>(d.life)];
      if (d.life == TileLife::Waiting && d.waiting_for >= 0) tile.state += " for tile " + std::to_string(d.waiting_for);
      if (ui.run_to_run)
        tile.moved = std::binary_search(ui.run_to_run->moved.begin(), ui.run_to_run->moved.end(), t);
      run.tiles.push_back(std::move(tile));
    }
    run.more_tiles = r.tiles - shown;
    if (ui.selected >= 0 && ui.selected < r.tiles)
      for (const TileInspection& i : inspections_until(r, ui.selected, ui.time)) run.selected.push_back(describe_inspection(r.trace, ui.selected, i));
    m.runs.push_back(std::move(run));
  }
  return m;
}

}  // namespace sv::gui
