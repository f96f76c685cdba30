// The window's kernel source pane: the kernel as the slides write it (the CUDA form) or as the
// emulator runs it (C, or the pane's buttons, switch), the current step's lines lit and scrolled
// into view, long lines wrapped at the pane's edge (a projector shows no horizontal scroll bar).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gui/model/diagram_model.hpp"

struct ImFont;

namespace sv::gui {

struct OwnKernel;  // gui/lesson/own_kernel.hpp

struct SourcePane {
  bool emulator = false;    // false: the CUDA form, where the algorithm has one
  int scrolled_for = -1;    // the step the pane last scrolled to ...
  bool scrolled_emulator = false;  // ... and in which form
  bool scroll_next = false;  // scroll again in the next frame (its lines were laid out only now)

  // What the last frame drew, kept when `report` is set (scanviz gui --report-source).
  struct Row {
    std::uint32_t line = 0;
    std::string text;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // window pixels
  };
  bool report = false;
  std::string shown_file;       // "block/cuda/kogge_stone.cu", or a kernel of the user's own: its name
  bool shown_own = false;       // ... which it is
  std::vector<Row> lit;         // the lit lines, as drawn
  float visible_y0 = 0, visible_y1 = 0, pane_x1 = 0;  // the pane's visible rows and right edge
  float widest_x1 = 0;          // the right end of the widest drawn line
  std::uint32_t top_line = 0;   // the first line showing, at least in part, and its top
  float top_y0 = 0;
};

// Draws the pane's contents for `step` of `view` (inside the pane's ImGui window). A trace of a kernel
// of the user's own shows `own`, the source it ran, its lines as the trace names them.
void source_pane(SourcePane& pane, const TraceView& view, int step, ImFont* mono, const OwnKernel* own = nullptr);

// What the last frame drew: the form's file (or the kernel's name), then each lit line as "lit LINE x0 y0 x1 y1: TEXT",
// then "visible y0 y1, right edge x, widest line ends at x", then "top line N at y0".
std::string source_pane_report(const SourcePane& pane);

}  // namespace sv::gui
