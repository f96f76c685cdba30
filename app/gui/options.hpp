// What `scanviz gui` and a page's link ask the window for: the lesson (a run request), the views, the
// test hooks. A plain value, so that the command line (app/main.cpp) and the page
// (app/web/url_options.hpp) fill it in without knowing the window.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "lesson_run.hpp"
#include "run/request.hpp"

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
  // Less motion (the page: the browser's prefers-reduced-motion): nothing starts playing by itself,
  // the look-back view's time jumps rather than sweeps, the text cursor does not blink.
  bool reduce_motion = false;
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
  bool floats = false;         // open the float lesson's window
  int float_cell = -1;         // ... with this output picked (-1: the last)
  std::string bench_json;      // ... showing this `scanviz bench --json` table
  std::string bench_link;      // the page: the URL that table came from, kept in the address while it shows
  std::string lookback;        // open the look-back view with this preset (lookback_preset_names())
  float mouse_x = -1, mouse_y = -1;  // >= 0: the mouse pointer held there (tests: tooltips)
  std::string keys;            // scripted input (gui/platform/input_script.hpp), fed from the third frame on
  bool predict = false;        // start in predict-the-next-step mode
  // The lesson to record: the default lesson with the fields the command line's flags (run_flags.hpp)
  // or a link's keys set, checked by the run layer (validate_request) when the window applies it.
  // executor "auto" is the GPU where one is usable, as for `scanviz trace`.
  RunRequest lesson = default_lesson_request();
  // Whether the input was named: without it the lesson's slides' values stand for n up to 8, and a
  // larger n takes seeded random values (the slides have eight).
  bool input_given = false;
  std::vector<int> measure_log2_n;  // timing panel: measure these sizes at start (frames count from when done)
  // A kernel of the user's own: the lesson runs this .cu (with the lesson's n, block, lockstep,
  // operator, exclusive, input and schedule) and follows the file as it is saved again.
  std::string kernel_path;
  bool report_kernel = false;  // print the "Your kernel" panel's state after the last frame
  // A class: a folder of .cu files or the class table `scanviz check --summary` writes, listed in the
  // class panel with each submission's verdict.
  std::string class_path;
  bool report_class = false;   // print the class panel's state after the last frame
  // ... or given as its text, not a file: the page's link carries it (app/web/kernel_link.hpp), and
  // the window names the one it shows here for the page's address.
  std::string kernel_name;     // its file name ("my_scan.cu")
  std::string kernel_text;
};

}  // namespace sv::gui
