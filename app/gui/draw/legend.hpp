// The diagram's legend: what each colour and mark means, wrapped into lines under the cells. The
// window, the PNG/GIF renderer and the SVG export show the same entries with the same swatches: an
// arrow in its colour, a cell in its fill, the race cell hatched and the wrong cell with its corner
// mark, so that no meaning rests on colour alone.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gui/model/diagram_model.hpp"

namespace sv::gui {

enum class LegendMark : std::uint8_t { Left, Right, Copy, Active, Race, Wrong, Invalid, Undefined, SegmentHead, Heat, Caption };

struct LegendItem {
  LegendMark mark = LegendMark::Caption;
  std::uint32_t rgba = 0;  // the swatch's colour (a heat entry's own; else the palette's for the mark)
  std::string text;        // "left operand", "race: read after overwrite", "0..127"
};

// The marks the trace shows at any of its steps, in a fixed order: a legend that changes from step to
// step would move the cells as the lecturer steps, and one listing marks the trace never shows would
// teach nothing. `race_free`: the run the diagram compares with (its differing cells are wrong).
std::vector<LegendItem> legend_items(const TraceView& tv, const TraceView* race_free, const Palette& pal);

// The heat map's entries: a caption ("value:" or "range length:") and five colours with their ranges.
std::vector<LegendItem> heat_legend_items(const Diagram& d);

// A short name for the mark, as the layout report and the SVG write it ("left", "race", "heat").
const char* legend_mark_name(LegendMark m);

// Where each entry goes, relative to the legend's top-left, for a line `px` tall that wraps at `width`;
// `text_w` measures a text at px. Swatches are kLegendSwatchEm x px wide (1 px where a caption has none).
struct PlacedLegendItem {
  LegendItem item;
  float x = 0, y = 0, swatch_w = 0, text_x = 0;
};
struct LegendLayout {
  std::vector<PlacedLegendItem> items;
  float height = 0;  // every line's, gaps included
};
inline constexpr float kLegendSwatchEm = 1.8f, kLegendLineEm = 1.35f;
LegendLayout layout_legend(const std::vector<LegendItem>& items, float width, float px,
                           const std::function<float(const std::string&)>& text_w);

// The race hatch: stripes across x + y, `kHatchPeriod` pixels apart, `kHatchWidth` wide, in the race
// colour mixed kHatchMix of the way to the background: lighter under the light theme's dark text,
// darker under the dark themes' light text, so the value stays readable (the shader, the legend and
// the SVG draw the same stripes).
inline constexpr float kHatchPeriod = 8, kHatchWidth = 3, kHatchMix = 0.45f;
std::uint32_t hatch_color(const Palette& pal);
// The wrong cell's corner mark: a right triangle in the cell's top-right corner, its legs this share of
// the cell's height (and no more than a third of its width).
inline constexpr float kWrongCornerShare = 0.5f;
float wrong_corner_px(float cell_w, float cell_h);

// SVG pieces the diagram's cells and the legend share: the hatch's <pattern> (inside <defs>), a race
// cell's hatch over its fill, a wrong cell's outline and corner mark.
std::string svg_hatch_defs(const Palette& pal);
std::string svg_race_hatch(float x, float y, float w, float h);
std::string svg_wrong_mark(float x, float y, float w, float h, const Palette& pal);

// The legend as an SVG group (<g class="legend">) at (x, y), wrapping at `width`, with text of
// `font_px` (widths estimated, no font at hand); `height` gets its height.
std::string legend_svg(const std::vector<LegendItem>& items, const Palette& pal, float x, float y, float width, float font_px,
                       float& height);

}  // namespace sv::gui
