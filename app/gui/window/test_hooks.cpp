// The window's test hooks: the layout report, the screenshot, the frame times.
#include "gui/window/test_hooks.hpp"

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "core/files.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/model/layout_report.hpp"

namespace sv::gui {

namespace {

// The first frames build the font atlas, compile shaders and record the lesson: not counted.
constexpr std::size_t kWarmupFrames = 5;

struct FrameStats {
  double median = 0, p99 = 0, max = 0;
};

FrameStats frame_stats(const std::vector<double>& ms) {
  std::vector<double> sorted(ms.begin() + static_cast<std::ptrdiff_t>(std::min(ms.size() - 1, kWarmupFrames)), ms.end());
  std::sort(sorted.begin(), sorted.end());
  return {sorted[sorted.size() / 2], sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)], sorted.back()};
}

}  // namespace

int count_gl_objects() {
  int count = 0;
  for (unsigned id = 1; id < 2048; ++id)
    count += glIsBuffer(id) + glIsTexture(id) + glIsVertexArray(id) + glIsProgram(id) + glIsFramebuffer(id);
  return count;
}

int write_layout_report(const Ui& ui, const std::string& path, float font_scale, float chrome_scale) {
  const ImGuiIO& io = ImGui::GetIO();
  LayoutReport report;
  report.window_w = static_cast<int>(io.DisplaySize.x);
  report.window_h = static_cast<int>(io.DisplaySize.y);
  report.font_scale = font_scale;
  report.chrome_scale = chrome_scale;
  report.lecture = ui.lecture;
  report.chrome = ui.chrome;
  report.tooltip = ui.tooltip;
  report.texts = ui.texts;
  report.status = ui.status;
  report.canvases.push_back(ui.canvas.laid);
  report.canvases.back().name = "lesson";
  if (ui.side_by_side && ui.lesson.racy) {
    report.canvases.push_back(ui.canvas_racy.laid);
    report.canvases.back().name = "racy";
  }
  try {
    write_file_atomically(path, layout_report_json(report));
  } catch (const std::exception& e) {
    std::cerr << "scanviz: --report-layout: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

int save_screenshot(const std::string& path, int fb_w, int fb_h) {
  std::vector<unsigned char> pixels(static_cast<std::size_t>(fb_w) * fb_h * 4);
  glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  try {
    write_file_atomically(path, encode_png(fb_w, fb_h, pixels));
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

void print_frame_report(const FrameTimes& times, std::size_t instances, std::size_t builds, std::size_t lookback_builds) {
  if (times.frame_ms.empty()) return;
  const FrameStats cpu = frame_stats(times.cpu_ms), all = frame_stats(times.frame_ms);
  char text[256];
  std::snprintf(text, sizeof text, "CPU median %.2f ms, p99 %.2f ms, max %.2f ms; frame time median %.2f ms, p99 %.2f ms, max %.2f ms",
                cpu.median, cpu.p99, cpu.max, all.median, all.p99, all.max);
  std::cout << "frames " << times.frame_ms.size() << " (the first " << kWarmupFrames << " not counted), " << text
            << ", GL objects at frame 10 " << times.gl_objects_early << ", at the end " << times.gl_objects_late
            << ", diagram instances " << instances << ", diagram builds " << builds
            << ", look-back scene builds " << lookback_builds << ", hidden draws clipped "
            << times.hidden_clipped << "\n"
            << "renderer " << reinterpret_cast<const char*>(glGetString(GL_RENDERER)) << "\n";
}

}  // namespace sv::gui
