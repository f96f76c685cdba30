// Predict the next step: a window that, before each step is shown, asks what a few highlighted cells
// will hold (and, on a race, which value a read sees), grades the answer with the trace's
// explanation, keeps a score per lesson, and holds the timeline until the step is answered.
#pragma once

#include <imgui.h>

#include <array>
#include <set>
#include <string>
#include <vector>

#include "analysis/predict.hpp"
#include "gui/draw/canvas.hpp"

namespace sv::gui {

struct PredictAnswer {
  int chosen = -1;             // index into the question's choices, -1: none picked
  std::array<char, 96> typed{};  // a typed value overrides the pick
  std::string error;           // the typed value does not parse
};

struct PredictUi {
  bool on = false;
  bool focus = false;                 // bring the window to the front next frame
  const TraceView* lesson = nullptr;  // the trace the score is for: another one starts a new lesson
  int step = -1;                      // the step the open questions are about
  std::vector<PredictQuestion> questions;
  std::vector<PredictAnswer> answers;
  int current = 0;       // the question the keys answer
  bool edit = false;     // put the text cursor in the current question's box next frame
  std::string message;   // "answer every question first"
  // The last graded step, shown under the next questions.
  std::vector<PredictQuestion> graded;
  std::vector<bool> graded_right;
  std::vector<std::string> graded_given;  // what the student answered
  std::set<int> answered;  // steps answered in this lesson
  int right = 0, asked = 0;
  bool log = false;  // print each graded answer and the score on standard output (scripted runs)
};

// False when predict mode holds the timeline: moving forward past a step not yet answered.
bool predict_allows(const PredictUi& p, int shown, int target);

// The predict window (when on). Keys: Tab / Shift+Tab the question, 1-4 pick, E type, Enter check.
// Returns the step the timeline should show now (a graded step, or 0 for a new lesson), else -1.
// It opens at `pos` with `size` (the diagram's lower part, clear of the narration and the source).
int predict_window(PredictUi& p, const TraceView& view, int shown, ImVec2 pos, ImVec2 size);

// Outlines, over the diagram drawn at `pos` by draw_canvas, the columns the questions ask about and
// a numbered box where the next row's cell will appear.
void draw_predict_marks(const PredictUi& p, const CanvasState& cs, int shown, ImVec2 pos, ImVec2 size);

}  // namespace sv::gui
