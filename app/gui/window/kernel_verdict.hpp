// The one verdict the window gives a kernel of the user's own, in the status line, the lesson panel
// and the report card alike: the report card's, once it has graded the text and launch the lesson
// runs. One run of the lesson (one n, one schedule) cannot call a kernel correct, so nothing says
// "correct" before the card has run every case, and a kernel that does not compile is an error
// whatever the diagram still shows.
#pragma once

#include <string>

#include "gui/window/window_state.hpp"

namespace sv::gui {

struct KernelVerdict {
  enum Tone { Neutral, Good, Bad };
  std::string text;  // "CORRECT", "WRONG", "ERROR", "checking: 12 of 48 cases", "not checked yet"
  Tone tone = Neutral;
};

// The verdict of the lesson's own kernel (Neutral "" when the lesson is a built-in one).
KernelVerdict kernel_verdict(const Ui& ui);

// The report card shown grades the lesson's kernel as it now runs (its text and its launch).
bool grade_is_current(const Ui& ui);

// The status line after a kernel of one's own ran: "ran scan.cu: 5 steps, 2 hazards in this run;
// report card: WRONG".
void say_kernel_ran(Ui& ui);

}  // namespace sv::gui
