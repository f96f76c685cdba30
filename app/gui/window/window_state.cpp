// The window state's verbs: the status line, tooltips, the step, a recording swapped in, the options
// that open the window where it is.
#include "gui/window/window_state.hpp"

#include <imgui.h>

#include <algorithm>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "gui/window/kernel_verdict.hpp"

namespace sv::gui {

void say(Ui& ui, std::string text, bool error) {
  ui.status = std::move(text);
  ui.status_is_error = error;
}

LaidRect item_rect() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

void tip(Ui& ui, const char* name, const char* text) {
  ui.chrome.push_back({name, item_rect()});
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
  ImGui::SetTooltip("%s", text);
  ui.tooltip = text;
}

LaidRect window_rect() {
  const ImVec2 a = ImGui::GetWindowPos(), b = ImGui::GetWindowSize();
  return {a.x, a.y, b.x, b.y};
}

int step_count(const Ui& ui) { return ui.lesson.view ? static_cast<int>(ui.lesson.view->trace.steps.size()) : 0; }

void set_step(Ui& ui, int step) {
  step = std::clamp(step, 0, std::max(0, step_count(ui) - 1));
  if (predict_allows(ui.predict, ui.step, step)) ui.step = step;  // predict mode: a step is shown once answered
}

void swap_in_recording(Ui& ui, LessonRecording&& r) {
  const bool recorded = r.error.empty();
  // A kernel of the user's own: the status line says what ran, or the error, the last run that
  // worked staying on screen.
  if (r.ran_kernel && !recorded)
    say(ui, r.error + (ui.lesson.view ? " (the last run that worked stays on screen)" : ""), true);
  const bool ran_kernel = r.ran_kernel != nullptr;
  show_recording(ui.lesson, std::move(r));
  if (!recorded) return;
  if (ran_kernel) say_kernel_ran(ui);
  ui.recorded_from_controls = true;
  set_step(ui, ui.step_after_swap >= 0 ? ui.step_after_swap : ui.swap_to_last_step ? step_count(ui) - 1 : ui.step);
  ui.swap_to_last_step = false;
  ui.step_after_swap = -1;
}

std::optional<GuiOptions> shown_options(const Ui& ui) {
  // Controls not yet recorded, or refused (the error in the panel), name no lesson a link can be
  // sure to open: the address keeps the lesson on screen until their recording is shown.
  if (!ui.recorded_from_controls || ui.recorder.pending() || !ui.lesson.error.empty()) return std::nullopt;
  const Lesson& l = ui.lesson;
  const RunRequest& r = l.request;
  const int scan = scan_kind(l);
  GuiOptions o;
  // The lesson as its controls show it: the fields a hidden control holds left at the defaults.
  RunRequest& s = o.lesson;
  s.algorithm = r.algorithm;
  s.n = r.n.value_or(8);
  s.block = r.block;
  s.op = r.op.value_or(OpKind::Sum);
  s.schedule = r.schedule;
  if (*s.op != OpKind::Interval && scan < 2) s.type = r.type && *r.type != ValueType::Interval ? *r.type : ValueType::I32;
  s.exclusive = r.exclusive && scan != 1;
  s.input = r.input;
  s.seed = r.seed;
  o.input_given = input_mode(l) != 0 || *s.n > 8;
  if (scan == 1) s.flags = r.flags;
  if (scan >= 2) s.app = r.app;
  if (scan == 2) s.predicate = r.predicate;
  // A warp-level lesson's width as it runs: none where the lesson narrowed its 4 to a smaller block,
  // so that the link opens (a width a link names is checked as given).
  const AlgorithmInfo* info = find_algorithm(r.algorithm);
  s.warp = info && info->warp_level ? lesson_request(l, r.algorithm).warp : r.warp;
  s.executor = r.executor;
  s.amplify = r.amplify;
  o.step = ui.step;
  o.side_by_side = ui.side_by_side;
  o.lecture = ui.lecture;
  o.charts = ui.show_charts;
  o.divergence = ui.show_divergence;
  o.floats = ui.floats.show;
  o.timing = ui.show_timing && ui.bench_link.empty();
  if (ui.show_timing) o.bench_json = ui.bench_link;  // the table the link brought, while it shows
  if (ui.show_lookback) o.lookback = ui.lookback.preset.empty() ? "default" : ui.lookback.preset;
  if (l.own_kernel) {
    // A kernel of the user's own: its name and text, which the page's link carries, in place of
    // what names a built-in lesson (a kernel of one's own runs alone, as itself).
    o.kernel_name = l.own_kernel->name;
    o.kernel_text = l.own_kernel->text;
    s.launch = r.launch;  // how it runs (the launch box)
    const RunRequest d = default_lesson_request();
    s.algorithm = d.algorithm;
    s.type.reset();
    s.flags = d.flags;
    s.app = d.app;
    s.predicate = d.predicate;
    o.lookback.clear();
    o.side_by_side = false;
  }
  return o;
}

}  // namespace sv::gui
