// The "Your kernel" panel and the kernel's ways into the lesson (kernel_window.hpp).
#include "gui/window/kernel_window.hpp"

// clang-format off
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "gui/lesson/own_kernel.hpp"
#include "gui/panels/report_card.hpp"
#include "gui/platform/keys.hpp"
#include "kernel_run.hpp"

namespace sv::gui {

namespace {

// The lesson becomes `k`, recorded on the worker (the step and the view stay), and `k` is graded
// unless it was the last kernel graded.
void show_kernel(Ui& ui, std::shared_ptr<const OwnKernel> k) {
  if (!ui.kernel.asked_grade || ui.kernel.asked_grade->text != k->text) {
    ui.kernel.asked_grade = k;
    ui.kernel.checker.request(k);
  }
  ui.lesson.own_kernel = std::move(k);
  ui.side_by_side = false;  // one kernel: it has no twin
  ui.recorder.request(ui.lesson, false);
  ui.swap_to_last_step |= !ui.recorded_from_controls;
}

// A report card entry picked: its lines lit in the editor; where it happened in a run, that run
// recorded (its n, schedule and lockstep) and shown at its step.
void pick(Ui& ui, const ReportPick& p) {
  KernelEditor& e = ui.kernel.editor;
  e.marked.clear();
  for (std::uint32_t line : p.lines)
    if (line > 0) e.marked.push_back(line);
  if (!e.marked.empty()) e.scroll_to = *std::min_element(e.marked.begin(), e.marked.end());
  if (p.n <= 0 || !ui.kernel.grade) return;
  RunRequest& r = ui.lesson.request;
  r.n = p.n;
  if (!r.input.empty() && r.input != "slides") r.input.clear();  // typed values would say another n
  r.schedule = p.schedule;
  if (p.schedule.rfind("random", 0) == 0) ui.lesson.random_schedule = p.schedule;
  r.warp = p.warp;
  ui.step_after_swap = std::max(p.step, 0);
  show_kernel(ui, ui.kernel.grade->kernel);
}

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

}  // namespace

void open_kernel(Ui& ui, const Platform& platform, const std::string& name, std::string text, const std::string& follow,
                 double now) {
  KernelEditor& e = ui.kernel.editor;
  set_editor_text(e, name, std::move(text));
  if (follow.empty()) ui.kernel.watch = {};
  else watch_file(ui.kernel.watch, platform, follow, now);
  show_kernel(ui, make_own_kernel(e.name, e.text));
}

void run_editor_kernel(Ui& ui) {
  KernelEditor& e = ui.kernel.editor;
  // A warp-level form just picked scans from n = 64 (two warps of 32): below it, it is simply wrong.
  if (e.start_min_n > ui.lesson.request.n.value_or(8)) {
    ui.lesson.request.n = e.start_min_n;
    if (ui.lesson.request.input == "slides" || input_mode(ui.lesson) == 2) ui.lesson.request.input.clear();
  }
  e.start_min_n = 0;
  show_kernel(ui, make_own_kernel(e.name, e.text));
}

void follow_kernel_file(Ui& ui, const Platform& platform, double now, bool force) {
  FileWatch& w = ui.kernel.watch;
  if (!file_changed(w, platform, now, force)) return;
  std::string text;
  try {
    text = read_kernel_source(w.path);
  } catch (const std::exception& e) {
    say(ui, e.what(), true);
    return;
  }
  const std::string name = file_name(w.path);
  if (ui.lesson.own_kernel && ui.lesson.own_kernel->name == name && ui.lesson.own_kernel->text == text) return;  // touched
  KernelEditor& e = ui.kernel.editor;
  if (e.edited && e.text != text) {
    // Typed into in the window and saved elsewhere: the run is the file's, the typing stays.
    say(ui, w.path + " was saved: running it; your edits in the window are kept (Run runs them)");
  } else {
    set_editor_text(e, name, text);
  }
  show_kernel(ui, make_own_kernel(name, std::move(text)));
}

void take_kernel_grade(Ui& ui, bool wait) {
  std::optional<KernelGrade> g = wait ? ui.kernel.checker.wait() : ui.kernel.checker.take();
  if (g) ui.kernel.grade = std::move(g);
  // The error of the lesson's kernel, at its line in the editor (open or not).
  if (ui.lesson.own_kernel) {
    ui.kernel.editor.error = ui.lesson.error;
    ui.kernel.editor.error_line = ui.lesson.error.empty() ? 0 : ui.lesson.error_line;
  }
}

void kernel_window(Ui& ui, const PanelLayout& l) {
  KernelUi& k = ui.kernel;
  ImGui::SetNextWindowPos(ImVec2(l.W * 0.02f, l.menu_h + (l.H - l.menu_h) * 0.04f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(l.W * 0.62f, (l.H - l.menu_h) * 0.86f), ImGuiCond_FirstUseEver);
  if (k.editor.focus) ImGui::SetNextWindowFocus();
  if (!ImGui::Begin("Your kernel (K)", &k.show)) {
    ImGui::End();
    return;
  }
  ui.chrome.push_back({"kernel_panel", window_rect()});
  // Keyboard alone: out of the text, Up and Down walk the report card's entries and Enter picks one,
  // Page Down and Page Up the starting points; Tab goes back into the text.
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows) && !ImGui::GetIO().WantTextInput) {
    k.card_keys.moved = key_repeats(GLFW_KEY_DOWN) ? 1 : key_repeats(GLFW_KEY_UP) ? -1 : 0;
    k.card_keys.enter = key_pressed(GLFW_KEY_ENTER) || key_pressed(GLFW_KEY_KP_ENTER);
    if (key_pressed(GLFW_KEY_TAB)) k.editor.focus = true;
    k.editor.start_step = key_repeats(GLFW_KEY_PAGE_DOWN) ? 1 : key_repeats(GLFW_KEY_PAGE_UP) ? -1 : 0;
  }
  // Side by side where the panel is wide enough for both, else the report card under the editor.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool beside = avail.x > 44 * ImGui::GetFontSize();
  const ImVec2 editor_size = beside ? ImVec2(avail.x * 0.58f, avail.y) : ImVec2(avail.x, avail.y * 0.6f);
  ImGui::BeginChild("##editor side", editor_size);
  if (kernel_editor(k.editor, ui.fonts.mono) == EditorAction::Run) run_editor_kernel(ui);
  ui.chrome.push_back({"kernel_editor", window_rect()});
  ImGui::EndChild();
  if (beside) ImGui::SameLine();
  ImGui::BeginChild("##report card", ImVec2(0, 0), true);
  const bool stale = k.grade && ui.lesson.own_kernel && k.grade->kernel->text != ui.lesson.own_kernel->text;
  const ReportCardAction a = report_card(k.grade ? &k.grade->report : nullptr, k.checker.busy(), stale, k.card_keys);
  ui.chrome.push_back({"report_card", window_rect()});
  ui.chrome.insert(ui.chrome.end(), a.laid.begin(), a.laid.end());
  ImGui::EndChild();
  if (a.check && ui.lesson.own_kernel) {
    k.asked_grade = ui.lesson.own_kernel;
    k.checker.request(ui.lesson.own_kernel);
  }
  if (a.pick) pick(ui, *a.pick);
  ImGui::End();
}

std::string kernel_report(const Ui& ui) {
  const KernelUi& k = ui.kernel;
  std::ostringstream out;
  out << "kernel editor: " << k.editor.name << (k.editor.edited ? " (edited)" : "") << ", " << std::count(k.editor.text.begin(), k.editor.text.end(), '\n')
      << " lines, cursor line " << k.editor.cursor_line << (k.editor.active ? " (typing)" : "") << "\n";
  out << "error line " << k.editor.error_line << ": " << k.editor.error << "\n";
  out << "marked lines:";
  for (std::uint32_t l : k.editor.marked) out << " " << l;
  out << "\n";
  out << "lesson kernel: " << (ui.lesson.own_kernel ? ui.lesson.own_kernel->name : "none") << ", shown: "
      << (ui.lesson.ran_kernel && ui.lesson.view ? ui.lesson.ran_kernel->name : "none") << ", step " << ui.step << " of "
      << step_count(ui) << "\n";
  if (!k.grade) {
    out << "report card: none\n";
    return out.str();
  }
  const cuda::CheckReport& r = k.grade->report;
  out << "report card: " << r.verdict << " (" << k.grade->check_ms << " ms)\n";
  for (const cuda::CheckError& e : r.errors) out << "error line " << e.line << ": " << e.kind << ": " << e.message << "\n";
  for (const HazardGroup& g : group_hazards(r)) out << "hazard: " << hazard_text(*g.first) << "\n";
  for (const cuda::CheckError& d : r.diagnoses) out << "why line " << d.line << ": " << d.message << "\n";
  out << "matches: " << (r.matches ? *r.matches : "none") << "\n";
  return out.str();
}

}  // namespace sv::gui
