// What tests and measurements ask of the window after its frames (`scanviz gui --frames N` with
// --screenshot, --report-layout, --report-frames): the last frame as PNG, what it drew where as
// JSON, and the frames' times and GL objects.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gui/window/window_state.hpp"

namespace sv::gui {

// Per frame: building it (to ImGui::Render) and all of it; GL objects counted at frame 10 and at
// the end (a leak shows as growth); draws clip_hidden_draws removed from the last frame.
struct FrameTimes {
  std::vector<double> cpu_ms, frame_ms;
  int gl_objects_early = -1, gl_objects_late = -1, hidden_clipped = 0;
};

// Live GL objects (buffers, textures, vertex arrays, programs, framebuffers) among the first ids.
int count_gl_objects();

// Writes the last frame's layout report (gui/model/layout_report.hpp) to `path`; returns 0, or 2
// with one line on standard error when it cannot be written.
int write_layout_report(const Ui& ui, const std::string& path, float font_scale, float chrome_scale);

// Saves the framebuffer (fb_w x fb_h) as a PNG at `path`; returns 0, or 2 with one line on
// standard error.
int save_screenshot(const std::string& path, int fb_w, int fb_h);

// The frame times' line (median, 99th percentile, slowest; the warm-up frames not counted), the GL
// objects, the diagram's instances and builds, and the renderer, on standard output.
void print_frame_report(const FrameTimes& times, std::size_t instances, std::size_t builds, std::size_t lookback_builds);

}  // namespace sv::gui
