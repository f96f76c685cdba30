// Fitting a diagram's values into its canvas: shrink, grow the rows, wrap into bands, abbreviate.
#include "gui/model/canvas_fit.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sv::gui {

float min_cell_text_px(float font_px) { return std::max(9.0f, 0.6f * font_px); }

std::string abbreviate_value(const std::string& value) {
  if (value.find('x') != std::string::npos && value.find_first_of("0123456789") != std::string::npos) {
    std::string s;  // an interval: "x10..x15", "!x0..x3,x5..x7"
    for (char c : value)
      if (c != 'x') s += c;
    return s;
  }
  if (value.size() <= 5) return value;
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (end != value.c_str() + value.size() || !std::isfinite(v)) return value;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  std::string s = buf;
  // "1.2e+07" -> "1.2e7", "3.4e-05" -> "3.4e-5"
  if (const auto e = s.find('e'); e != std::string::npos) {
    std::string exp = s.substr(e + 1);
    const bool negative = exp[0] == '-';
    exp = exp.substr(exp.find_first_not_of("+-0") == std::string::npos ? exp.size() - 1 : exp.find_first_not_of("+-0"));
    s = s.substr(0, e + 1) + (negative ? "-" : "") + exp;
  }
  return s.size() < value.size() ? s : value;
}

namespace {

// The least gap between rows, in rows' heights, that leaves the arrows between them visible (ticks
// of a few pixels, slanted the way they go).
constexpr float kMinGap = 0.4f;

// The text size that fits a cell `cell_w` x `cell_h` pixels, for text `text_w` wide at `font_px`.
float text_px_for(float cell_w, float cell_h, float text_w, float font_px) {
  const float by_width = text_w > 0 ? (cell_w - 2 * kCellPadX) * font_px / text_w : font_px;
  return std::min({font_px, by_width, cell_h - 2 * kCellPadY});
}

// The best fit with `bands` bands for text `text_w` wide at the font's size.
CanvasFit fit_bands(const FitInput& in, int bands, float text_w, float* tallest_row_px) {
  const DiagramLayout& L = in.layout;
  CanvasFit f;
  f.bands = bands;
  f.columns_per_band = (in.columns + bands - 1) / bands;
  const float cells_w = in.width - in.label_px - 8;  // pixels, a sliver of margin at the right
  f.scale_x = std::clamp(cells_w / (static_cast<float>(f.columns_per_band) * L.cell_w), 1e-5f, 2.5f);
  const float cell_w_px = L.cell_w * f.scale_x;
  const float want = text_px_for(cell_w_px, 1e9f, text_w, in.font_px);  // the text the width allows
  const float rows = static_cast<float>(in.rows);
  // Canvas units of one band at row gap g (its rows, the gaps between them, the margin above), and
  // the gap between bands (one row gap).
  const auto band_units = [&](float g) { return rows * L.cell_h + (rows - 1) * g + L.margin; };
  const auto scale_y_for = [&](float g) {
    return in.height / (static_cast<float>(bands) * band_units(g) + static_cast<float>(bands - 1) * g);
  };
  f.row_gap = L.row_gap;
  *tallest_row_px = L.cell_h * scale_y_for(std::min(L.row_gap, kMinGap * L.cell_h));
  const float fit_y = std::max(scale_y_for(L.row_gap), 1e-5f);
  // Boxes to scale where the height allows, rows grown to the text where it does not (and, for
  // cells too narrow for any text, to the font's height: the heat map's rows stay readable).
  const float need_y = (std::max(want, std::min(in.font_px, min_cell_text_px(in.font_px))) + 2 * kCellPadY) / L.cell_h;
  f.scale_y = std::min(f.scale_x, fit_y);
  if (f.scale_y < need_y) f.scale_y = std::min(fit_y, need_y);
  if (f.scale_y < need_y) {
    // Grow the rows into their gaps, down to kMinGap of a row: the arrows between rows stay visible.
    for (int k = 1; k <= 10 && f.scale_y < need_y; ++k) {
      f.row_gap = L.row_gap + (kMinGap * L.cell_h - L.row_gap) * static_cast<float>(k) / 10;
      f.scale_y = std::min(scale_y_for(f.row_gap), need_y);
    }
  }
  f.band_px = band_units(f.row_gap) * f.scale_y;
  f.text_px = text_px_for(cell_w_px, L.cell_h * f.scale_y, text_w, in.font_px);
  return f;
}

}  // namespace

CanvasFit fit_canvas(const FitInput& in) {
  const float legible = min_cell_text_px(in.font_px);
  CanvasFit best, chosen;
  // Shrink and grow first (one band), then wrap (more bands), then abbreviate, in that order. Where
  // the text is legible with fewer bands, more are still taken if they make it a fifth larger: a
  // wide diagram then uses the screen's height rather than a strip at its top.
  for (const bool abbreviate : {false, true}) {
    const float text_w = abbreviate ? in.short_text_w : in.text_w;
    for (int bands = 1; bands <= std::max(1, std::min(kMaxBands, in.columns)); ++bands) {
      float tallest = 0;
      CanvasFit f = fit_bands(in, bands, text_w, &tallest);
      f.abbreviate = abbreviate;
      if (f.text_px >= legible && (chosen.text_px == 0 || f.text_px >= 1.2f * chosen.text_px)) chosen = f;
      if (bands == 1 && !abbreviate) best = f;
      // More bands only help while the rows stay tall enough for legible text.
      if (tallest < legible + 2 * kCellPadY) break;
    }
    if (chosen.text_px > 0) return chosen;
  }
  best.heat = true;  // nothing legible fits: the heat map, one band, with the values on hover
  return best;
}

}  // namespace sv::gui
