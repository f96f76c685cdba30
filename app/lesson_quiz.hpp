// Predict mode in the terminal: before a step is shown, the window's predict questions
// (analysis/predict.hpp) are asked, each answered with a digit and graded with the trace's
// explanation, as the window's predict panel does.
#pragma once

#include <iosfwd>
#include <set>

#include "mirror/trace_view.hpp"
#include "terminal_keys.hpp"

namespace sv {

struct QuizScore {
  int right = 0, asked = 0;
  std::set<int> answered;  // steps whose questions were answered (or that had none)
};

enum class QuizEnd { Answered, Quit, InputEnded };

// Asks step `step`'s questions unless they were answered; prints each verdict and the score.
QuizEnd ask_before_step(std::ostream& out, KeyReader& keys, const TraceView& view, int step, QuizScore& score);

}  // namespace sv
