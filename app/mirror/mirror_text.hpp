// The mirror as plain text, for a terminal and a screen reader: lines of words, each step opening
// with its "Step 3 of 7: ..." line; no colour, no box drawing, no cursor movement.
#pragma once

#include <string>

#include "mirror/step_mirror.hpp"

namespace sv {

std::string heading_text(const LessonHeading& h);
std::string step_text(const StepMirror& m);

}  // namespace sv
