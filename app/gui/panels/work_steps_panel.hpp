// The work-against-steps window: every block algorithm's operations and steps as n grows, measured
// from emulator traces the first time it opens, as three charts with one legend of tick boxes.
#pragma once

#include <imgui.h>

#include <string>
#include <utility>
#include <vector>

#include "analysis/work_steps.hpp"
#include "work_steps_runs.hpp"
#include "chart.hpp"

namespace sv::gui {

struct WorkStepsPanel {
  std::vector<chart::Chart> charts;  // work against steps, measured once when first shown
  std::vector<WorkStepsPoint> points;
  std::vector<std::pair<std::string, bool>> series;  // each measured algorithm, and whether it is plotted
  bool log_steps = false;
};

// The window over the others, first placed and sized for a `display`-sized screen; `em` is the font size.
void work_steps_window(bool* open, WorkStepsPanel& w, ImVec2 display, float em);

}  // namespace sv::gui
