// The frame loop and the parts of a frame: fonts and theme at this frame's scale, playing, the
// floating views over the tiled panels, and drawing the frame.
#include "gui/window/frame_loop.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "gui/draw/canvas.hpp"
#include "gui/draw/gl_diagram.hpp"
#include "gui/panels/application_panel.hpp"
#include "gui/panels/divergence_panel.hpp"
#include "gui/panels/float_panel.hpp"
#include "gui/panels/lookback_view.hpp"
#include "gui/panels/predict_panel.hpp"
#include "gui/panels/source_pane.hpp"
#include "gui/panels/timing_panel.hpp"
#include "gui/panels/work_steps_panel.hpp"
#include "gui/platform/dropped_files.hpp"
#include "gui/platform/keys.hpp"
#include "gui/window/class_panel.hpp"
#include "gui/window/kernel_window.hpp"
#include "gui/window/key_map.hpp"
#include "gui/window/menu_bar.hpp"
#include "gui/window/page_mirror.hpp"
#include "gui/window/test_hooks.hpp"
#include "gui/window/tiled_panels.hpp"

namespace sv::gui {

namespace {

// The fonts and theme last applied: rebuilt only when the scale or the theme changes.
struct Applied {
  float scale = 0, chrome = 0;
  std::string theme;
};

// The font scale of this frame and the chrome's (menus, panels, timeline), applied to the fonts and
// the theme when they changed.
std::pair<float, float> scale_fonts_and_theme(Ui& ui, GLFWwindow* window, Applied& applied) {
  // Lecture mode shows at least twice the normal size without changing the saved setting.
  const float font_scale = ui.lecture ? std::max(2.0f, ui.settings.font_scale) : ui.settings.font_scale;
  // The scale enlarges the diagram; the chrome (menus, panels, timeline) grows with it only as
  // far as the window holds it: twice the size from 1080 lines (and 1920 columns), 1.33 at 720.
  int win_w = 0, win_h = 0;
  glfwGetWindowSize(window, &win_w, &win_h);
  const float chrome_scale = std::min(font_scale, std::max(1.0f, std::min(static_cast<float>(win_h) / 540, static_cast<float>(win_w) / 960)));
  if (applied.scale != font_scale || applied.chrome != chrome_scale) {
    ui.fonts = load_fonts(chrome_scale, font_scale);
    upload_fonts();
  }
  if (applied.scale != font_scale || applied.chrome != chrome_scale || applied.theme != ui.settings.theme) {
    apply_theme(ui.settings.theme, chrome_scale);
    applied = {font_scale, chrome_scale, ui.settings.theme};
  }
  return {font_scale, chrome_scale};
}

// Playing: the next step when its time has come, from the last back to the first.
void advance_playing(Ui& ui) {
  if (ui.playing && step_count(ui) > 0) {
    const double now = glfwGetTime();
    if (ui.next_advance == 0) ui.next_advance = now + 1.0 / ui.settings.speed;
    if (now >= ui.next_advance) {
      set_step(ui, ui.step + 1 >= step_count(ui) ? 0 : ui.step + 1);
      ui.next_advance = now + 1.0 / ui.settings.speed;
    }
  } else {
    ui.next_advance = 0;
  }
}

// The look-back view: device-wide scans' tiles, over the others, nearly the whole window.
void lookback_window(Ui& ui, const PanelLayout& l, bool was_shown, GlPictures& pictures) {
  const float W = l.W, H = l.H, menu_h = l.menu_h;
  ImGui::SetNextWindowSize(ImVec2(W * 0.94f, (H - menu_h) * 0.94f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(ImVec2(W * 0.03f, menu_h + (H - menu_h) * 0.03f), ImGuiCond_FirstUseEver);
  if (!was_shown) ImGui::SetNextWindowFocus();  // just opened: in front, the keys are its
  // Its background too is a clear, under its title bar (clear_window_background), not a quad.
  const std::uint32_t background = window_background_over(palette_named(ui.settings.theme).background);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
  const bool open = ImGui::Begin("Look-back: device-wide scans, tile by tile", &ui.show_lookback);
  ImGui::PopStyleColor();
  keep_in_display();
  clear_window_background(background);
  ui.lookback.focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  if (open) lookback_window_contents(ui.lookback, ui.settings.theme, glfwGetTime(), &pictures);
  ImGui::End();
}

// The views that float over the tiled panels: work against steps, GPU timing, warp divergence, the
// applications' rows, the look-back view, the class and predict the next step.
void floating_windows(Ui& ui, const Platform& platform, const PanelLayout& l, bool& lookback_was_shown, GlPictures& pictures) {
  if (ui.show_charts) work_steps_window(&ui.show_charts, ui.work_steps, ImGui::GetIO().DisplaySize, l.em);
  if (ui.show_timing) timing_window(&ui.show_timing, ui.timing, ui.gpu, ImGui::GetIO().DisplaySize);
  const int divergence_step = divergence_window(&ui.show_divergence, ui.lesson.view ? &ui.lesson.view->trace : nullptr,
                                                ui.step, ui.settings.theme);
  if (divergence_step >= 0) set_step(ui, divergence_step);
  float_window(ui.floats, ui.lesson.view ? &ui.lesson.view->trace : nullptr, ui.settings.theme, ui.chrome, ui.texts);
  application_window(&ui.show_application, ui.lesson.view ? &ui.lesson.view->trace : nullptr, ui.settings.theme);
  const bool was_shown = lookback_was_shown;
  lookback_was_shown = ui.show_lookback;
  if (ui.show_lookback) lookback_window(ui, l, was_shown, pictures);
  if (ui.kernel.show) kernel_window(ui, l);
  if (ui.submissions.show) class_window(ui, platform, l);
  if (ui.lesson.view)
    if (const int shown = predict_window(ui.predict, *ui.lesson.view, ui.step, ImVec2(l.left_w, l.menu_h + (l.H - l.menu_h) * 0.38f),
                                         ImVec2(l.W - l.left_w - l.right_w, (l.H - l.menu_h) * 0.62f - l.timeline_h));
        shown >= 0)
      set_step(ui, shown);
}

// Draws the built frame into the window's framebuffer over the panels' background; returns false on
// an OpenGL error (said on standard error).
bool draw_frame(const Ui& ui, GLFWwindow* window, int frame, int& fb_w, int& fb_h) {
  glfwGetFramebufferSize(window, &fb_w, &fb_h);
  glViewport(0, 0, fb_w, fb_h);
  const std::uint32_t panels = window_background_over(palette_named(ui.settings.theme).background);
  glDisable(GL_SCISSOR_TEST);
  glClearColor(((panels >> 24) & 0xFF) / 255.0f, ((panels >> 16) & 0xFF) / 255.0f, ((panels >> 8) & 0xFF) / 255.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
    std::cerr << "scanviz: OpenGL error 0x" << std::hex << err << std::dec << " in frame " << frame << "\n";
    return false;
  }
  return true;
}

// What was pasted this frame: the platform's paste event (the page), or the clipboard on Ctrl+V where no
// text box has the keyboard (a text box that has it pastes by itself).
std::string pasted_text(Platform& platform) {
  std::string text = platform.take_pasted_text();
  const ImGuiIO& io = ImGui::GetIO();
  if (text.empty() && !io.WantTextInput && io.KeyCtrl && key_pressed(GLFW_KEY_V))
    if (const char* clipboard = ImGui::GetClipboardText()) text = clipboard;
  return text;
}

}  // namespace

int run_frames(GLFWwindow* window, const GuiOptions& opt, Ui& ui, Platform& platform,
               const std::vector<ScriptedInput>& script) {
  int exit_code = 0;
  GlDiagram gl;
  GlPictures pictures;
  std::vector<std::unique_ptr<CanvasDraw>> frame_draws;
  FrameTimes times;
  Applied applied;
  bool lookback_was_shown = false;
  float mouse_x = opt.mouse_x, mouse_y = opt.mouse_y;
  bool script_saved = false;  // a scripted save last frame: the followed file is looked at now
  MirrorMemo mirror;          // what the platform's text mirror last showed (the page's)
  ImGui::GetIO().ConfigInputTextCursorBlink = !ui.reduce_motion;
  for (int frame = 0; !glfwWindowShouldClose(window) && (opt.frames <= 0 || frame < opt.frames); ++frame) {
    const bool last = opt.frames > 0 && frame + 1 == opt.frames;
    // A headless run's last frame waits for a recording still on its way (a wait its time leaves
    // out), so the picture it saves does not depend on timing. A finished recording is swapped in
    // before the frame is built.
    // A followed kernel file saved again is recorded first (a headless run's last frame looks at
    // once, so a test's change shows, as does the frame after a scripted save).
    follow_kernel_file(ui, platform, ImGui::GetTime(), last || script_saved);
    std::optional<LessonRecording> recording = last ? ui.recorder.wait() : std::nullopt;
    const auto frame_start = std::chrono::steady_clock::now();
    if (!recording) recording = ui.recorder.take();
    if (recording) swap_in_recording(ui, std::move(*recording));
    // A counted run (a test, a screenshot) waits for a report card the panel shows, so what it
    // draws does not depend on timing.
    take_kernel_grade(ui, opt.frames > 0 && ui.kernel.show);
    // A class is graded a submission at a time; a counted run's last frame shows every verdict.
    take_class_grades(ui, last);
    platform.begin_frame(window);
    glfwPollEvents();
    script_saved = feed_input_script(script, frame, window, mouse_x, mouse_y);
    open_dropped_files(ui, platform);
    const auto [font_scale, chrome_scale] = scale_fonts_and_theme(ui, window, applied);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    if (mouse_x >= 0) ImGui::GetIO().MousePos = ImVec2(mouse_x, mouse_y);  // after the backend's own
    // A counted run (a screenshot under Xvfb) ignores where the pointer happens to rest (the
    // screen's centre): no tooltip the picture did not ask for.
    else if (opt.frames > 0) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    frame_draws.clear();
    ui.chrome.clear();
    ui.tooltip.clear();
    ui.texts.clear();
    ui.canvas.record = ui.canvas_racy.record = !opt.report_layout.empty();

    handle_keys(ui);
    const bool mirror_asked = apply_mirror_actions(ui, platform.take_mirror_actions());  // the page's buttons
    paste_text(ui, platform, pasted_text(platform), ImGui::GetTime());
    platform.follow_fullscreen(window, ui.fullscreen);
    advance_playing(ui);
    PanelLayout layout;
    const bool changed = tiled_panels(ui, menu_bar(ui, platform), gl, frame_draws, layout);
    floating_windows(ui, platform, layout, lookback_was_shown, pictures);
    if (changed || mirror_asked) {  // recorded on the worker; until it is ready the frames draw the trace there is
      ui.recorder.request(ui.lesson, ui.side_by_side);
      ui.swap_to_last_step |= !ui.recorded_from_controls;
    }

    ImGui::Render();
    times.hidden_clipped = clip_hidden_draws(ImGui::GetDrawData());
    times.cpu_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
    int fb_w = 0, fb_h = 0;
    if (!draw_frame(ui, window, frame, fb_w, fb_h)) exit_code = 3;
    if (last && !opt.report_layout.empty() && write_layout_report(ui, opt.report_layout, font_scale, chrome_scale) != 0) exit_code = 2;
    std::chrono::steady_clock::duration saving{};  // the screenshot's PNG is no part of the frame's time
    if (last && !opt.screenshot.empty()) {
      const auto saving_start = std::chrono::steady_clock::now();
      if (save_screenshot(opt.screenshot, fb_w, fb_h) != 0) exit_code = 2;
      saving = std::chrono::steady_clock::now() - saving_start;
    }
    glfwSwapBuffers(window);
    follow_mirror(ui, mirror, platform);
    platform.end_frame([&] { return shown_options(ui); });
    if (opt.report_frames) glFinish();  // a measured frame ends when the GL has drawn it, not when it is queued
    times.frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start - saving).count());
    if (measuring(ui.timing)) frame = -1;  // a run of N frames counts them from when the measurements are done
    if (opt.report_frames && frame == 10) times.gl_objects_early = count_gl_objects();
    if (opt.report_frames && last) times.gl_objects_late = count_gl_objects();
  }
  if (opt.report_source) std::cout << source_pane_report(ui.source);
  if (ui.kernel.report) std::cout << kernel_report(ui);
  if (ui.submissions.report) std::cout << class_report(ui);
  if (opt.report_frames) print_frame_report(times, gl.last_instances(), gl.builds(), ui.lookback.scene_builds);
  return exit_code;
}

}  // namespace sv::gui
