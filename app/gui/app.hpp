// The scanviz window: Dear ImGui on GLFW and OpenGL (3.3 core natively, WebGL 2 in the page), run
// on a Platform that says how the place it runs in differs (gui/platform/platform.hpp).
#pragma once

#include "gui/options.hpp"
#include "gui/platform/platform.hpp"

namespace sv::gui {

// Opens the window, runs its frames until it is closed (or options.frames have run) and returns the
// exit status: 2 with one line on standard error for a bad option or no display.
int run_gui(const GuiOptions& options, Platform& platform);

}  // namespace sv::gui
