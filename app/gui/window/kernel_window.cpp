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
#include "gui/window/kernel_verdict.hpp"
#include "check_notes.hpp"
#include "kernel_run.hpp"

namespace sv::gui {

namespace {

// The report card's share of a frame where it is graded on the frame's own thread (the page): about
// 10 ms of 16.7 at 60 Hz, at least one part of the check a frame.
constexpr double kGradeMsPerFrame = 10;

// The lesson becomes `k`, recorded on the worker (the step and the view stay), and `k` is graded
// unless it was the last kernel graded, with the same launch.
void show_kernel(Ui& ui, std::shared_ptr<const OwnKernel> k) {
  if (!ui.kernel.asked_grade || ui.kernel.asked_grade->text != k->text || ui.kernel.asked_launch != ui.lesson.request.launch)
    ask_grade(ui, k);
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

void ask_grade(Ui& ui, std::shared_ptr<const OwnKernel> k) {
  ui.kernel.asked_grade = k;
  ui.kernel.asked_launch = ui.lesson.request.launch;
  ui.kernel.checker.request(std::move(k), ui.lesson.request.launch);
}

void open_kernel(Ui& ui, const Platform& platform, const std::string& name, std::string text, const std::string& follow,
                 double now) {
  KernelEditor& e = ui.kernel.editor;
  set_editor_text(e, name, std::move(text));
  if (follow.empty()) ui.kernel.watch = {};
  else watch_file(ui.kernel.watch, platform, follow, now);
  show_kernel(ui, make_own_kernel(e.name, e.text));
}

void paste_text(Ui& ui, const Platform& platform, std::string text, double now) {
  std::string lines;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') lines += text[i];
    else if (i + 1 == text.size() || text[i + 1] != '\n') lines += '\n';
  }
  if (lines.empty()) return;
  KernelEditor& e = ui.kernel.editor;
  if (e.active) {
    e.paste += lines;
    return;
  }
  if (ImGui::GetIO().WantTextInput) {  // the launch box, a value: one line
    ImGui::GetIO().AddInputCharactersUTF8(lines.substr(0, lines.find('\n')).c_str());
    return;
  }
  const auto count = std::count(lines.begin(), lines.end(), '\n') + (lines.back() != '\n');
  ui.kernel.show = true;
  open_kernel(ui, platform, "pasted.cu", std::move(lines), "", now);
  say(ui, "pasted " + std::to_string(count) + " lines into the editor as pasted.cu: running them");
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
  // Without threads (the page) the card is graded here, 10 ms of it a frame, so the frames go on.
  if (!wait) ui.kernel.checker.work(kGradeMsPerFrame);
  std::optional<KernelGrade> g = wait ? ui.kernel.checker.wait() : ui.kernel.checker.take();
  // The status line's verdict is the card's, as it grades ("checking: 3 of 24 cases", WRONG once a
  // case is) and when it is done; only while the status still says what ran.
  const bool ran_said = ui.lesson.ran_kernel && ui.status.rfind("ran " + ui.lesson.ran_kernel->name + ":", 0) == 0;
  if (g) ui.kernel.grade = std::move(g);
  if (g || (ran_said && ui.kernel.checker.busy())) say_kernel_ran(ui);
  // The error of the lesson's kernel, at its line in the editor (open or not).
  if (ui.lesson.own_kernel) {
    ui.kernel.editor.error = window_words(ui.lesson.error);
    ui.kernel.editor.error_line = ui.lesson.error.empty() ? 0 : ui.lesson.error_line;
  }
}

namespace {

// Where the panel goes: the right-hand column under the narration, beside the diagram (a
// student sees the race and the card together); in lecture mode, which has no columns, it floats.
void place_panel(const Ui& ui, const PanelLayout& l, ImGuiWindowFlags& flags) {
  if (ui.lecture) {
    ImGui::SetNextWindowPos(ImVec2(l.W * 0.02f, l.menu_h + (l.H - l.menu_h) * 0.04f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(l.W * 0.62f, (l.H - l.menu_h) * 0.86f), ImGuiCond_FirstUseEver);
    return;
  }
  const float top = l.menu_h + (l.H - l.menu_h) * narration_share(ui);
  ImGui::SetNextWindowPos(ImVec2(l.W - l.right_w, top));
  ImGui::SetNextWindowSize(ImVec2(l.right_w, l.H - top));
  flags |= ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;
}

// The report card the panel shows and what it says beside the Check button: the card of the text and
// launch that run, else the cases a check in progress has run so far, else the last card, stale.
const cuda::CheckReport* shown_card(const Ui& ui, std::optional<GradeProgress>& progress, std::string& state) {
  const KernelUi& k = ui.kernel;
  progress = k.checker.progress();
  if (progress && !grade_is_current(ui)) {
    const KernelVerdict v = kernel_verdict(ui);
    state = progress->planned ? "checking: " + std::to_string(progress->run) + " of " + std::to_string(progress->planned) + " cases" : "checking...";
    if (v.text == "WRONG") progress->partial.verdict = "wrong";  // found already: no later case undoes it
    return &progress->partial;
  }
  if (!k.grade) state = k.checker.busy() ? "checking..." : "not checked yet";
  else if (!grade_is_current(ui) && ui.lesson.own_kernel) state = "(graded before the last change)";
  return k.grade ? &k.grade->report : nullptr;
}

// The editor's list of the card's errors and warnings (the run's own error where no card has graded
// this text yet), each at its line.
void list_problems(KernelUi& k, const cuda::CheckReport* card) {
  k.editor.problems.clear();
  if (!card) return;
  for (const cuda::CheckError& e : card->errors)
    k.editor.problems.push_back({e.line, (e.severity == "warning" ? "warning: " : "") + e.kind + ": " + window_words(e.message)});
}

}  // namespace

void kernel_window(Ui& ui, const PanelLayout& l) {
  KernelUi& k = ui.kernel;
  ImGuiWindowFlags flags = 0;
  place_panel(ui, l, flags);
  if (k.editor.focus) ImGui::SetNextWindowFocus();
  if (!ImGui::Begin("Your kernel (K)", &k.show, flags)) {
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
  std::optional<GradeProgress> progress;
  std::string state;
  const cuda::CheckReport* card = shown_card(ui, progress, state);
  list_problems(k, card);
  // The launch box over the editor and the card; a launch an error suggests taken with one click.
  const std::string suggestion_from = !ui.lesson.error.empty() ? ui.lesson.error : card && !card->errors.empty() ? card->errors.front().message : "";
  if (launch_box(k.launch, ui.lesson.request.launch, suggestion_from)) run_editor_kernel(ui);
  if (k.launch.take_rect[2] > 0) ui.chrome.push_back({"launch_take", {k.launch.take_rect[0], k.launch.take_rect[1], k.launch.take_rect[2], k.launch.take_rect[3]}});
  // Side by side where the panel is wide enough for both, else the report card under the editor.
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const bool beside = avail.x > 40 * ImGui::GetFontSize();
  const ImVec2 editor_size = beside ? ImVec2(avail.x * 0.58f, avail.y) : ImVec2(avail.x, avail.y * 0.55f);
  ImGui::BeginChild("##editor side", editor_size);
  if (kernel_editor(k.editor, ui.fonts.mono) == EditorAction::Run) run_editor_kernel(ui);
  ui.chrome.push_back({"kernel_editor", window_rect()});
  for (std::size_t i = 0; i < k.editor.problem_rects.size(); ++i) ui.chrome.push_back({"editor_problem_" + std::to_string(i), k.editor.problem_rects[i]});
  ImGui::EndChild();
  if (beside) ImGui::SameLine();
  ImGui::BeginChild("##report card", ImVec2(0, 0), true);
  const std::shared_ptr<const OwnKernel>& graded = progress && !grade_is_current(ui) ? ui.lesson.own_kernel : k.grade ? k.grade->kernel : nullptr;
  const bool launch_given = !(progress && !grade_is_current(ui) ? ui.lesson.request.launch : k.grade ? k.grade->launch : "").empty();
  const std::string note = card && graded ? window_words(block_note(*card, graded->text, launch_given)) : "";
  const ReportCardAction a = report_card(card, state, note, k.card_keys);
  ui.chrome.push_back({"report_card", window_rect()});
  ui.chrome.insert(ui.chrome.end(), a.laid.begin(), a.laid.end());
  ImGui::EndChild();
  if (a.check && ui.lesson.own_kernel) ask_grade(ui, ui.lesson.own_kernel);
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
  out << "launch: " << r.launch << "\n";
  out << "note: " << block_note(r, k.grade->kernel->text, !k.grade->launch.empty()) << "\n";
  out << "verdict shown: " << kernel_verdict(ui).text << "; status: " << ui.status << "\n";
  for (const cuda::CheckError& e : r.errors) out << "error line " << e.line << ": " << e.kind << ": " << e.message << "\n";
  for (const HazardGroup& g : group_hazards(r)) out << "hazard: " << hazard_text(*g.first) << "\n";
  for (const cuda::CheckError& d : r.diagnoses) out << "why line " << d.line << ": " << d.message << "\n";
  out << "matches: " << (r.matches ? *r.matches : "none") << "\n";
  return out.str();
}

}  // namespace sv::gui
