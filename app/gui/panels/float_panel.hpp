// The float lesson's window: each output of a float sum with its error in ULPs (cells coloured by the
// error, the number written in them), and for the output picked (a click, or Left/Right/Home/End
// while the window has the focus) its addition tree and the lesson's words for it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/float_error.hpp"
#include "gui/model/layout_report.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

inline constexpr const char* kFloatWindowTitle = "Floats: same input, different bits";

// An error's fill (0xRRGGBBAA), light enough for dark text in every theme: exact, within half an
// ULP (the nearest float), within one ULP, one ULP or more.
std::uint32_t float_error_colour(double ulps);

struct FloatUi {
  bool show = false;
  std::int64_t cell = -1;  // the output picked (-1: the last one)
  bool focused = false;    // the window had the keyboard last frame: the timeline keys pick outputs
  // Kept between frames while the trace shown is the same (the tree reads every event).
  std::vector<Payload> seen_input, seen_output;
  std::string seen_algorithm;
  FloatErrors errors;
  std::int64_t tree_cell = -1;
  AdditionTree tree;
};

// The keys' way through the outputs: -1 the previous, +1 the next, -2 the first, +2 the last.
void float_pick_key(FloatUi& ui, int move, std::int64_t outputs);

// Draws the window while ui.show; trace may be null. `chrome`: the parts drawn, named for the layout
// report ("floats_cells", each "floats_cell_N", "floats_tree", "floats_narration"); `texts`: what the
// narration said.
void float_window(FloatUi& ui, const Trace* trace, const std::string& theme,
                  std::vector<std::pair<std::string, LaidRect>>& chrome, std::vector<std::pair<std::string, std::string>>& texts);

}  // namespace sv::gui
