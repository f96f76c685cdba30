// Offscreen pictures drawn with the window's own drawing code: the diagram as PNG, SVG or an
// animated GIF, the look-back view, and the charts; `scanviz render`, `scanviz chart` and the
// window's File > Export use them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv::chart {
struct Chart;
}

namespace sv::gui {

// Rendered images put the diagram's canvas origin this many pixels (times the scale) below the top,
// under a one-line title.
inline constexpr float kRenderTitleHeight = 28;

struct RenderOptions {
  int step = -1;  // -1: the last step
  std::string theme = "light";
  float font_scale = 1;
  int width = 0;  // 0: fit the diagram
  int gif_delay_cs = 100;  // GIF: hundredths of a second per step
  bool lookback = false;   // draw the look-back view of a device-wide trace instead of the diagram
  std::int64_t time = -1;  // look-back: the moment shown (-1: the middle of the run)
  std::int64_t select = -1;  // look-back: the tile whose inspections get arrows
  std::string format;  // png, svg or gif; empty: by the extension of the output's name
};

// Writes the diagram at `step` as PNG (drawn by the same GL code as the window, offscreen) or SVG,
// or every step as an animated GIF (by options.format, else the file's extension), through
// write_file_atomically ("-": standard output). Throws std::runtime_error with a one-line reason.
void render_to_file(const Trace& trace, const std::string& out, const RenderOptions& options);

// Where File > Export writes a picture of `trace`: in the folder of `beside` (the menu's path field),
// named by the algorithm, n and step ("kogge-stone-racy-n8-step1.png"; a GIF holds every step:
// "kogge-stone-racy-n8.gif"), with -2, -3, ... added where the name is taken, so an export never
// overwrites an earlier one.
std::string export_path(const Trace& trace, int step, const std::string& ext, const std::string& beside);

// Draws the charts with the GUI's chart widget, offscreen, one under the other, to a PNG.
void render_charts_png(const std::vector<chart::Chart>& charts, const std::string& out, int width, int chart_height);

}  // namespace sv::gui
