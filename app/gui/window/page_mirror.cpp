// The window's side of the text mirror (page_mirror.hpp).
#include "gui/window/page_mirror.hpp"

#include <imgui.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>

#include "algorithms.hpp"
#include "grade/card_text.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "gui/window/kernel_verdict.hpp"

namespace sv::gui {

namespace {

// The canvas's name: the view in front, and for the lesson what it draws at this step.
std::string canvas_label(const Ui& ui, const MirrorShown& m) {
  const std::string lesson = m.heading ? m.heading->title + ". " + m.step.step_line : std::string("the lesson, being recorded");
  if (ui.show_lookback)
    return "The look-back view of a device-wide scan: its tiles, their flags and the values they publish, drawn over the window. "
           "The tiles follow as text, a table a run.";
  if (ui.show_charts) return "Charts of work against steps for the block algorithms, drawn over the window (not mirrored in text).";
  if (ui.show_timing) return "GPU timing charts, drawn over the window (not mirrored in text).";
  if (ui.kernel.show) return "Your kernel: the editor and its report card beside the dataflow diagram of " + lesson + ". The card follows as text.";
  return "The scanviz window: the dataflow diagram of " + lesson + ", with the lesson's controls, narration and kernel source. The lesson follows as text.";
}

std::string counted(std::size_t count, const std::string& what) {
  return std::to_string(count) + " " + what + (count == 1 ? "" : "s");
}

// The class panel's rows while it shows a class, in the panel's words.
std::optional<MirrorClass> mirror_class(const Ui& ui) {
  const ClassList& list = ui.submissions.list;
  if (!ui.submissions.show || list.entries.empty()) return std::nullopt;
  const std::optional<GradeProgress> progress = list.grading >= 0 ? ui.submissions.checker.progress() : std::nullopt;
  MirrorClass c{list.source, class_summary(list), list.graded() == list.entries.size(), {}};
  for (std::size_t i = 0; i < list.entries.size(); ++i) {
    const ClassEntry& e = list.entries[i];
    const bool graded = !e.verdict.empty();
    c.entries.push_back({e.name, entry_state(list, i, progress), graded ? card::number(e.score) + "/" + card::number(e.max_score) : "",
                         graded ? e.first : "", static_cast<int>(i) == list.selected});
  }
  return c;
}

// The class as one string, for the mirror's key.
std::string class_key(const std::optional<MirrorClass>& c) {
  if (!c) return "-";
  std::string key = c->summary;
  for (const MirrorClassEntry& e : c->entries) key += "|" + e.state + (e.opened ? "*" : "");
  return key;
}

// Everything the mirror shows, as one string: a change of any part changes it.
std::string shown_key(const Ui& ui, const std::string& verdict, bool wants_tab, const std::optional<MirrorClass>& class_list) {
  std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(ui.lesson.view.get())) + "|" + std::to_string(ui.step);
  for (const bool b : {ui.playing, ui.show_lookback, ui.show_charts, ui.show_timing, ui.kernel.show, wants_tab, ui.lesson.own_kernel != nullptr})
    key += b ? '1' : '0';
  const auto* grade = ui.kernel.grade ? &*ui.kernel.grade : nullptr;
  key += "|" + std::to_string(reinterpret_cast<std::uintptr_t>(grade ? grade->kernel.get() : nullptr));
  if (grade) key += "|" + std::to_string(grade->check_ms);
  key += "|" + verdict + "|" + ui.lesson.error + "|" + ui.lesson.request.algorithm + "|" + std::to_string(ui.lesson.request.n.value_or(8));
  // The view's recording, time and selected tile; not the time while it plays, which changes every
  // frame: the tables follow when it stops or steps.
  if (ui.show_lookback)
    key += "|" + std::to_string(ui.lookback.generation) + "|" + (ui.lookback.playing ? "playing" : std::to_string(ui.lookback.time)) + "|" +
           std::to_string(ui.lookback.selected);
  return key + "|" + class_key(class_list);
}

// What the live region says of the class panel's class: that it was opened, then, once, that it was graded.
std::string class_announcement(const MirrorShown& m) {
  if (!m.class_list) return {};
  const MirrorClass& c = *m.class_list;
  if (c.graded) return "Class graded: " + c.summary + ".";
  return "Class opened: " + c.source + ", " + counted(c.entries.size(), "submission") + ", grading them one at a time.";
}

}  // namespace

std::string mirror_announcement(const MirrorShown& m, const TraceView* view, const std::string& graded_card, const MirrorMemo& memo) {
  std::string said;
  const auto add = [&said](const std::string& s) { said += (said.empty() || s.empty() ? "" : " ") + s; };
  if (view && m.heading && view != memo.view) {
    add((memo.view ? "Recorded " : "Lesson: ") + m.heading->title + ", " + std::to_string(m.heading->steps) + " steps.");
    add(m.step.step_line + ".");
  } else if (view && m.step.step != memo.step) {
    add(m.step.step_line + ".");
    add(m.step.narration);
    if (!m.step.result.empty()) add(m.step.result.front());
  }
  if (m.lesson_error != memo.error && !m.lesson_error.empty()) add(m.lesson_error);
  if (m.own_kernel && m.card && !graded_card.empty() && graded_card != memo.card)
    add("Report card: " + m.card_state + ", " + counted(m.card->hazards.size(), "hazard") + ", " + counted(m.card->errors.size(), "fault") + ".");
  if (const std::string c = class_announcement(m); !c.empty() && c != memo.class_said) add(c);
  return said;
}

void follow_mirror(const Ui& ui, MirrorMemo& memo, Platform& platform) {
  if (!platform.has_mirror()) return;
  const bool wants_tab = ImGui::GetIO().WantTextInput || ui.predict.on;  // the editor indents, the quiz moves between questions
  const KernelVerdict verdict = kernel_verdict(ui);
  std::optional<MirrorClass> class_list = mirror_class(ui);
  std::string key = shown_key(ui, verdict.text, wants_tab, class_list);
  if (key == memo.key) return;
  memo.key = std::move(key);
  const TraceView* view = ui.lesson.view.get();
  MirrorShown m;
  if (view) {
    m.heading = lesson_heading(*view);
    m.step = mirror_step(*view, ui.step);
  }
  m.lesson_error = ui.lesson.error;
  m.own_kernel = ui.lesson.own_kernel != nullptr;
  const std::optional<GradeProgress> progress = m.own_kernel ? ui.kernel.checker.progress() : std::nullopt;
  std::string graded_card;  // the card graded, by its kernel and when it was made
  if (m.own_kernel && grade_is_current(ui)) {
    m.card = &ui.kernel.grade->report;
    graded_card = std::to_string(reinterpret_cast<std::uintptr_t>(ui.kernel.grade->kernel.get())) + "|" + std::to_string(ui.kernel.grade->check_ms);
  } else if (progress) {
    m.card = &progress->partial;
  }
  m.card_state = verdict.text;
  m.class_list = std::move(class_list);
  m.canvas_label = canvas_label(ui, m);
  if (ui.show_lookback) m.lookback = mirror_lookback(ui.lookback);
  m.announcement = mirror_announcement(m, view, graded_card, memo);
  MirrorControls& c = m.controls;
  for (const AlgorithmInfo& a : block_algorithms()) c.algorithms.emplace_back(a.name);
  if (!m.own_kernel) c.algorithm = ui.lesson.request.algorithm;
  c.n = ui.lesson.request.n.value_or(8);
  c.max_n = max_lesson_n(ui.lesson);
  c.step = ui.step;
  c.steps = step_count(ui);
  c.playing = ui.playing;
  c.window_wants_tab = wants_tab;
  platform.show_mirror(m);
  memo.view = view;
  memo.step = m.step.step;
  if (!graded_card.empty()) memo.card = graded_card;
  memo.error = m.lesson_error;
  if (const std::string c = class_announcement(m); !c.empty()) memo.class_said = c;
}

bool apply_mirror_actions(Ui& ui, const std::vector<std::string>& actions) {
  bool changed = false;
  for (const std::string& a : actions) {
    if (a == "first") set_step(ui, 0);
    else if (a == "previous") set_step(ui, ui.step - 1);
    else if (a == "next") set_step(ui, ui.step + 1);
    else if (a == "last") set_step(ui, step_count(ui) - 1);
    else if (a == "play") ui.playing = !ui.playing;
    else if (a.rfind("algorithm=", 0) == 0) {
      const std::string name = a.substr(10);
      const AlgorithmInfo* info = find_algorithm(name);
      const auto listed = block_algorithms();
      if (!info || std::none_of(listed.begin(), listed.end(), [&](const AlgorithmInfo& b) { return b.name == name; })) continue;
      if (name == ui.lesson.request.algorithm && !ui.lesson.own_kernel) continue;
      set_algorithm(ui.lesson, name);
      changed = true;
    } else if (a.rfind("n=", 0) == 0 && input_mode(ui.lesson) != 2) {  // typed values set n themselves
      std::int64_t n = 0;
      const char* end = a.data() + a.size();
      if (std::from_chars(a.data() + 2, end, n).ptr != end || n < 1) continue;
      n = std::min<std::int64_t>(n, max_lesson_n(ui.lesson));
      if (n == ui.lesson.request.n.value_or(8)) continue;
      ui.lesson.request.n = n;
      changed = true;
    }
  }
  return changed;
}

}  // namespace sv::gui
