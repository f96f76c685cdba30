// The scanviz window, as a sequence of its parts: the display, the options (gui/window/option_checks),
// the GL window and Dear ImGui set up, the frame loop (gui/window/frame_loop), and the tear-down.
// Where the window runs (the desktop, the page) is the Platform's business.
#include "gui/app.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <iostream>
#include <memory>
#include <vector>

#include "gui/draw/glsl_version.hpp"
#include "gui/platform/dropped_files.hpp"
#include "gui/platform/gl_window.hpp"
#include "gui/platform/input_script.hpp"
#include "gui/window/frame_loop.hpp"
#include "gui/window/option_checks.hpp"
#include "gui/window/settings.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

namespace {

// Opens the window with its GL context and Dear ImGui on it, on the platform's clipboard; nullptr
// after one line on standard error.
GLFWwindow* open_window(const GuiOptions& opt, Platform& platform) {
  GlWindowError error = GlWindowError::None;
  GLFWwindow* window = open_gl_window(opt.width, opt.height, "scanviz", true, error);
  if (error == GlWindowError::Init) std::cerr << "scanviz: cannot open a window (GLFW could not initialize the display)\n";
  if (error == GlWindowError::Create) std::cerr << "scanviz: cannot create an OpenGL 3.3 core window\n";
  if (error == GlWindowError::Load) std::cerr << "scanviz: cannot load OpenGL functions\n";
  if (!window) return nullptr;
  glfwSwapInterval(opt.frames > 0 ? 0 : 1);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // we lay the panels out ourselves
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  platform.use_clipboard();  // after the backend, which sets GLFW's
  glfwSetDropCallback(window, on_drop);  // the backend installs no drop callback of its own
  ImGui_ImplOpenGL3_Init(glsl_version());
  return window;
}

void close_window(GLFWwindow* window) {
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  close_gl_window(window);
}

}  // namespace

int run_gui(const GuiOptions& opt, Platform& platform) {
  if (!platform.display_available()) {
    std::cerr << "scanviz: no display (DISPLAY is not set): render to files instead, e.g. scanviz render t.json --out "
                 "t.png (under xvfb-run) or --out t.svg\n";
    return 2;
  }
  const auto ui = std::make_unique<Ui>(platform.has_threads());
  std::vector<ScriptedInput> script;
  if (const int bad = apply_options(opt, *ui, script); bad != 0) return bad;
  GLFWwindow* window = open_window(opt, platform);
  if (!window) return 2;
  const int exit_code = run_frames(window, opt, *ui, platform, script);
  Settings kept = ui->settings;
  kept.font_scale = ui->saved_font_scale;
  save_settings(kept);
  close_window(window);
  return exit_code;
}

}  // namespace sv::gui
