// The window's keys: Space, the arrows, Home and End step the lesson (or, with the look-back view in
// front, its time); +, - and 0 zoom and fit the diagrams; F fullscreen, L lecture mode; W, T, B, P,
// D, A and K open and close the views (K: your kernel, its text taking the keys).
#pragma once

#include "gui/window/window_state.hpp"

namespace sv::gui {

// Acts on this frame's key presses, unless a text field takes the keys.
void handle_keys(Ui& ui);

}  // namespace sv::gui
