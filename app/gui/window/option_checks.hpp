// The window's options checked, once, before any window opens: a bad one is one line on standard
// error naming the option, and exit status 2, as at the command line.
#pragma once

#include <vector>

#include "gui/options.hpp"
#include "gui/platform/input_script.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// Checks `opt` and sets the window's state from it (the saved settings under the options, the
// lesson, recorded and waited for, or the trace file, the views, the scripted input); returns 0,
// or 2 after saying what is wrong. A lesson that cannot run throws the run layer's RequestError
// (run/request.hpp), which the caller says as its view names the field (--n, or a link's n).
int apply_options(const GuiOptions& opt, Ui& ui, std::vector<ScriptedInput>& script);

}  // namespace sv::gui
