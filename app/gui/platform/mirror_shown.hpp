// What the window shows, for a platform that mirrors it in text (the page's hidden DOM, laid out by
// app/web/mirror_html.*): the lesson's text (mirror/step_mirror.hpp), the report card of a kernel of
// one's own, the look-back view in words, a class's submissions, what the canvas shows in a
// sentence, what a live region says once, and the state of the mirror's own controls. Made only
// when one of these changed (gui/window/page_mirror.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuda_subset/check.hpp"
#include "gui/model/lookback_mirror.hpp"
#include "mirror/step_mirror.hpp"

namespace sv::gui {

// The mirror's controls as the window's state sets them.
struct MirrorControls {
  std::vector<std::string> algorithms;  // the block algorithms, as the lesson panel's combo lists them
  std::string algorithm;                // the lesson's ("" for a kernel of one's own)
  std::int64_t n = 0;
  std::int64_t max_n = 0;
  int step = 0, steps = 0;              // 0-based step, and how many
  bool playing = false;
  bool window_wants_tab = false;        // a text box or the quiz has the keyboard: Tab is the window's
};

// The class panel's submissions as its rows say them, while the panel is shown.
struct MirrorClassEntry {
  std::string name;
  std::string state;   // its verdict in a word, or how far its check got ("checking 3/48", "waiting")
  std::string score;   // "7/10"; "" until graded
  std::string first;   // the first finding ("-" for none); "" until graded
  bool opened = false;  // the entry open as the lesson's kernel
};
struct MirrorClass {
  std::string source;   // what was opened: the folder, the table, "3 dropped files"
  std::string summary;  // the panel's first line: the class, how many graded and their verdicts
  bool graded = false;  // every entry has its verdict
  std::vector<MirrorClassEntry> entries;
};

struct MirrorShown {
  std::optional<LessonHeading> heading;  // none before the first recording
  StepMirror step;
  std::string lesson_error;              // the controls' run refused, or a kernel that did not run
  bool own_kernel = false;               // the lesson is a kernel of one's own: the card follows
  const cuda::CheckReport* card = nullptr;  // its card (or the cases so far), valid during the call
  std::string card_state;                // the one verdict: "WRONG", "checking: 12 of 48 cases", ...
  std::optional<MirrorClass> class_list;  // while the class panel is shown with a class in it
  std::string canvas_label;              // the canvas's name: what its view shows now
  std::string announcement;              // said once by the live region; "" when nothing new
  std::optional<LookbackMirror> lookback;  // the look-back view, when it is in front
  MirrorControls controls;
};

}  // namespace sv::gui
