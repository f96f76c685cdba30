// The look-back view in words, for the page's text mirror (a screen reader follows the view there):
// each run's descriptors at the view's time, tile by tile, the selected tile's inspections, and the
// comparison of a lesson run twice. Plain data from the view's model; app/web/lookback_html.* lays
// it out as headings and tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gui/lesson/lookback_lesson.hpp"

namespace sv::gui {

struct LookbackMirrorTile {
  std::int64_t tile = -1;
  std::string flag, aggregate, inclusive, state;  // "P", "17", "-", "done"; a wrong value ends in " (wrong)"
  bool moved = false;  // a lesson run twice: its look-back stopped at another predecessor in the other run
};

struct LookbackMirrorRun {
  std::string title;  // "decoupled-lookback, run 1: 128 tiles, result correct"
  std::string time;   // "time 3576 of 7312 cycles"
  std::vector<LookbackMirrorTile> tiles;  // at most kLookbackMirrorTiles
  std::int64_t more_tiles = 0;            // the tiles left out after them
  std::vector<std::string> selected;      // the selected tile's inspections until the time, in words
};

struct LookbackMirror {
  std::string summary;  // a lesson run twice: where the runs part (run_to_run.hpp); else ""
  std::vector<LookbackMirrorRun> runs;
};

// A table of thousands of rows is no use read aloud: the first tiles are listed, the rest counted.
inline constexpr std::int64_t kLookbackMirrorTiles = 256;

LookbackMirror mirror_lookback(const LookbackUi& ui);

}  // namespace sv::gui
