// The predict-the-step window and its marks on the diagram; the questions come from
// analysis/predict.hpp.
#include "gui/panels/predict_panel.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on

#include <algorithm>
#include <iostream>

#include "core/values.hpp"
#include "gui/draw/canvas.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/platform/keys.hpp"

namespace sv::gui {

namespace {

const ImU32 kMark = IM_COL32(132, 94, 247, 255);  // violet: no other meaning on the canvas

// Grades every question; false (with a message) while one is unanswered or its typed value does not parse.
bool grade(PredictUi& p, const Trace& t, std::vector<bool>& right) {
  right.assign(p.questions.size(), false);
  bool complete = true;
  for (std::size_t i = 0; i < p.questions.size(); ++i) {
    PredictAnswer& a = p.answers[i];
    a.error.clear();
    if (a.typed[0] != '\0') {
      const TypedGrade g = grade_typed(t, p.questions[i], a.typed.data());
      a.error = g.error;
      right[i] = g.right;
      complete &= g.error.empty();
    } else if (a.chosen >= 0) {
      right[i] = a.chosen == p.questions[i].correct;
    } else {
      complete = false;
    }
  }
  p.message = complete ? "" : "Answer every question first: Tab moves to the next, 1-4 picks, E types a value.";
  return complete;
}

void reset_lesson(PredictUi& p, const TraceView& view) {
  p.lesson = &view;
  p.step = -1;
  p.questions.clear();
  p.answers.clear();
  p.graded.clear();
  p.graded_right.clear();
  p.answered.clear();
  p.right = p.asked = 0;
  p.message.clear();
}

void ask_about(PredictUi& p, const TraceView& view, int step) {
  p.step = step;
  p.questions.clear();
  if (!p.answered.count(step)) {
    const int buffer = step < static_cast<int>(view.row_buffer.size()) ? view.row_buffer[static_cast<std::size_t>(step)] : -1;
    p.questions = predict_questions(view.trace, view.hazards, step, buffer);
  }
  if (p.questions.empty()) p.answered.insert(step);  // nothing to predict: the timeline may pass
  p.answers.assign(p.questions.size(), PredictAnswer{});
  p.current = 0;
  p.message.clear();
}

void question_row(PredictUi& p, int i, bool& submit) {
  const PredictQuestion& q = p.questions[static_cast<std::size_t>(i)];
  PredictAnswer& a = p.answers[static_cast<std::size_t>(i)];
  ImGui::PushID(i);
  const bool current = i == p.current;
  ImGui::TextColored(current ? ImGui::ColorConvertU32ToFloat4(kMark) : ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "%s?%d",
                     current ? ">" : " ", i + 1);
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(q.prompt.c_str());
  ImGui::PopTextWrapPos();
  for (int c = 0; c < static_cast<int>(q.choices.size()); ++c) {
    const std::string label = std::to_string(c + 1) + ": " + q.choices[static_cast<std::size_t>(c)];
    if (c > 0) {  // on the same line where it fits, else on the next: no answer is cut off
      ImGui::SameLine();
      const float needed = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
      if (ImGui::GetContentRegionAvail().x < needed) ImGui::NewLine();
    }
    if (ImGui::RadioButton(label.c_str(), a.chosen == c && a.typed[0] == '\0')) {
      a.chosen = c;
      a.typed[0] = '\0';
      p.current = i;
    }
  }
  if (p.edit && current) {
    ImGui::SetKeyboardFocusHere();
    p.edit = false;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  ImGui::PushAllowKeyboardFocus(false);  // Tab moves between questions, not into the boxes
  submit |= ImGui::InputTextWithHint("##typed", "or type the value (E)", a.typed.data(), a.typed.size(),
                                     ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::PopAllowKeyboardFocus();
  if (ImGui::IsItemActive() && !p.edit) p.current = i;  // a Tab to the next box is on its way
  if (!a.error.empty()) {
    ImGui::SameLine();
    ImGui::TextColored(bad_text(), "%s", a.error.c_str());
  }
  ImGui::PopID();
}

void graded_rows(const PredictUi& p, const Trace& t) {
  for (std::size_t i = 0; i < p.graded.size(); ++i) {
    const PredictQuestion& q = p.graded[i];
    ImGui::TextColored(p.graded_right[i] ? good_text() : bad_text(), "%s", p.graded_right[i] ? "Right." : "Wrong.");
    ImGui::SameLine();
    ImGui::PushTextWrapPos(0);
    ImGui::Text("?%zu %s: %s", i + 1, q.prompt.c_str(),
                q.kind == QuestionKind::Value ? format_value(t.meta.type, q.answer).c_str()
                                              : q.choices[static_cast<std::size_t>(q.correct)].c_str());
    if (!p.graded_right[i]) ImGui::TextColored(bad_text(), "You answered %s.", p.graded_given[i].c_str());
    ImGui::TextDisabled("%s", q.explanation.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace

bool predict_allows(const PredictUi& p, int shown, int target) {
  if (!p.on) return true;
  for (int s = shown + 1; s <= target; ++s)
    if (!p.answered.count(s)) return false;
  return true;
}

int predict_window(PredictUi& p, const TraceView& view, int shown, ImVec2 pos, ImVec2 size) {
  if (!p.on) return -1;
  int go_to = -1;
  if (p.lesson != &view) {
    reset_lesson(p, view);
    go_to = shown = 0;  // a new lesson is predicted from its first step
  }
  const int steps = static_cast<int>(view.trace.steps.size());
  if (shown + 1 < steps && p.step != shown + 1) ask_about(p, view, shown + 1);
  if (shown + 1 >= steps) p.questions.clear(), p.answers.clear(), p.step = -1;

  bool submit = false;
  const ImGuiIO& io = ImGui::GetIO();
  const int count = static_cast<int>(p.questions.size());
  if (!io.WantTextInput && count > 0) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab))) p.current = (p.current + (io.KeyShift ? count - 1 : 1)) % count;
    for (int c = 0; c < 4; ++c) {
      const PredictQuestion& q = p.questions[static_cast<std::size_t>(p.current)];
      if (!key_pressed(GLFW_KEY_1 + c) || c >= static_cast<int>(q.choices.size())) continue;
      p.answers[static_cast<std::size_t>(p.current)].chosen = c;
      p.answers[static_cast<std::size_t>(p.current)].typed[0] = '\0';
      p.current = std::min(p.current + 1, count - 1);  // on to the next question
      break;
    }
    if (key_pressed(GLFW_KEY_E)) p.edit = true;
    submit |= ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter), false) || key_pressed(GLFW_KEY_KP_ENTER);
  } else if (count > 0 && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Tab))) {  // typing: on to the next box
    p.current = (p.current + (io.KeyShift ? count - 1 : 1)) % count;
    p.edit = true;
  }

  ImGui::SetNextWindowSize(size, ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowPos(pos, ImGuiCond_FirstUseEver);
  if (p.focus) ImGui::SetNextWindowFocus();
  p.focus = false;
  const bool window_open = ImGui::Begin("Predict the next step (P)", &p.on);
  keep_in_display();
  if (window_open) {
    ImGui::Text("Score this lesson: %d / %d", p.right, p.asked);
    if (!p.graded.empty()) {  // the last answers first: what the student just did
      ImGui::Separator();
      graded_rows(p, view.trace);
    }
    ImGui::Separator();
    if (count > 0) {
      ImGui::PushTextWrapPos(0);
      ImGui::TextDisabled("Before step %d (%s): what will the marked cells hold?", p.step,
                          view.trace.steps[static_cast<std::size_t>(p.step)].label().c_str());
      // A race's answer is the schedule's: say which one this lesson runs.
      if (std::any_of(p.questions.begin(), p.questions.end(), [](const PredictQuestion& q) { return q.kind == QuestionKind::Stale; }))
        ImGui::TextDisabled("In a race the answer depends on the schedule: this lesson runs %s%s; another schedule can "
                            "give the other value.",
                            view.trace.meta.executor.schedule.c_str(),
                            view.trace.meta.executor.kind == "emulator" ? " on the emulator" : " on the GPU");
      ImGui::PopTextWrapPos();
      for (int i = 0; i < count; ++i) question_row(p, i, submit);
      if (ImGui::Button("Check (Enter)")) submit = true;
      ImGui::SameLine();
      ImGui::TextDisabled("Tab: next question  1-4: pick  E: type");
      if (!p.message.empty()) ImGui::TextColored(bad_text(), "%s", p.message.c_str());
    } else if (shown + 1 >= steps) {
      ImGui::Text("The lesson is done: %d of %d right. Home starts it again.", p.right, p.asked);
    } else {
      ImGui::TextDisabled("Step %d is answered: the timeline moves on.", shown + 1);
    }
  }
  ImGui::End();

  std::vector<bool> right;
  if (submit && count > 0 && !grade(p, view.trace, right)) {  // on to the first question left open
    for (int i = count - 1; i >= 0; --i)
      if (p.answers[static_cast<std::size_t>(i)].chosen < 0 && p.answers[static_cast<std::size_t>(i)].typed[0] == '\0') p.current = i;
    p.edit = io.WantTextInput;
  } else if (submit && count > 0) {
    p.graded = p.questions;
    p.graded_right = right;
    p.graded_given.clear();
    for (std::size_t i = 0; i < p.answers.size(); ++i)
      p.graded_given.push_back(p.answers[i].typed[0] ? std::string(p.answers[i].typed.data())
                                                     : p.questions[i].choices[static_cast<std::size_t>(p.answers[i].chosen)]);
    p.asked += count;
    p.right += static_cast<int>(std::count(right.begin(), right.end(), true));
    p.answered.insert(p.step);
    go_to = p.step;  // show the step just answered: the diagram reveals the answers
    if (p.log)
      for (std::size_t i = 0; i < right.size(); ++i)
        std::cout << "predict: step " << p.step << " ?" << i + 1 << " " << (right[i] ? "right" : "wrong") << ", score "
                  << p.right << "/" << p.asked << "\n";
    p.questions.clear();
    p.answers.clear();
  }
  return go_to;
}

void draw_predict_marks(const PredictUi& p, const CanvasState& cs, int shown, ImVec2 pos, ImVec2 size) {
  if (!p.on || p.questions.empty()) return;
  const Diagram& d = cs.diagram;
  if (shown < 0 || shown >= static_cast<int>(d.rows.size())) return;
  const DiagramRow& row = d.rows[static_cast<std::size_t>(shown)];
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + size.y), true);
  for (std::size_t i = 0; i < p.questions.size(); ++i) {
    const PredictQuestion& q = p.questions[i];
    if (q.index < 0 || static_cast<std::size_t>(q.index) >= row.cell_count) continue;
    const DiagramCell& c = d.cells[row.first_cell + static_cast<std::size_t>(q.index)];
    // In the band that shows the cell's column (a wrapped diagram has several).
    auto to_screen = [&](float x, float y) { return canvas_to_screen(cs, pos, c.column, x, y); };
    const float thick = static_cast<int>(i) == p.current ? 4.0f : 2.5f;
    dl->AddRect(to_screen(c.x, c.y), to_screen(c.x + c.w, c.y + c.h), kMark, 0, 0, thick);
    // Where the answer will appear: the next row's cell, numbered like the question.
    const float next_y = c.y + d.layout.cell_h + d.layout.row_gap;
    const ImVec2 a = to_screen(c.x, next_y), b = to_screen(c.x + c.w, next_y + c.h);
    dl->AddRect(a, b, kMark, 0, 0, thick);
    const std::string label = "?" + std::to_string(i + 1);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    dl->AddText(ImVec2((a.x + b.x - ts.x) / 2, (a.y + b.y - ts.y) / 2), kMark, label.c_str());
  }
  dl->PopClipRect();
}

}  // namespace sv::gui
