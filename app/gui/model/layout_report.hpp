// What the window drew where, as a person sees it: each diagram cell's rectangle and the text drawn
// in it (and at what pixel height), the row labels' rectangles, the legend's entries, and the
// chrome (timeline, step slider, narration). `scanviz gui --report-layout FILE` writes it as JSON
// after the last frame, so tests can prove that no value is blank, clipped or covered by a label.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sv::gui {

// Window (logical) pixels, top-left origin.
struct LaidRect {
  float x = 0, y = 0, w = 0, h = 0;
};

struct LaidCell {
  int row = 0, column = 0, band = 0;
  LaidRect rect;
  std::string value;  // the cell's full value ("" where nothing is written yet)
  std::string text;   // what is drawn in it: the value, or its abbreviation; "" where nothing is drawn
  float text_px = 0;  // the drawn text's height in pixels (its font size)
  float text_w = 0;   // the drawn text's width in pixels
  bool race = false, wrong = false;  // hatched as a race, marked as a wrong value (its corner)
};

struct LaidLabel {
  int row = 0, band = 0;
  LaidRect rect;  // the drawn text's rectangle
  std::string text;
  float text_px = 0;
};

struct LegendEntry {
  std::uint32_t rgba = 0;
  std::string range;  // what the swatch stands for: "left operand", "race: read after overwrite", values "0..127"
  std::string mark;   // its kind (gui/draw/legend.hpp's legend_mark_name): "left", "race", "wrong", "heat", ...
  LaidRect rect;      // the swatch
};

// One diagram canvas as last drawn.
struct CanvasLayout {
  std::string name;  // "lesson", "racy"
  LaidRect area;     // the canvas' rectangle
  LaidRect cells_area;  // where cells may be drawn: right of the row labels' column
  int bands = 1;     // the columns wrapped into this many bands, one under the other
  float min_text_px = 0;  // the smallest text a cell is drawn with
  bool heat = false;  // cells too narrow for text: drawn as the heat map, its colours in the legend
  LaidRect legend_area;  // the legend's strip under the cells
  std::vector<LaidCell> cells;
  std::vector<LaidLabel> labels;
  std::vector<LegendEntry> legend;
};

struct LayoutReport {
  int window_w = 0, window_h = 0;
  float font_scale = 1;    // the diagram's text
  float chrome_scale = 1;  // menus, panels, timeline: capped so that they stay on screen
  bool lecture = false;
  std::vector<std::pair<std::string, LaidRect>> chrome;  // named controls and panels
  std::vector<CanvasLayout> canvases;
  std::string tooltip;  // the tooltip the frame shows ("" when none)
  std::string status;   // the menu bar's status line: what the last file action said
  std::vector<std::pair<std::string, std::string>> texts;  // named texts a panel drew (the float lesson's narration)
};

// The report as a JSON document (cells as {row, col, x, y, w, h, text, text_px, text_w, clipped}).
std::string layout_report_json(const LayoutReport& r);

}  // namespace sv::gui
