// The class panel (class_panel.hpp).
#include "gui/window/class_panel.hpp"

// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "grade/card_text.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/platform/keys.hpp"
#include "gui/window/kernel_window.hpp"

namespace sv::gui {

namespace {

// The class's share of a frame where it is graded on the frame's own thread (the page), beside the
// open kernel's own card: the frames stay near 60 Hz.
constexpr double kClassMsPerFrame = 6;

}  // namespace

void show_class(Ui& ui, ClassList list) {
  ui.submissions.list = std::move(list);
  ui.submissions.cursor = 0;
  ui.submissions.show = ui.submissions.focus = true;
  const std::size_t n = ui.submissions.list.entries.size(), graded = ui.submissions.list.graded();
  say(ui, "opened the class " + ui.submissions.list.source + ": " + std::to_string(n) + " submission" + (n == 1 ? "" : "s") +
              (graded == n ? ", graded" : ", grading them one at a time") + " (G shows the list)");
}

namespace {

// The entry's verdict as the list shows it, and its colour (none: neutral).
std::pair<std::string, std::optional<ImVec4>> verdict_cell(const ClassList& list, std::size_t i, const std::optional<GradeProgress>& progress) {
  const std::string& verdict = list.entries[i].verdict;
  return {entry_state(list, i, progress), verdict == "correct" ? std::optional(good_text()) : verdict.empty() ? std::nullopt : std::optional(bad_text())};
}

// Opens entry `i` as the lesson's own kernel; its card, when the class has graded it with the launch
// the lesson runs, is shown at once rather than graded again.
void open_entry(Ui& ui, const Platform& platform, int i) {
  ClassList& list = ui.submissions.list;
  const std::optional<ClassPick> pick = pick_entry(list, i);
  const ClassEntry& e = list.entries[static_cast<std::size_t>(list.selected)];
  if (!pick) {
    say(ui, e.name + ": " + e.problem, true);
    return;
  }
  if (pick->grade && pick->grade->launch == ui.lesson.request.launch && !ui.kernel.checker.busy()) {
    ui.kernel.grade = pick->grade;
    ui.kernel.asked_grade = pick->grade->kernel;
    ui.kernel.asked_launch = pick->grade->launch;
  }
  open_kernel(ui, platform, pick->kernel->name, pick->kernel->text, pick->follow, ImGui::GetTime());
  ui.kernel.show = true;
  say(ui, "opened " + e.name + " (" + std::to_string(list.selected + 1) + " of " + std::to_string(list.entries.size()) + ")" +
              (e.verdict.empty() ? "" : ": " + e.verdict + ", " + card::number(e.score) + " of " + card::number(e.max_score)));
}

}  // namespace

void open_class(Ui& ui, const std::string& path) {
  try {
    show_class(ui, open_class_path(path));
  } catch (const std::exception& e) {
    say(ui, std::string("Open class: ") + e.what(), true);
  }
}

void open_dropped_class(Ui& ui, const std::vector<std::string>& paths, bool follow) {
  show_class(ui, class_from_files(paths, follow, std::to_string(paths.size()) + " dropped files"));
}

void take_class_grades(Ui& ui, bool wait) {
  ClassUi& c = ui.submissions;
  if (wait) grade_all(c.list, c.checker, ui.lesson.request.launch);
  else grade_next(c.list, c.checker, ui.lesson.request.launch, kClassMsPerFrame);
}

void class_window(Ui& ui, const Platform& platform, const PanelLayout& l) {
  ClassUi& c = ui.submissions;
  // Under the diagram's top half and over the lesson's controls, as wide as both columns, so that a
  // row's first finding reads whole beside the diagram and the card in the right-hand column.
  const float top = l.menu_h + (l.H - l.menu_h) * 0.45f;
  ImGui::SetNextWindowPos(ImVec2(0, top), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(std::max(l.W - l.right_w, 30 * l.em), l.H - top - l.timeline_h), ImGuiCond_FirstUseEver);
  if (c.focus) ImGui::SetNextWindowFocus();
  c.focus = false;
  const bool visible = ImGui::Begin("Class (G)", &c.show);  // opaque, as every theme's windows are
  if (!visible) {
    ImGui::End();
    return;
  }
  ui.chrome.push_back({"class_panel", window_rect()});
  ClassList& list = c.list;
  if (list.entries.empty()) {
    ImGui::TextWrapped("No class open: File > Open class (a folder of .cu files, or the CSV that scanviz check FOLDER --summary "
                       "writes), or drop several .cu files at once.");
    ImGui::End();
    return;
  }
  const std::optional<GradeProgress> progress = c.checker.progress();
  const std::size_t graded = list.graded();
  ImGui::TextUnformatted(class_summary(list).c_str());
  ui.texts.push_back({"class_summary", std::string(list.source) + ": " + std::to_string(graded) + " of " + std::to_string(list.entries.size()) + " graded"});
  ImGui::Checkbox("only WRONG and ERROR", &c.only_failing);
  std::vector<int> shown;
  for (std::size_t i = 0; i < list.entries.size(); ++i)
    if (!c.only_failing || list.entries[i].verdict == "wrong" || list.entries[i].verdict == "error") shown.push_back(static_cast<int>(i));
  // Keyboard alone: Up and Down move through the rows shown, Enter opens the one lit.
  int open = -1;
  const auto at = std::find(shown.begin(), shown.end(), c.cursor);
  int row = at == shown.end() ? 0 : static_cast<int>(at - shown.begin());
  bool moved = false;
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput && !shown.empty()) {
    const int step = key_repeats(GLFW_KEY_DOWN) ? 1 : key_repeats(GLFW_KEY_UP) ? -1 : 0;
    moved = step != 0;
    row = std::clamp(row + step, 0, static_cast<int>(shown.size()) - 1);
    if (key_pressed(GLFW_KEY_ENTER) || key_pressed(GLFW_KEY_KP_ENTER)) open = shown[static_cast<std::size_t>(row)];
  }
  if (!shown.empty()) c.cursor = shown[static_cast<std::size_t>(row)];
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_Resizable;
  if (ImGui::BeginTable("##class", 4, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("submission", ImGuiTableColumnFlags_WidthStretch, 1);
    ImGui::TableSetupColumn("verdict", ImGuiTableColumnFlags_WidthFixed, 7 * l.em);
    ImGui::TableSetupColumn("score", ImGuiTableColumnFlags_WidthFixed, 5 * l.em);
    ImGui::TableSetupColumn("first finding", ImGuiTableColumnFlags_WidthStretch, 2.5f);
    ImGui::TableHeadersRow();
    for (const int i : shown) {
      const ClassEntry& e = list.entries[static_cast<std::size_t>(i)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(i);
      const std::string label = (i == list.selected ? "> " : "  ") + e.name;
      if (ImGui::Selectable(label.c_str(), i == c.cursor, ImGuiSelectableFlags_SpanAllColumns)) {
        c.cursor = i;
        open = i;
      }
      if (i == c.cursor && moved) ImGui::SetScrollHereY();
      ui.chrome.push_back({"class_row_" + std::to_string(i), item_rect()});
      ImGui::PopID();
      ImGui::TableNextColumn();
      const auto [verdict, colour] = verdict_cell(list, static_cast<std::size_t>(i), progress);
      if (colour) ImGui::TextColored(*colour, "%s", verdict.c_str());
      else ImGui::TextDisabled("%s", verdict.c_str());
      ui.chrome.push_back({"class_verdict_" + std::to_string(i), item_rect()});
      ImGui::TableNextColumn();
      if (!e.verdict.empty()) ImGui::Text("%s/%s", card::number(e.score).c_str(), card::number(e.max_score).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(e.verdict.empty() ? "" : e.first.c_str());
      if (!e.verdict.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.first.c_str());  // a long one, whole
    }
    ImGui::EndTable();
  }
  ImGui::End();
  if (open >= 0) open_entry(ui, platform, open);
}

std::string class_report(const Ui& ui) {
  const ClassList& list = ui.submissions.list;
  std::ostringstream out;
  out << "class: " << (list.source.empty() ? "none" : list.source) << ", " << list.entries.size() << " submissions, " << list.graded() << " graded, panel "
      << (ui.submissions.show ? "shown" : "hidden") << "\n";
  for (std::size_t i = 0; i < list.entries.size(); ++i) {
    const ClassEntry& e = list.entries[i];
    out << "entry " << i << ": " << e.name << ": " << (e.verdict.empty() ? "not graded" : e.verdict) << ", " << card::number(e.score) << " of "
        << card::number(e.max_score) << ": " << e.first << "\n";
  }
  out << "selected: " << list.selected << (list.selected >= 0 ? " " + list.entries[static_cast<std::size_t>(list.selected)].name : "") << "\n";
  return out.str();
}

}  // namespace sv::gui
