// The window's side of a text mirror (the page's hidden DOM, gui/platform/mirror_shown.hpp): once a
// frame it looks at what the window shows and hands the platform a MirrorShown only when that
// changed, with what a live region should say once; and it applies what the mirror's own controls
// asked, through the same verbs as the keys and the lesson panel.
#pragma once

#include <string>
#include <vector>

#include "gui/platform/platform.hpp"
#include "gui/window/window_state.hpp"

namespace sv::gui {

// What the mirror last showed.
struct MirrorMemo {
  std::string key;                  // what the window showed, as one string; "" before the first frame
  const TraceView* view = nullptr;  // the recording, the step and the verdict last said
  int step = -1;
  std::string card;  // the graded card last said (graded_card's identity)
  std::string error;
  std::string class_said;  // what the live region last said of the class panel's class
};

// After a frame is built: where the platform has a mirror and what it shows changed, hands it over.
void follow_mirror(const Ui& ui, MirrorMemo& memo, Platform& platform);

// What the live region says when the window moves from `memo` to what `m` holds ("" for nothing new):
// a new recording, a new step (its line and narration; at the last step the result), a refused run,
// a report card graded, a class opened in the class panel and, once, the class graded. `graded_card` names the card when it grades the kernel as it runs, every
// case done ("" while it is checked: the cases so far are no card to announce).
std::string mirror_announcement(const MirrorShown& m, const TraceView* view, const std::string& graded_card, const MirrorMemo& memo);

// Applies the mirror's controls' actions (Platform::take_mirror_actions); true when the lesson's
// controls changed, so that the lesson is recorded again. Unknown actions are ignored.
bool apply_mirror_actions(Ui& ui, const std::vector<std::string>& actions);

}  // namespace sv::gui
