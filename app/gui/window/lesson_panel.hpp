// The window's lesson panels: the controls that make the lesson (left), the timeline under the
// diagram, and the narration of the step shown.
#pragma once

#include "gui/window/window_state.hpp"

namespace sv::gui {

// The lesson's controls; returns true when one changed (the lesson is then recorded again).
bool controls_panel(Ui& ui);
// First, previous, play, next, last, the speed and the step slider.
void timeline_panel(Ui& ui);
// What the step shown does, in words.
void narration_panel(Ui& ui);

}  // namespace sv::gui
