// Predict mode in the terminal (lesson_quiz.hpp).
#include "lesson_quiz.hpp"

#include <algorithm>
#include <ostream>

#include "analysis/predict.hpp"
#include "core/values.hpp"

namespace sv {

QuizEnd ask_before_step(std::ostream& out, KeyReader& keys, const TraceView& view, int step, QuizScore& score) {
  if (score.answered.count(step)) return QuizEnd::Answered;
  const Trace& t = view.trace;
  const int buffer = step < static_cast<int>(view.row_buffer.size()) ? view.row_buffer[static_cast<std::size_t>(step)] : -1;
  const std::vector<PredictQuestion> questions = predict_questions(t, view.hazards, step, buffer);
  if (questions.empty()) {  // nothing to predict: the lesson moves on
    score.answered.insert(step);
    return QuizEnd::Answered;
  }
  out << "Predict: before step " << step + 1 << " of " << t.steps.size() << " (" << t.steps[static_cast<std::size_t>(step)].label()
      << "), what will " << (questions.size() == 1 ? "this cell" : "these cells") << " hold?\n";
  if (std::any_of(questions.begin(), questions.end(), [](const PredictQuestion& q) { return q.kind == QuestionKind::Stale; }))
    out << "In a race the answer depends on the schedule: this lesson runs " << t.meta.executor.schedule
        << (t.meta.executor.kind == "emulator" ? " on the emulator" : " on the GPU") << "; another schedule can give the other value.\n";
  for (std::size_t i = 0; i < questions.size(); ++i) {
    const PredictQuestion& q = questions[i];
    const int choices = static_cast<int>(q.choices.size());
    const bool asks = !q.prompt.empty() && q.prompt.back() == '?';  // a race's question is already one
    out << "Question " << i + 1 << " of " << questions.size() << ": " << q.prompt << (asks ? "\n" : "?\n");
    for (int c = 0; c < choices; ++c) out << "  " << c + 1 << ": " << q.choices[static_cast<std::size_t>(c)] << "\n";
    out << "Answer with a digit from 1 to " << choices << ".\n" << std::flush;
    int chosen = -1;
    while (chosen < 0) {
      const std::optional<KeyPress> k = keys.next();
      if (!k) return QuizEnd::InputEnded;
      if (k->key == Key::Quit) return QuizEnd::Quit;
      if (k->key == Key::Digit && k->digit >= 1 && k->digit <= choices) chosen = k->digit - 1;
      else out << "Answer with a digit from 1 to " << choices << " (q quits).\n" << std::flush;
    }
    const std::string answer = q.choices[static_cast<std::size_t>(q.correct)];
    ++score.asked;
    if (chosen == q.correct) {
      ++score.right;
      out << "Right: " << answer << ".\n";
    } else {
      out << "Wrong: the answer is " << answer << "; you answered " << q.choices[static_cast<std::size_t>(chosen)] << ".\n";
    }
    out << q.explanation << "\n";
  }
  score.answered.insert(step);
  out << "Score this lesson: " << score.right << " of " << score.asked << ".\n";
  return QuizEnd::Answered;
}

}  // namespace sv
