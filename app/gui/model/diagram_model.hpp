// The dataflow diagram as data: rows of cells (one row per step, as the slides draw them), the
// arrows of the current step, the marks for active threads and hazards, all in canvas units. The GL
// renderer, the SVG export and the tests read the same Diagram, so what is tested is what is drawn.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "mirror/trace_view.hpp"
#include "trace/trace.hpp"

namespace sv::gui {

// Colours as 0xRRGGBBAA.
struct Palette {
  std::uint32_t background, cell, cell_undefined, cell_active, cell_hazard, cell_invalid, border, text, text_dim,
      edge_left, edge_right, edge_copy, active_mark;
  std::uint32_t wrong;  // the outline of an output cell that differs from the reference
};
const Palette& palette_light();
const Palette& palette_dark();
const Palette& palette_high_contrast();

struct DiagramCell {
  float x = 0, y = 0, w = 0, h = 0;
  int row = 0, column = 0;
  std::uint32_t fill = 0;
  std::string label;
  bool active = false;     // written by an operator application in the current step
  bool hazard = false;     // named by a RAW hazard of the current step
  bool wrong = false;      // an output cell whose value differs from the reference (outlined, every operator),
                           // or any cell that differs from the race-free run build_diagram was given
  std::string expected;    // wrong: the value the reference (or the race-free run at this step) holds
  float heat = 0;          // 0..1 within the diagram's heat range: the value (numbers) or the range's length (intervals)
  bool segment_head = false;  // a segmented scan's segment starts at this cell's element (a bar at its left)
  std::vector<int> hazards;  // indices into TraceView::hazards
};

struct DiagramEdge {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::uint32_t color = 0;
  EdgeRole role = EdgeRole::Copy;
};

struct DiagramRow {
  int step = 0;
  int buffer = 0;
  float y = 0;
  std::string label;  // "stride = 2 | buffer2_s"
  std::size_t first_cell = 0, cell_count = 0;  // this row's cells in Diagram::cells
};

// Canvas units are pixels of the 16 px font: scaled() fits a larger font. Cells widen to hold the
// longest label of the diagram.
struct DiagramLayout {
  float cell_w = 72, cell_h = 30, row_gap = 34, margin = 12, label_w = 215, char_w = 10.5f;
  static DiagramLayout scaled(float s) { return {72 * s, 30 * s, 34 * s, 12 * s, 215 * s, 10.5f * s}; }
};

struct Diagram {
  DiagramLayout layout;  // as used, with cell_w widened for the labels
  std::vector<DiagramRow> rows;
  std::vector<DiagramCell> cells;
  std::vector<DiagramEdge> edges;
  float width = 0, height = 0;
  // The heat map's range (cells' heat runs 0..1 over it), the same for every row so that one legend
  // reads them all: the values, or for intervals the ranges' lengths.
  double heat_lo = 0, heat_hi = 0;
  bool heat_of_lengths = false;
};

// Rows for steps 0..current (the slides reveal one row per step); arrows and marks for `current`.
// `race_free`: a run of the same steps on the same input that has no race (side by side, the
// double-buffered kernel beside the racy one): every cell whose value differs from that run's at the
// same step and index is marked wrong too, so a race shows in the step it happens.
Diagram build_diagram(const TraceView& view, int current, const Palette& palette, DiagramLayout layout = {},
                      const TraceView* race_free = nullptr);

}  // namespace sv::gui
