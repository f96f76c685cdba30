// The look-back view's scene: what one run looks like at one time, laid out in pixels (the legend,
// the descriptor table, the life strip, the arrows of the selected tile's inspections, one lane per
// resident slot of each SM), and the lanes' marks as a picture. The layout is plain data, so the
// tests check what is drawn; gui/draw/lookback_draw.* draws it (ImGui, SVG).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gui/model/lookback_model.hpp"

namespace sv::gui {

// Colours as 0xRRGGBBAA, by theme.
struct LookbackPalette {
  std::uint32_t background, text, text_dim, grid, flag_x, flag_a, flag_p, cell, lifetime, waiting, arrow, stale, cursor,
      selected, moved;
};
const LookbackPalette& lookback_palette(const std::string& theme);
inline std::uint32_t with_alpha(std::uint32_t rgba, std::uint32_t alpha) { return (rgba & 0xFFFFFF00u) | (alpha & 0xFF); }

// What is drawn, in pixels relative to the scene's top-left corner.
struct SceneRect {
  float x = 0, y = 0, w = 0, h = 0;
  std::uint32_t fill = 0, border = 0;  // border 0: none
  std::string label;
  std::int64_t tile = -1;  // the tile it stands for (-1: a run of merged cells or decoration)
  enum class Kind : std::uint8_t { Flag, Aggregate, Inclusive, Lifetime, Wait, Cursor, Legend, Moved } kind = Kind::Flag;
  std::uint32_t label_color = 0x141414FF;
  float border_w = 1;
};
struct SceneArrow {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0, bend = 0;  // bend: the arc's height (pixels, upward when > 0)
  std::uint32_t color = 0;
  std::string label;  // what the inspection saw: "A 2", "P 8"
  std::int64_t target = -1;
  bool stale = false;
};
struct SceneText {
  float x = 0, y = 0;
  std::uint32_t color = 0;
  std::string text;
  bool centred = false;  // on x (tile numbers over their column); else starting at x
};
struct LookbackScene {
  std::vector<SceneRect> rects;
  std::vector<SceneArrow> arrows;
  std::vector<SceneText> texts;
  float width = 0, height = 0;
  float table_x = 0, cell_w = 0, flag_y = 0, row_h = 0;  // the descriptor table's geometry (hit tests)
  float lanes_y = 0, lane_h = 0;
  int merged_cells = 0;  // descriptor cells folded into runs because they were narrower than 2 px
  int merged_lane_marks = 0;  // lifetimes and waits on a lane merged into the mark before (they touch)
};

struct SceneOptions {
  float width = 1200;     // pixels
  float em = 16;          // the font's size in pixels
  std::uint64_t t_end = 0;  // the lanes' time axis runs to this (0: the run's own end); one axis for side by side
  std::int64_t selected = -1;
  std::string title;
  bool legend = true;
  bool fold_lanes = true;  // merge touching marks on a lane that would show as one (off: tests compare)
  // Tiles marked in a row under the descriptors, with what their marks mean (a run compared with
  // another: the tiles whose look-back stopped at another predecessor). Empty: no row.
  std::vector<std::int64_t> marked;
  std::string marked_label;
  bool lanes = true;  // the SM lanes; off: two runs' tables fit one screen, one above the other
};
LookbackScene build_lookback_scene(const LookbackRun& run, std::uint64_t time, const LookbackPalette& pal,
                                   const SceneOptions& options);

// A legend's row at (x, y): a swatch and its text for each key, left to right.
struct LegendKey {
  std::uint32_t fill;
  const char* text;
};
void add_legend_row(LookbackScene& s, float x, float y, float em, std::span<const LegendKey> keys, const LookbackPalette& pal);

// The lanes' marks (lifetimes and waits, not their labels) as one picture, one texel a pixel, over
// the scene's background: each mark fills the pixels whose centres it covers, blended in order, as
// the rasterizer fills a rect. Drawn as one quad: a lane a thousand pixels wide of marks three pixels
// tall is thousands of thin triangles, and llvmpipe pays for every 4x4 block a triangle touches.
struct LanePicture {
  int x = 0, y = 0, w = 0, h = 0;   // pixels, from the scene's top-left corner (w = 0: no lanes)
  std::vector<std::uint32_t> rgba;  // w x h, top row first, bytes in GL_RGBA order
};
LanePicture lane_picture(const LookbackScene& scene, std::uint32_t background);

}  // namespace sv::gui
