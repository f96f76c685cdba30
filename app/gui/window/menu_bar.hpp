// The window's menu bar, and the files dropped on it.
#pragma once

#include "gui/platform/platform.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// Draws the menu bar (File, View, the status line); returns its height.
float menu_bar(Ui& ui, Platform& platform);

// Opens the files dropped on the window since the last frame, in order; a bad one is the status line.
void open_dropped_files(Ui& ui, Platform& platform);

}  // namespace sv::gui
