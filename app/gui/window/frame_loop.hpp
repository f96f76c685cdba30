// The window's frame loop: each frame takes a finished recording, the platform's events, the
// scripted input and dropped files, builds the menu bar, the tiled panels and the floating views,
// draws them, and hands the frame to the platform.
#pragma once

#include <vector>

#include "gui/options.hpp"
#include "gui/platform/input_script.hpp"
#include "gui/platform/platform.hpp"
#include "gui/window/window_state.hpp"

struct GLFWwindow;

namespace sv::gui {

// Runs frames until the window is closed (or options.frames have run); returns 0, 2 when a test
// hook's file could not be written, 3 on an OpenGL error.
int run_frames(GLFWwindow* window, const GuiOptions& options, Ui& ui, Platform& platform,
               const std::vector<ScriptedInput>& script);

}  // namespace sv::gui
