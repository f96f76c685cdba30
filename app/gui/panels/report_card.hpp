// The "Your kernel" panel's report card: what `scanviz check` says of the kernel (the verdict, its
// cases, hazards, faults, why an output is wrong, work and steps against the known algorithms' closed
// forms, the one it matches), each entry a button that picks its lines, and its step and case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda_subset/check.hpp"
#include "gui/model/layout_report.hpp"

namespace sv::gui {

// An entry picked: its lines lit in the editor, and, where it happened in a run, the run to show
// (n, schedule, lockstep) and its step.
struct ReportPick {
  std::vector<std::uint32_t> lines;
  int step = -1;          // -1: no step (a fault of the source)
  std::int64_t n = 0;     // 0: no run to show
  std::string schedule;
  std::int32_t warp = 0;
};

struct ReportCardAction {
  std::optional<ReportPick> pick;
  bool check = false;  // "Check" pressed: grade the kernel as last run
  // Where the entries were drawn, for the layout report: "report_hazard_0", "report_error_1", ...
  std::vector<std::pair<std::string, LaidRect>> laid;
};

// Hazards that differ only by case, cell and threads, as one entry: the first of them and how many.
struct HazardGroup {
  const cuda::CheckHazard* first = nullptr;
  int count = 0;
};
std::vector<HazardGroup> group_hazards(const cuda::CheckReport& r);

// One line for a hazard as the card lists it: "RAW on buffer_s: thread 1 wrote it (line 16), thread 2
// read it (line 16), no __syncthreads() between; step 3 (n = 8, in-order, lockstep 1)".
std::string hazard_text(const cuda::CheckHazard& h);

// The keyboard's way through the entries: one is selected (-1: none), Up and Down move it, Enter
// picks it.
struct ReportCardKeys {
  int selected = -1;
  int moved = 0;        // this frame: -1 up, +1 down
  bool enter = false;   // this frame: pick the selected entry
  int entries = 0;      // as last drawn
};

// The card's word for a verdict: CORRECT, WRONG or ERROR (what the window says wherever it gives one).
std::string verdict_word(const std::string& verdict);

// Draws the card in the current window: `report` (null before the first check; without a verdict
// while it is graded: the cases so far), `state` beside the Check button ("checking: 12 of 48
// cases", "not checked yet", "(graded before the last change)", or ""), `note` under its first line
// (why its block is not the file's, or "").
ReportCardAction report_card(const cuda::CheckReport* report, const std::string& state, const std::string& note, ReportCardKeys& keys);

}  // namespace sv::gui
