// The scanviz window (Dear ImGui on GLFW/OpenGL 3.3) and the offscreen renderer that shares its
// drawing code. Headless machines get a clear message from `scanviz`, and `scanviz render` draws
// into a hidden window's framebuffer (Xvfb is enough).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace sv::gui {

// The themes the window and the rendered pictures know.
inline constexpr std::array<const char*, 3> kThemes = {"light", "dark", "high-contrast"};
inline bool is_theme(const std::string& name) {
  return std::find(kThemes.begin(), kThemes.end(), name) != kThemes.end();
}

struct GuiOptions {
  std::string trace_path;      // open this trace instead of recording the default lesson
  int frames = 0;              // > 0: run this many frames and exit (tests, benchmarks)
  std::string screenshot;      // with frames: save the last frame as PNG
  std::string report_layout;   // with frames: write the last frame's layout report (gui/model/layout_report.hpp) as JSON
  int width = 1600, height = 900;
  bool play = false;           // start the timeline playing
  bool report_frames = false;  // print CPU and frame time (median, 99th percentile, slowest), GL objects, builds, the renderer
  bool report_source = false;  // print the kernel source pane's file and lit lines as the last frame drew them
  int step = -1;               // start at this step (-1: the first)
  std::string theme;           // light, dark, high-contrast (default: the saved setting)
  float font_scale = 0;        // 1..3 (0: the saved setting)
  bool side_by_side = false;
  bool lecture = false;        // start in lecture mode (fullscreen when a monitor allows it)
  bool charts = false;         // open the work-against-steps charts
  bool timing = false;         // open the GPU timing panel
  bool divergence = false;     // open the warp divergence window
  std::string bench_json;      // ... showing this `scanviz bench --json` table
  std::string bench_link;      // the page: the URL that table came from, kept in the address while it shows
  std::string lookback;        // open the look-back view with this preset (lookback_preset_names())
  float mouse_x = -1, mouse_y = -1;  // >= 0: the mouse pointer held there (tests: tooltips)
  std::string keys;            // scripted input (gui/platform/input_script.hpp), fed from the third frame on
  bool predict = false;        // start in predict-the-next-step mode
  int n = 0;                   // record the default lesson with this n instead
  std::string algorithm;       // ... and this algorithm
  int warp = 0;                // ... and this warp width (warp-level algorithms; 0: the lesson's 4)
  std::string op;              // ... and this operator (sum, product, min, max, interval)
  std::string schedule;        // ... and this emulator schedule (in-order, reverse, round-robin, random:SEED)
  std::string type;            // ... and this value type (int32, int64, float, double; not with interval)
  bool exclusive = false;      // ... as an exclusive scan
  std::string input;           // ... on this input (slides, random:SEED, or values "3,6,7,4")
  std::string scan;            // ... as this scan (plain, segmented[:DENSITY], compact[:PREDICATE], allocate)
  bool gpu = false;            // ... recorded on the GPU executor (an error without a usable device)
  int amplify_seed = 0;        // ... with this race amplifier seed (GPU)
  std::vector<int> measure_log2_n;  // timing panel: measure these sizes at start (frames count from when done)
};

// True when a window can be opened (an X11 or Wayland display is set).
bool display_available();

int run_gui(const GuiOptions& options);

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

}  // namespace sv::gui

namespace sv::chart {
struct Chart;
}

namespace sv::gui {

// Draws the charts with the GUI's chart widget, offscreen, one under the other, to a PNG.
void render_charts_png(const std::vector<chart::Chart>& charts, const std::string& out, int width, int chart_height);

}  // namespace sv::gui
