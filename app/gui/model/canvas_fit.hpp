// How a fitted diagram uses its canvas so that every value stays legible: the text first shrinks
// (down to min_cell_text_px), then the rows grow taller (to the canvas' height, then into the gap
// between rows), then the columns wrap into bands one under the other, and only then are the values
// abbreviated ("x10..x15" -> "10..15", 12345678 -> "1.2e7"). Pure arithmetic on pixel sizes, so the
// window, the tests and the layout report agree.
#pragma once

#include <string>

#include "gui/model/diagram_model.hpp"

namespace sv::gui {

// The smallest text a cell value is drawn with: 60% of the diagram's font and never under 9 px. On a
// projector the font is 32 px (lecture mode), so a value stays above 19 px, about the size of a
// slide's footnote seen from the back row; under that a student reads digits wrongly (3 for 8).
float min_cell_text_px(float font_px);

// A shorter way to write a cell's value: intervals lose their x's ("x10..x15" -> "10..15"), numbers
// longer than five characters keep two significant digits ("12345678" -> "1.2e7", "0.333333" ->
// "0.33"). Short values come back as they are.
std::string abbreviate_value(const std::string& value);

struct FitInput {
  float width = 0, height = 0;  // the canvas, pixels
  float label_px = 0;           // the row labels' column at its left, pixels
  int columns = 0, rows = 0;
  DiagramLayout layout;         // canvas units, as built
  float font_px = 16;           // the diagram's font
  float text_w = 0;             // the widest cell value at font_px, pixels
  float short_text_w = 0;       // the widest abbreviated value at font_px, pixels
};

struct CanvasFit {
  int bands = 1, columns_per_band = 0;
  float scale_x = 1, scale_y = 1;  // pixels per canvas unit
  float row_gap = 0;               // canvas units between rows (the layout's, or less to grow the rows)
  float band_px = 0;               // the height of one band, pixels
  float text_px = 0;               // every value's font size
  bool abbreviate = false;
  bool heat = false;               // no legible text fits: the heat map (and its legend) instead
};

// Pixels kept clear between a value and its cell's sides, and above and below it.
inline constexpr float kCellPadX = 4, kCellPadY = 1;

// The most bands a diagram wraps into.
inline constexpr int kMaxBands = 8;

CanvasFit fit_canvas(const FitInput& in);

}  // namespace sv::gui
