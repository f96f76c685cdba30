// The scanviz window: lesson controls, the diagram canvas (gui/canvas.cpp), timeline, kernel
// source and narration, the frame loop and its keys. Offscreen rendering is in gui/render.cpp, the
// settings file in gui/settings.cpp.
//
// [SECTION] the lesson (controls -> a new trace)
// [SECTION] panels
// [SECTION] the window's frame loop
#include "gui/app.hpp"

// clang-format off
#include <glad/gl.h>
#include <GLFW/glfw3.h>
// clang-format on
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "algorithms.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "analysis/application.hpp"
#include "core/segments.hpp"
#include "core/values.hpp"
#include "device/device_options.hpp"
#include "emulator/record.hpp"
#include "gpu/bench.hpp"
#include "gpu/executor.hpp"
#include "gui/diagram_model.hpp"
#include "analysis/work_steps.hpp"
#include "chart.hpp"
#include "gui/canvas.hpp"
#include "gui/plot.hpp"
#include "gui/input_script.hpp"
#include "gui/keys.hpp"
#include "gui/lesson.hpp"
#include "gui/lesson_recorder.hpp"
#include "gui/predict_panel.hpp"
#include "gui/source_pane.hpp"
#include "gui/timing_panel.hpp"
#include "gui/lookback_view.hpp"
#include "gui/application_panel.hpp"
#include "gui/divergence_panel.hpp"
#include "gui/dropped_files.hpp"
#include "gui/gl_diagram.hpp"
#include "gui/glsl_version.hpp"
#include "gui/layout_report.hpp"
#include "gui/settings.hpp"
#include "trace/trace_json.hpp"
#ifdef __EMSCRIPTEN__
#include "web/browser.hpp"
#include "web/download.hpp"
#include "web/url_options.hpp"
#endif

namespace sv::gui {

namespace fs = std::filesystem;

namespace {

// ============================================================================================
// [SECTION] the lesson
// ============================================================================================

constexpr const char* kTypes[] = {"int32", "int64", "float", "double"};

// ============================================================================================
// [SECTION] panels
// ============================================================================================

struct Ui {
  Settings settings;
  float pending_font_scale = 1;  // the View menu's slider, applied when released
  GpuStatus gpu = probe_gpu();
  Lesson lesson;
  LessonRecorder recorder;       // a changed control's recording, made off the frame
  bool swap_to_last_step = false;  // ... replaces a trace file: show its last step
  int step = 0;
  bool playing = false;
  double next_advance = 0;
  bool side_by_side = false;
  bool lecture = false;
  bool fullscreen = false;
  bool need_fonts = true;
  Fonts fonts;
  CanvasState canvas, canvas_racy;
  char path[512] = "trace.json";
  std::string status;     // the menu bar's status line: what the last file action said
  bool status_is_error = false;  // ... and that it failed (drawn in the error colour)
  bool recorded_from_controls = true;
  SourcePane source;
  bool show_charts = false;
  std::vector<chart::Chart> charts;  // work against steps, measured once when first shown
  std::vector<WorkStepsPoint> work_points;
  std::vector<std::pair<std::string, bool>> work_series;  // each measured algorithm, and whether it is plotted
  bool work_log_steps = false;
  bool show_timing = false;
  TimingPanel timing;
  std::string bench_link;  // the page: the URL of the table shown, while no other replaced it
  bool show_lookback = false;
  LookbackUi lookback;
  PredictUi predict;
  bool show_divergence = false;
  bool show_application = true;  // opens by itself for a compaction or an allocation
  std::vector<std::pair<std::string, LaidRect>> chrome;  // this frame's controls and panels, for the layout report
  std::string tooltip;  // the tooltip this frame shows, for the layout report
};

void say(Ui& ui, std::string text, bool error = false) {
  ui.status = std::move(text);
  ui.status_is_error = error;
}

LaidRect item_rect() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  return {a.x, a.y, b.x - a.x, b.y - a.y};
}

// The last control's tooltip when the pointer rests on it; the control is named in the layout
// report (its rectangle), and the text shown, so tests can point at it and read what it says.
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

// A finished recording replaces what the window shows, between frames.
void swap_in_recording(Ui& ui, LessonRecording&& r) {
  const bool recorded = r.error.empty();
  show_recording(ui.lesson, std::move(r));
  if (!recorded) return;
  ui.recorded_from_controls = true;
  set_step(ui, ui.swap_to_last_step ? step_count(ui) - 1 : ui.step);
  ui.swap_to_last_step = false;
}

// Returns true when a control changed (the lesson is then recorded again).
bool controls_panel(Ui& ui) {
  Lesson& l = ui.lesson;
  bool changed = false;
  // Widgets leave their labels whole: ImGui's default (65% of the panel) cut "block (0 = fit n)".
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("block (0 = fit n)").x + ImGui::GetStyle().ItemInnerSpacing.x));
  if (!ui.recorded_from_controls && l.view) {
    const TraceMeta& m = l.view->trace.meta;
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(ImVec4(0.1f, 0.45f, 0.85f, 1), "Showing a trace file: %s, n = %lld, %s, recorded on %s%s%s.",
                       m.algorithm.c_str(), static_cast<long long>(m.n), std::string(op_name(m.op)).c_str(),
                       m.executor.kind == "gpu" ? "the GPU " : "the emulator", m.executor.device.c_str(),
                       m.executor.kind == "gpu" ? "" : (" (" + m.executor.schedule + ")").c_str());
    ImGui::TextDisabled("Change a control below to record a new lesson.");
    ImGui::PopTextWrapPos();
    ImGui::Separator();
  }
  const auto algos = block_algorithms();
  ImGui::TextDisabled("Algorithm");
  // A device-wide trace file names its own algorithm until a block algorithm is picked.
  const bool foreign = !ui.recorded_from_controls && l.view && !find_algorithm(l.view->trace.meta.algorithm);
  const std::string shown(foreign ? l.view->trace.meta.algorithm : std::string(algos[l.algorithm].name));
  ImGui::SetNextItemWidth(-FLT_MIN);  // no label: the whole name ("kogge-stone-double-buffer")
  if (ImGui::BeginCombo("##algo", shown.c_str())) {
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (ImGui::Selectable(std::string(algos[i].name).c_str(), i == l.algorithm)) l.algorithm = i, changed = true;
    ImGui::EndCombo();
  }
  tip(ui, "algorithm", "the block-level scan to record and draw (the summary below says what it does)");
  // The lesson's switches for the Kogge-Stone family: double buffering, and barriers per step.
  const std::string name(algos[l.algorithm].name);
  if (name.rfind("kogge-stone", 0) == 0) {
    bool double_buffer = name == "kogge-stone-double-buffer";
    int barriers = name == "kogge-stone-racy" ? 1 : 2;
    if (ImGui::Checkbox("double buffering", &double_buffer)) changed = true;
    tip(ui, "double_buffering", "read one buffer and write the other each step (PMPP's double-buffered Kogge-Stone): no race");
    if (!double_buffer) {
      ImGui::SameLine();
      changed |= ImGui::RadioButton("1 barrier", &barriers, 1);
      tip(ui, "one_barrier", "one __syncthreads() a step: a thread may overwrite a cell before its neighbour reads it (the race)");
      ImGui::SameLine();
      changed |= ImGui::RadioButton("2", &barriers, 2);
      tip(ui, "two_barriers", "a barrier between the reads and the writes of a step: everyone reads before anyone writes");
    }
    const char* chosen = double_buffer ? "kogge-stone-double-buffer" : barriers == 1 ? "kogge-stone-racy" : "kogge-stone";
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (algos[i].name == chosen) l.algorithm = i;
  }
  ImGui::TextWrapped("%s", std::string(algos[l.algorithm].summary).c_str());
  ImGui::Separator();
  const int max_n = kMaxBlockThreads * algos[l.algorithm].items_per_thread;
  if (l.input_mode != 2)
  {
    changed |= ImGui::SliderInt("n", &l.n, 1, max_n, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
    tip(ui, "n", "elements to scan (Ctrl+click to type a value)");
  }
  changed |= ImGui::InputInt("block (0 = fit n)", &l.block, 32, 128);
  tip(ui, "block", "threads in the block; 0 takes as many as n needs");
  l.block = std::clamp(l.block, 0, kMaxBlockThreads);
  if (algos[l.algorithm].warp_level) {
    // Lanes of a warp: shuffles reach within one; Fig. 2 draws warps of 4.
    const char* widths[] = {"2", "4", "8", "16", "32"};
    int width_index = std::countr_zero(static_cast<unsigned>(l.warp)) - 1;
    if (ImGui::Combo("warp width", &width_index, widths, 5)) l.warp = 2 << width_index, changed = true;
    tip(ui, "warp_width", "lanes of a warp: shuffles reach within one (the paper's Fig. 2 draws warps of 4)");
  } else if (!l.gpu) {
    // Threads the emulator runs in lockstep: on their own (the slides' picture) up to a GPU's warp.
    const char* lanes[] = {"auto", "1: each on its own", "2", "4", "8", "16", "32: a GPU's warp"};
    int lanes_index = l.lanes ? 1 + std::countr_zero(static_cast<unsigned>(l.lanes)) : 0;
    if (ImGui::Combo("lockstep", &lanes_index, lanes, 7)) l.lanes = lanes_index ? 1 << (lanes_index - 1) : 0, changed = true;
    tip(ui, "lockstep",
        "how many threads the emulator advances together, one instruction at a time:\n"
        "on their own, a thread may overwrite a cell before its neighbour reads it (the slides' race);\n"
        "in a warp of 32, all 32 read before any of them writes.\n"
        "auto: on their own for the racy kernel, 32 for the others");
  }
  const char* ops[] = {"sum", "product", "min", "max", "interval", "and", "or", "bitand", "bitor", "bitxor"};
  changed |= ImGui::Combo("operator", &l.op, ops, kOpKindCount);
  tip(ui, "operator", "the associative operator the scan applies; interval shows which inputs each cell combines (x0..x3)");
  const int types = static_cast<OpKind>(l.op) >= OpKind::And ? 2 : 4;  // and, or, bit*: int32 and int64 only
  l.type = std::min(l.type, types - 1);
  if (l.op != 4) {
    changed |= ImGui::Combo("type", &l.type, kTypes, types);
    tip(ui, "type", "the values' type");
  }
  changed |= ImGui::Checkbox("exclusive", &l.exclusive);
  tip(ui, "exclusive", "each output leaves its own element out: y[i] = x0 + ... + x(i-1), the identity first");
  const char* kinds[] = {"a plain scan", "segmented scan (random heads)", "stream compaction", "allocation"};
  changed |= ImGui::Combo("scan", &l.scan_kind, kinds, 4);
  tip(ui, "scan", "a plain scan, a segmented one (restarts at each head), or an application built on the exclusive sum");
  if (l.scan_kind == 1)
    changed |= ImGui::SliderFloat("heads", &l.segment_density, 0.0f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
  if (l.scan_kind == 2) changed |= ImGui::InputText("predicate", l.predicate, sizeof l.predicate);
  if (l.scan_kind >= 2) ImGui::TextDisabled("the exclusive sum (operator sum, an integer type)");
  const char* inputs[] = {"slides (3 6 7 4 8 2 1 9)", "seeded random", "typed"};
  changed |= ImGui::Combo("input", &l.input_mode, inputs, 3);
  tip(ui, "input", "the slides' eight values, seeded random values, or values you type");
  if (l.input_mode == 1) changed |= ImGui::InputInt("input seed", &l.input_seed);
  if (l.input_mode == 2) changed |= ImGui::InputText("values", l.typed, sizeof l.typed);
  ImGui::Separator();
  // Executor: the emulator (schedules), or the GPU when one is usable (the race amplifier).
  const std::string gpu_label = ui.gpu.usable ? "GPU: " + ui.gpu.name : "GPU (none usable)";
  if (ImGui::BeginCombo("executor", l.gpu ? gpu_label.c_str() : "CPU emulator")) {
    if (ImGui::Selectable("CPU emulator", !l.gpu)) l.gpu = false, changed = true;
    if (ImGui::Selectable(gpu_label.c_str(), l.gpu, ui.gpu.usable ? 0 : ImGuiSelectableFlags_Disabled)) l.gpu = true, changed = true;
    ImGui::EndCombo();
  }
  tip(ui, "executor", ui.gpu.usable ? "where the kernel runs: the CPU emulator (any schedule) or the GPU (real timing)"
                                    : ui.gpu.error.c_str());
  if (l.gpu) {
    changed |= ImGui::InputInt("race amplifier seed (0 = off)", &l.amplify_seed);
    tip(ui, "amplifier", "on the GPU, threads wait a seeded random while before each step so that races show more often");
    l.amplify_seed = std::max(0, l.amplify_seed);
  } else {
    const auto names = schedule_kind_names();
    if (ImGui::BeginCombo("schedule", std::string(names[l.schedule]).c_str())) {
      for (int i = 0; i < static_cast<int>(names.size()); ++i)
        if (ImGui::Selectable(std::string(names[i]).c_str(), i == l.schedule)) l.schedule = i, changed = true;
      ImGui::EndCombo();
    }
    tip(ui, "schedule", "the order the emulator runs the threads between barriers: a race's result depends on it");
    if (l.schedule == 3) changed |= ImGui::InputInt("schedule seed", &l.schedule_seed);
    l.schedule_seed = std::max(0, l.schedule_seed);
  }
  const bool racy_lesson = algos[l.algorithm].name == "kogge-stone-racy";
  // The whole label where the panel holds it, else its first words (a narrow window cut it).
  std::string side_label = racy_lesson ? "side by side with the double-buffered kernel" : "side by side with the single-buffer kernel";
  const float side_room = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x;
  if (ImGui::CalcTextSize(side_label.c_str()).x > side_room) side_label = "side by side";
  changed |= ImGui::Checkbox((side_label + "###side_by_side").c_str(), &ui.side_by_side);
  tip(ui, "side_by_side", "the racy kernel beside the double-buffered one on the same input: the cells that differ are marked");
  ImGui::Separator();
  if (!l.error.empty()) ImGui::TextColored(ImVec4(0.88f, 0.19f, 0.19f, 1), "%s", l.error.c_str());
  if (l.view) {
    const Trace& t = l.view->trace;
    const bool correct = l.view->outcome == Outcome::Correct;
    if (ui.recorder.pending()) ImGui::TextDisabled("recording the changed lesson...");
    else if (ui.recorded_from_controls) ImGui::TextWrapped("recorded in %.1f ms: %zu events", l.record_ms, t.events.size());
    else ImGui::Text("%zu events", t.events.size());
    // Depth counts the steps that apply the operator; the timeline's steps also load and store.
    ImGui::TextWrapped("depth %lld operator steps (the timeline's %zu also load and store), work %lld operations",
                       static_cast<long long>(l.view->metrics.steps), t.steps.size(),
                       static_cast<long long>(l.view->metrics.operations));
    ImGui::Text("hazards %zu, result ", l.view->hazards.size());
    ImGui::SameLine(0, 0);
    ImGui::TextColored(correct ? ImVec4(0.17f, 0.54f, 0.24f, 1) : ImVec4(0.88f, 0.19f, 0.19f, 1), "%s",
                       correct ? "correct" : "WRONG");
  }
  ImGui::PopItemWidth();
  return changed;
}

void timeline_panel(Ui& ui) {
  const int steps = step_count(ui);
  if (ImGui::Button("|<")) set_step(ui, 0);
  tip(ui, "first_step", "the first step (Home)");
  ImGui::SameLine();
  if (ImGui::Button("<")) set_step(ui, ui.step - 1);
  tip(ui, "previous_step", "the step before (Left)");
  ImGui::SameLine();
  if (ImGui::Button(ui.playing ? "pause" : "play")) ui.playing = !ui.playing;
  tip(ui, "play", "play or pause the steps (Space)");
  ImGui::SameLine();
  if (ImGui::Button(">")) set_step(ui, ui.step + 1);
  tip(ui, "next_step", "the next step (Right)");
  ImGui::SameLine();
  if (ImGui::Button(">|")) set_step(ui, steps - 1);
  tip(ui, "last_step", "the last step (End)");
  ImGui::SameLine();
  // The unit inside the slider and the slider narrower in a narrow window, so the step slider keeps room.
  const float speed_w = std::min(ImGui::GetFontSize() * 8, 0.3f * ImGui::GetContentRegionAvail().x);
  const bool unit_fits = ImGui::CalcTextSize("8.00 steps/s").x + 2 * ImGui::GetStyle().FramePadding.x <= speed_w;
  ImGui::SetNextItemWidth(speed_w);
  ImGui::SliderFloat("##speed", &ui.settings.speed, 0.25f, 8.0f, unit_fits ? "%.2f steps/s" : "%.2f", ImGuiSliderFlags_AlwaysClamp);
  tip(ui, "speed", "steps a second when playing");
  ImGui::SameLine();
  int step = ui.step;
  ImGui::SetNextItemWidth(-1);
  // "step 2: stride = 1" where it fits the slider, else "step 2" ("step 2: stri" was cut).
  std::string shown = steps ? "step %d: " + ui.lesson.view->trace.steps[std::clamp(step, 0, steps - 1)].label() : "no trace";
  const float room = ImGui::GetContentRegionAvail().x - 2 * ImGui::GetStyle().FramePadding.x;
  if (steps && ImGui::CalcTextSize(shown.c_str()).x > room) shown = "step %d";
  if (ImGui::SliderInt("##step", &step, 0, std::max(0, steps - 1), shown.c_str())) set_step(ui, step);
  tip(ui, "step_slider", "drag to a step; the diagram shows every row up to it");
}

void narration_panel(Ui& ui) {
  if (!ui.lesson.view) return;
  ImGui::PushTextWrapPos(0);
  ImGui::TextUnformatted(narrate_step(*ui.lesson.view, ui.step).c_str());
  ImGui::PopTextWrapPos();
  ui.chrome.push_back({"narration_text", item_rect()});
  ui.chrome.push_back({"narration", window_rect()});
}

}  // namespace

std::string export_path(const Trace& trace, int step, const std::string& ext, const std::string& beside) {
  const fs::path folder = fs::path(beside).parent_path();
  std::string stem = trace.meta.algorithm + "-n" + std::to_string(trace.meta.n);
  if (ext != ".gif") stem += "-step" + std::to_string(step);
  fs::path out = folder / (stem + ext);
  for (int k = 2; fs::exists(out); ++k) out = folder / (stem + "-" + std::to_string(k) + ext);
  return out.string();
}

namespace {

#ifdef __EMSCRIPTEN__
// The page's link to this moment (app/web/url_options.hpp): the lesson, its step and the open views.
// A trace file's page keeps the link that opened it (its trace= is a URL the window no longer has).
std::optional<std::string> link_query(const Ui& ui) {
  // Controls not yet recorded, or refused (the error in the panel), name no lesson a link can be
  // sure to open: the address keeps the lesson on screen until their recording is shown.
  if (!ui.recorded_from_controls || ui.recorder.pending() || !ui.lesson.error.empty()) return std::nullopt;
  const Lesson& l = ui.lesson;
  GuiOptions o;
  o.algorithm = block_algorithms()[static_cast<std::size_t>(l.algorithm)].name;
  o.n = l.n;
  o.op = op_name(static_cast<OpKind>(l.op));
  o.schedule = schedule_text(l);
  if (l.op != static_cast<int>(OpKind::Interval) && l.scan_kind < 2) o.type = type_name(static_cast<ValueType>(l.type));
  o.exclusive = l.exclusive && l.scan_kind != 1;
  if (const std::string input = input_text(l); input != "slides") o.input = input;
  if (l.scan_kind != 0) o.scan = scan_text(l);
  o.warp = block_algorithms()[static_cast<std::size_t>(l.algorithm)].warp_level ? l.warp : l.lanes;
  o.step = ui.step;
  o.side_by_side = ui.side_by_side;
  o.lecture = ui.lecture;
  o.charts = ui.show_charts;
  o.divergence = ui.show_divergence;
  o.timing = ui.show_timing && ui.bench_link.empty();
  if (ui.show_timing) o.bench_json = ui.bench_link;  // the table the link brought, while it shows
  if (ui.show_lookback) o.lookback = ui.lookback.preset.empty() ? "default" : ui.lookback.preset;
  return web::link_query(o);
}
#endif

// Opens a trace (into the lesson's place) or a `scanviz bench --json` table (into the timing window),
// told apart by the table's "format"; `name` is what the status line calls it. Throws what the
// readers throw, naming the problem.
void open_file(Ui& ui, const std::string& path, const std::string& name) {
  std::string text;
  try {
    text = read_whole_file(path, kMaxTraceFileBytes, "a trace or bench table");
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  if (is_bench_json(text)) {
    try {
      ui.timing.table = bench_from_json(text);  // a table from another machine replaces the shown one
      ui.bench_link.clear();
    } catch (const std::exception& e) {
      throw std::runtime_error(name + ": " + e.what());
    }
    ui.show_timing = true;
    say(ui, "opened " + name + ": " + std::to_string(ui.timing.table.rows.size()) + " rows measured on " + ui.timing.table.device);
    return;
  }
  ui.recorder.cancel();  // the file, opened last, wins over a recording still on its way
  try {
    ui.lesson.view = std::make_unique<TraceView>(make_trace_view(trace_from_json(text)));
  } catch (const std::exception& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
  ui.lesson.racy.reset();
  lesson_from_trace(ui.lesson, ui.lesson.view->trace.meta);
  ui.show_lookback |= show_in_lookback(ui.lookback, ui.lesson.view->trace, name);
  ui.recorded_from_controls = false;
  set_step(ui, 0);
  say(ui, "opened " + name);
}

// Opens the files dropped on the window since the last frame, in order; a bad one is the status line.
void open_dropped_files(Ui& ui) {
  for (const std::string& path : take_dropped_files()) {
    const std::string name = fs::path(path).filename().string();
    try {
      open_file(ui, path, name);
    } catch (const std::exception& e) {
      say(ui, e.what(), true);
    }
#ifdef __EMSCRIPTEN__
    std::error_code ignored;
    fs::remove(path, ignored);  // the page's in-memory copy of the user's file: read, so freed
#endif
  }
}

void file_menu(Ui& ui) {
  if (!ImGui::BeginMenu("File")) return;
#ifdef __EMSCRIPTEN__
  if (ImGui::MenuItem("Copy link")) {
    web::copy_page_link(link_query(ui).value_or(web::page_query()));
    say(ui, "link to this step: on the clipboard, or in the box at the top");
  }
#endif
  try {
#ifdef __EMSCRIPTEN__
    // The page has no files of its own: the reader's come by dropping them, and what it saves is
    // downloaded, named after the lesson.
    ImGui::TextDisabled("Open: drop a trace or bench table on the page");
    if (ImGui::MenuItem("Save trace", nullptr, false, ui.lesson.view != nullptr)) {
      const TraceMeta& m = ui.lesson.view->trace.meta;
      const std::string name = m.algorithm + "-n" + std::to_string(m.n) + ".json";
      save_trace(name, ui.lesson.view->trace);
      web::download_file(name);
      say(ui, "downloaded " + name);
    }
#else
    ImGui::InputText("path", ui.path, sizeof ui.path);
    if (ImGui::MenuItem("Open trace or bench table")) open_file(ui, ui.path, ui.path);
    if (ImGui::MenuItem("Save trace", nullptr, false, ui.lesson.view != nullptr)) {
      save_trace(ui.path, ui.lesson.view->trace);
      say(ui, std::string("saved ") + ui.path);
    }
#endif
    for (const char* ext : {".png", ".svg", ".gif"}) {
      const std::string label = std::string("Export ") + (ext == std::string(".gif") ? "all steps as GIF" : std::string("step as ") + (ext + 1));
      if (ImGui::MenuItem(label.c_str(), nullptr, false, ui.lesson.view != nullptr)) {
        const std::string out = export_path(ui.lesson.view->trace, ui.step, ext, ui.path);
        RenderOptions ro;
        ro.step = ui.step;
        ro.theme = ui.settings.theme;
        render_to_file(ui.lesson.view->trace, out, ro);
#ifdef __EMSCRIPTEN__
        web::download_file(out);  // the page writes to memory: the browser saves the file
        say(ui, "downloaded " + fs::path(out).filename().string());
#else
        say(ui, "wrote " + fs::absolute(out).string());
#endif
      }
    }
  } catch (const std::exception& e) {
    say(ui, e.what(), true);
  }
  ImGui::EndMenu();
}

// ============================================================================================
// [SECTION] the window's frame loop
// ============================================================================================

// The first frames build the font atlas, compile shaders and record the lesson: not counted.
constexpr std::size_t kWarmupFrames = 5;

struct FrameStats {
  double median = 0, p99 = 0, max = 0;
};

FrameStats frame_stats(const std::vector<double>& ms) {
  std::vector<double> sorted(ms.begin() + static_cast<std::ptrdiff_t>(std::min(ms.size() - 1, kWarmupFrames)), ms.end());
  std::sort(sorted.begin(), sorted.end());
  return {sorted[sorted.size() / 2], sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)], sorted.back()};
}

int count_gl_objects() {
  int count = 0;
  for (unsigned id = 1; id < 2048; ++id)
    count += glIsBuffer(id) + glIsTexture(id) + glIsVertexArray(id) + glIsProgram(id) + glIsFramebuffer(id);
  return count;
}



}  // namespace

bool display_available() {
#ifdef __EMSCRIPTEN__
  return true;  // the page's canvas
#endif
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 && *x11) || (wayland && *wayland);
}

int run_gui(const GuiOptions& opt) {
  if (!display_available()) {
    std::cerr << "scanviz: no display (DISPLAY is not set): render to files instead, e.g. scanviz render t.json --out "
                 "t.png (under xvfb-run) or --out t.svg\n";
    return 2;
  }
  BenchResult bench;  // read before any window opens, so a bad file is one line and exit 2
  if (!opt.bench_json.empty()) {
    try {
      bench = bench_from_json(read_whole_file(opt.bench_json, kMaxBenchFileBytes, "a bench table"));
    } catch (const std::exception& e) {
      std::cerr << "scanviz: --bench " << opt.bench_json << ": " << e.what() << "\n";
      return 2;
    }
  }
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::cerr << "scanviz: cannot open a window (GLFW could not initialize the display)\n";
    return 2;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  GLFWwindow* window = glfwCreateWindow(opt.width, opt.height, "scanviz", nullptr, nullptr);
  if (!window) {
    glfwTerminate();
    std::cerr << "scanviz: cannot create an OpenGL 3.3 core window\n";
    return 2;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(opt.frames > 0 ? 0 : 1);
  if (!gladLoadGL(glfwGetProcAddress)) {
    std::cerr << "scanviz: cannot load OpenGL functions\n";
    return 2;
  }
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // we lay the panels out ourselves
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  glfwSetDropCallback(window, on_drop);  // the backend installs no drop callback of its own
  ImGui_ImplOpenGL3_Init(kGlslVersion);

  Ui ui;
  std::string settings_problem;
  ui.settings = load_settings(settings_problem);
  if (!settings_problem.empty()) say(ui, settings_problem, true);
  if (!opt.theme.empty()) ui.settings.theme = opt.theme;
  if (opt.font_scale > 0) ui.settings.font_scale = std::clamp(opt.font_scale, 1.0f, 3.0f);
  ui.pending_font_scale = ui.settings.font_scale;
  ui.side_by_side = opt.side_by_side;
  ui.lecture = opt.lecture;
  ui.show_charts = opt.charts;
  ui.show_divergence = opt.divergence;
  ui.show_timing = opt.timing || !opt.bench_json.empty();
  ui.bench_link = opt.bench_link;
  if (!opt.bench_json.empty()) {
    std::snprintf(ui.timing.path, sizeof ui.timing.path, "%s", opt.bench_json.c_str());
    merge_rows(ui.timing.table, bench);
  }
  ui.fullscreen = opt.lecture && opt.frames == 0;  // a timed (test) run keeps its window size
  if (!opt.lookback.empty()) {
    if (!lookback_preset(opt.lookback, ui.lookback.lesson)) {
      std::string names;
      for (const std::string& n : lookback_preset_names()) names += (names.empty() ? "" : ", ") + n;
      std::cerr << "scanviz: --lookback: unknown preset '" << opt.lookback << "' (" << names << ")\n";
      return 2;
    }
    ui.lookback.preset = opt.lookback;
    ui.show_lookback = true;
  }

  if (opt.n > 0) ui.lesson.n = opt.n;
  if (opt.warp > 0) {
    if (opt.warp >= 2) ui.lesson.warp = opt.warp;
    ui.lesson.lanes = opt.warp;
  }
  if (!opt.algorithm.empty()) {
    const AlgorithmInfo* info = find_algorithm(opt.algorithm);
    if (!info && find_device_algorithm(opt.algorithm)) {
      std::cerr << "scanviz: --algo: " << opt.algorithm
                << " is a device-wide scan: the look-back view shows it (--lookback default; in a link, lookback=default)\n";
      return 2;
    }
    if (!info) {
      std::cerr << "scanviz: --algo: unknown algorithm '" << opt.algorithm << "' (scanviz algos lists them)\n";
      return 2;
    }
    ui.lesson.algorithm = static_cast<int>(info - block_algorithms().data());
  }
  if (!opt.op.empty()) {
    const auto op = parse_op_name(opt.op);
    if (!op) {
      std::cerr << "scanviz: --op: unknown operator '" << opt.op << "' (" << op_names_text() << ")\n";
      return 2;
    }
    ui.lesson.op = static_cast<int>(*op);
  }
  if (!opt.type.empty()) {
    const auto type = parse_type_name(opt.type);
    if (!type || *type == ValueType::Interval) {
      std::cerr << "scanviz: --type: unknown type '" << opt.type << "' (int32, int64, float, double)\n";
      return 2;
    }
    ui.lesson.type = static_cast<int>(*type);
  }
  ui.lesson.exclusive |= opt.exclusive;
  if (!opt.input.empty() && !set_input(ui.lesson, opt.input)) {
    std::cerr << "scanviz: --input: '" << opt.input << "' is not slides, random:SEED (1 or more) or values such as 3,6,7,4\n";
    return 2;
  }
  if (!opt.scan.empty() && !set_scan(ui.lesson, opt.scan)) {
    std::cerr << "scanviz: --scan: '" << opt.scan
              << "' is not plain, segmented[:DENSITY] (0 to 1), compact[:PREDICATE] (e.g. compact:x%2==0) or allocate\n";
    return 2;
  }
  if (!opt.schedule.empty() && !set_schedule(ui.lesson, opt.schedule)) {
    std::cerr << "scanviz: --schedule: unknown schedule '" << opt.schedule << "' (in-order, reverse, round-robin, random[:SEED])\n";
    return 2;
  }
  if ((opt.gpu || !opt.measure_log2_n.empty()) && !ui.gpu.usable) {
    std::cerr << "scanviz: " << (opt.gpu ? "--executor gpu" : "--measure") << ": no usable CUDA device (" << ui.gpu.error
              << ")\n";
    return 2;
  }
  ui.lesson.gpu = opt.gpu;
  ui.lesson.amplify_seed = opt.amplify_seed;
  ui.timing.queued_log2_n = opt.measure_log2_n;
  ui.show_timing |= !opt.measure_log2_n.empty();
  if (!opt.trace_path.empty()) {
    try {
      ui.lesson.view = std::make_unique<TraceView>(make_trace_view(load_trace(opt.trace_path)));
      lesson_from_trace(ui.lesson, ui.lesson.view->trace.meta);
      ui.recorded_from_controls = false;
      ui.show_lookback |= show_in_lookback(ui.lookback, ui.lesson.view->trace, opt.trace_path);
    } catch (const std::exception& e) {
      std::cerr << "scanviz: " << e.what() << "\n";
      return 2;
    }
  } else {
    if (ui.lesson.n > 8 && opt.input.empty()) ui.lesson.input_mode = 1;  // the slides' input has 8 values
    // Recorded on the worker and waited for, so the worker's fiber stacks are mapped before the
    // controls ask for another lesson.
    ui.recorder.request(ui.lesson, ui.side_by_side);
    if (std::optional<LessonRecording> r = ui.recorder.wait()) show_recording(ui.lesson, std::move(*r));
    // A lesson the options ask for and that cannot run (n over the algorithm's limit, say) is a usage
    // error at the command line; in the window the same message waits in the controls.
    if (!ui.lesson.error.empty()) {
      std::cerr << "scanviz: " << ui.lesson.error << "\n";
      return 2;
    }
  }
  set_step(ui, opt.step < 0 ? 0 : opt.step);  // a lesson starts where the lecture does: the first step
  ui.playing = opt.play;
  ui.predict.focus = ui.predict.on = opt.predict;
  ui.source.report = opt.report_source;
  ui.predict.log = !opt.keys.empty();
  std::vector<ScriptedInput> script;
  try {
    script = parse_input_script(opt.keys);
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
  float mouse_x = opt.mouse_x, mouse_y = opt.mouse_y;

  int exit_code = 0;
  {
    GlDiagram gl;
    GlPictures pictures;
    std::vector<std::unique_ptr<CanvasDraw>> frame_draws;
    std::vector<double> cpu_ms, frame_ms;  // per frame: building it (to ImGui::Render), and all of it
    int gl_objects_early = -1, gl_objects_late = -1, hidden_clipped = 0;
    float applied_scale = 0, applied_chrome = 0;
    std::string applied_theme;
    int windowed[4] = {100, 100, opt.width, opt.height};
#ifdef __EMSCRIPTEN__
    web::FullscreenSync page_fullscreen;
#endif
    bool lookback_was_shown = false;
    for (int frame = 0; !glfwWindowShouldClose(window) && (opt.frames <= 0 || frame < opt.frames); ++frame) {
      const bool last = opt.frames > 0 && frame + 1 == opt.frames;
      // A headless run's last frame waits for a recording still on its way (a wait its time leaves
      // out), so the picture it saves does not depend on timing. A finished recording is swapped in
      // before the frame is built.
      std::optional<LessonRecording> recording = last ? ui.recorder.wait() : std::nullopt;
      const auto frame_start = std::chrono::steady_clock::now();
      if (!recording) recording = ui.recorder.take();
      if (recording) swap_in_recording(ui, std::move(*recording));
#ifdef __EMSCRIPTEN__
      web::follow_page_size(window);
#endif
      glfwPollEvents();
      feed_input_script(script, frame, window, mouse_x, mouse_y);
      open_dropped_files(ui);
      // Lecture mode shows at least twice the normal size without changing the saved setting.
      const float font_scale = ui.lecture ? std::max(2.0f, ui.settings.font_scale) : ui.settings.font_scale;
      // The scale enlarges the diagram; the chrome (menus, panels, timeline) grows with it only as
      // far as the window holds it: twice the size from 1080 lines (and 1920 columns), 1.33 at 720.
      int win_w = 0, win_h = 0;
      glfwGetWindowSize(window, &win_w, &win_h);
      const float chrome_scale = std::min(font_scale, std::max(1.0f, std::min(static_cast<float>(win_h) / 540, static_cast<float>(win_w) / 960)));
      if (applied_scale != font_scale || applied_chrome != chrome_scale) {
        ui.fonts = load_fonts(chrome_scale, font_scale);
        upload_fonts();
      }
      if (applied_scale != font_scale || applied_chrome != chrome_scale || applied_theme != ui.settings.theme) {
        apply_theme(ui.settings.theme, chrome_scale);
        applied_scale = font_scale;
        applied_chrome = chrome_scale;
        applied_theme = ui.settings.theme;
      }
      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      if (mouse_x >= 0) ImGui::GetIO().MousePos = ImVec2(mouse_x, mouse_y);  // after the backend's own
      // A counted run (a screenshot under Xvfb) ignores where the pointer happens to rest (the
      // screen's centre): no tooltip the picture did not ask for.
      else if (opt.frames > 0) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
      ImGui::NewFrame();
      frame_draws.clear();
      ui.chrome.clear();
      ui.tooltip.clear();
      ui.canvas.record = ui.canvas_racy.record = !opt.report_layout.empty();
      const ImGuiIO& io = ImGui::GetIO();

      // Keyboard: Space, arrows, Home/End, +/- (zoom), F (fullscreen), L (lecture mode).
      if (!io.WantTextInput) {
        // With the look-back view in front, the timeline keys move its time (tile event by tile event).
        const bool lookback_keys = ui.show_lookback && ui.lookback.focused;
        if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space))) {
          if (lookback_keys) lookback_key(ui.lookback, LookbackKey::PlayPause);
          else ui.playing = !ui.playing;
        }
        const std::pair<ImGuiKey, LookbackKey> keys[] = {{ImGuiKey_RightArrow, LookbackKey::Next}, {ImGuiKey_LeftArrow, LookbackKey::Previous},
                                                         {ImGuiKey_Home, LookbackKey::Start}, {ImGuiKey_End, LookbackKey::End}};
        for (const auto& [key, action] : keys) {
          if (!ImGui::IsKeyPressed(ImGui::GetKeyIndex(key))) continue;
          if (lookback_keys) lookback_key(ui.lookback, action);
          else if (action == LookbackKey::Next) set_step(ui, ui.step + 1);
          else if (action == LookbackKey::Previous) set_step(ui, ui.step - 1);
          else if (action == LookbackKey::Start) set_step(ui, 0);
          else set_step(ui, step_count(ui) - 1);
        }
        for (CanvasState* cs : {&ui.canvas, &ui.canvas_racy}) {
          float zoom = 1;
          if (key_pressed(GLFW_KEY_EQUAL) || key_pressed(GLFW_KEY_KP_ADD)) zoom = 1.25f;
          if (key_pressed(GLFW_KEY_MINUS) || key_pressed(GLFW_KEY_KP_SUBTRACT)) zoom = 1 / 1.25f;
          if (zoom != 1) {
            cs->view.scale_x *= zoom;
            cs->view.scale_y *= zoom;
            cs->fit = false;
          }
          if (key_pressed(GLFW_KEY_0)) cs->fit = true;
        }
        if (key_pressed(GLFW_KEY_F) || key_pressed(GLFW_KEY_F11)) ui.fullscreen = !ui.fullscreen;
        if (key_pressed(GLFW_KEY_W)) ui.show_charts = !ui.show_charts;
        if (key_pressed(GLFW_KEY_T)) ui.show_timing = !ui.show_timing;
        if (key_pressed(GLFW_KEY_B)) ui.show_lookback = !ui.show_lookback;
        if (key_pressed(GLFW_KEY_P)) ui.predict.focus = ui.predict.on = !ui.predict.on;
        if (key_pressed(GLFW_KEY_D)) ui.show_divergence = !ui.show_divergence;
        if (key_pressed(GLFW_KEY_A)) ui.show_application = !ui.show_application;
        if (key_pressed(GLFW_KEY_L)) {
          ui.lecture = !ui.lecture;
          ui.fullscreen = ui.lecture;
        }
      }
#ifdef __EMSCRIPTEN__
      // The page's fullscreen is the browser's (Emscripten's GLFW has no monitors); the window then
      // follows the page's size.
      page_fullscreen.follow(ui.fullscreen);
#else
      GLFWmonitor* monitor = glfwGetWindowMonitor(window);
      if (ui.fullscreen && !monitor) {
        glfwGetWindowPos(window, &windowed[0], &windowed[1]);
        glfwGetWindowSize(window, &windowed[2], &windowed[3]);
        if (GLFWmonitor* primary = glfwGetPrimaryMonitor()) {
          const GLFWvidmode* mode = glfwGetVideoMode(primary);
          glfwSetWindowMonitor(window, primary, 0, 0, mode->width, mode->height, mode->refreshRate);
        }
      } else if (!ui.fullscreen && monitor) {
        glfwSetWindowMonitor(window, nullptr, windowed[0], windowed[1], windowed[2], windowed[3], 0);
      }
#endif
      if (ui.playing && step_count(ui) > 0) {
        const double now = glfwGetTime();
        if (ui.next_advance == 0) ui.next_advance = now + 1.0 / ui.settings.speed;
        if (now >= ui.next_advance) {
          set_step(ui, ui.step + 1 >= step_count(ui) ? 0 : ui.step + 1);
          ui.next_advance = now + 1.0 / ui.settings.speed;
        }
      } else {
        ui.next_advance = 0;
      }

      // Layout: menu bar; controls on the left; source and narration on the right; the diagram in
      // the middle above the timeline. Lecture mode keeps the diagram, narration and timeline.
      float menu_h = 0;
      if (ImGui::BeginMainMenuBar()) {
        file_menu(ui);
        if (ImGui::BeginMenu("View")) {
          for (const char* t : kThemes)
            if (ImGui::MenuItem(t, nullptr, ui.settings.theme == t)) ui.settings.theme = t;
          // Applied when released: each change rasterizes the fonts again.
          ImGui::SliderFloat("font scale", &ui.pending_font_scale, 1.0f, 3.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp);
          if (ImGui::IsItemDeactivatedAfterEdit()) ui.settings.font_scale = ui.pending_font_scale;
          ImGui::MenuItem("lecture mode (L)", nullptr, &ui.lecture);
          ImGui::MenuItem("kernel source as the emulator runs it (C)", nullptr, &ui.source.emulator);
          ImGui::MenuItem("fullscreen (F)", nullptr, &ui.fullscreen);
          if (ImGui::MenuItem("fit the diagram (0)")) ui.canvas.fit = ui.canvas_racy.fit = true;
          ImGui::MenuItem("work against steps (W)", nullptr, &ui.show_charts);
          ImGui::MenuItem("GPU timing (T)", nullptr, &ui.show_timing);
          ImGui::MenuItem("look-back view (B)", nullptr, &ui.show_lookback);
          if (ImGui::MenuItem("predict the next step (P)", nullptr, &ui.predict.on)) ui.predict.focus = ui.predict.on;
          ImGui::MenuItem("warp divergence (D)", nullptr, &ui.show_divergence);
          ImGui::MenuItem("application rows: compaction, allocation (A)", nullptr, &ui.show_application);
          ImGui::EndMenu();
        }
        if (ui.status_is_error) ImGui::TextColored(ImVec4(0.88f, 0.19f, 0.19f, 1), "%s", ui.status.c_str());
        else if (!ui.status.empty()) ImGui::TextDisabled("%s", ui.status.c_str());
        menu_h = ImGui::GetWindowSize().y;
        ImGui::EndMainMenuBar();
      }
      const float W = io.DisplaySize.x, H = io.DisplaySize.y, em = ImGui::GetFontSize();
      // Side panels never take more than about half the width between them: the diagram comes first.
      // The lesson panel keeps 16 em (its labels and a widget beside each) down to an 800-pixel window.
      const float left_w = ui.lecture ? 0 : std::max(std::min(22 * em, 0.24f * W), std::min(16 * em, 0.32f * W));
      const float right_w = ui.lecture ? 0 : std::min(28 * em, 0.3f * W);
      // Lecture mode's narration is as tall as its text (two to six lines): the rest is the diagram's.
      float narration_h = 0;
      if (ui.lecture && ui.lesson.view) {
        const ImVec2 pad = ImGui::GetStyle().WindowPadding;
        const float text_h = ImGui::CalcTextSize(narrate_step(*ui.lesson.view, ui.step).c_str(), nullptr, false, W - 2 * pad.x).y;
        narration_h = std::clamp(text_h, 2 * ImGui::GetTextLineHeightWithSpacing(), 6 * ImGui::GetTextLineHeightWithSpacing()) + 2 * pad.y;
      }
      const float timeline_h = 3.2f * em;
      const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                     ImGuiWindowFlags_NoSavedSettings;
      // The fixed panels tile the window: their background is the frame's clear, not a quad each (a
      // transparent one is skipped; ImGuiWindowFlags_NoBackground would drop their borders too).
      ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
      bool changed = false;
      if (!ui.lecture) {
        ImGui::SetNextWindowPos(ImVec2(0, menu_h));
        ImGui::SetNextWindowSize(ImVec2(left_w, H - menu_h));
        if (ImGui::Begin("Lesson", nullptr, fixed)) changed = controls_panel(ui);
        ImGui::End();
        ImGui::SetNextWindowPos(ImVec2(W - right_w, menu_h));
        ImGui::SetNextWindowSize(ImVec2(right_w, (H - menu_h) * 0.3f));
        if (ImGui::Begin("Narration", nullptr, fixed)) narration_panel(ui);
        ImGui::End();
        ImGui::SetNextWindowPos(ImVec2(W - right_w, menu_h + (H - menu_h) * 0.3f));
        ImGui::SetNextWindowSize(ImVec2(right_w, (H - menu_h) * 0.7f));
        if (ImGui::Begin("Kernel source", nullptr, fixed) && ui.lesson.view) source_pane(ui.source, *ui.lesson.view, ui.step, ui.fonts.mono);
        ImGui::End();
      } else {
        ImGui::SetNextWindowPos(ImVec2(0, H - timeline_h - narration_h));
        ImGui::SetNextWindowSize(ImVec2(W, narration_h));
        if (ImGui::Begin("Narration##lecture", nullptr, fixed | ImGuiWindowFlags_NoTitleBar)) narration_panel(ui);
        ImGui::End();
      }
      ImGui::SetNextWindowPos(ImVec2(left_w, H - timeline_h));
      ImGui::SetNextWindowSize(ImVec2(W - left_w - right_w, timeline_h));
      if (ImGui::Begin("Timeline", nullptr, fixed | ImGuiWindowFlags_NoTitleBar)) timeline_panel(ui);
      ui.chrome.push_back({"timeline", window_rect()});
      ImGui::End();

      ImGui::SetNextWindowPos(ImVec2(left_w, menu_h));
      ImGui::SetNextWindowSize(ImVec2(W - left_w - right_w, H - menu_h - timeline_h - narration_h));
      ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
      if (ImGui::Begin("Diagram", nullptr, fixed | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse)) {
        const ImVec2 pos = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
        if (ui.lesson.view) {
          // Side by side: the lesson above, the single-buffer kernel below (the diagrams are wide and
          // short, so stacking gives both the full width), each under a one-line caption, steps in sync.
          const bool pair = ui.side_by_side && ui.lesson.racy;
          if (!pair) {
            ImGui::PushFont(ui.fonts.diagram);  // the diagram at the font scale, the chrome around it capped
            draw_canvas(*ui.lesson.view, ui.step, ui.canvas, gl, ui.settings.theme, frame_draws, pos, avail, true, "##canvas");
            draw_predict_marks(ui.predict, ui.canvas, ui.step, pos, avail);
            ImGui::PopFont();
            // In the window's title bar, right-aligned, where it covers no cell.
            draw_wrong_banner(*ui.lesson.view, ui.settings.theme, ImVec2(pos.x + avail.x, ImGui::GetWindowPos().y),
                              ImGui::GetFrameHeight());
          } else {
            const float caption = ImGui::GetTextLineHeightWithSpacing();
            const ImVec2 size(avail.x, avail.y / 2 - caption - 2);
            const ImU32 text = im_color(palette_named(ui.settings.theme).text);
            ImDrawList* dl = ImGui::GetWindowDrawList();
            dl->AddText(ImVec2(pos.x + 8, pos.y + 2), text, (ui.lesson.view->trace.meta.algorithm + " (the lesson)").c_str());
            ImGui::PushFont(ui.fonts.diagram);
            // The racy lesson above the double-buffered kernel: its cells that differ are marked.
            const bool racy_lesson = ui.lesson.view->trace.meta.algorithm == "kogge-stone-racy" &&
                                     ui.lesson.racy->outcome == Outcome::Correct &&
                                     ui.lesson.view->trace.steps.size() == ui.lesson.racy->trace.steps.size();
            draw_canvas(*ui.lesson.view, ui.step, ui.canvas, gl, ui.settings.theme, frame_draws,
                        ImVec2(pos.x, pos.y + caption), size, true, "##canvas", racy_lesson ? ui.lesson.racy.get() : nullptr);
            ImGui::PopFont();
            draw_wrong_banner(*ui.lesson.view, ui.settings.theme, ImVec2(pos.x + avail.x, pos.y), caption);
            const float lower = pos.y + avail.y / 2;
            const std::string& partner = ui.lesson.racy->trace.meta.algorithm;
            dl->AddText(ImVec2(pos.x + 8, lower + 2), text,
                        (partner + (partner == "kogge-stone-racy" ? ": one buffer, one barrier a step"
                                                                  : ": two buffers, no race")).c_str());
            const int racy_step = std::min(ui.step, static_cast<int>(ui.lesson.racy->trace.steps.size()) - 1);
            // Compared step by step with the lesson where the two run the same strides on the same input.
            const std::string& lesson_algo = ui.lesson.view->trace.meta.algorithm;
            const bool twins = (lesson_algo == "kogge-stone-double-buffer" || lesson_algo == "kogge-stone") &&
                               ui.lesson.view->outcome == Outcome::Correct &&
                               ui.lesson.view->trace.steps.size() == ui.lesson.racy->trace.steps.size();
            ImGui::PushFont(ui.fonts.diagram);
            draw_canvas(*ui.lesson.racy, racy_step, ui.canvas_racy, gl, ui.settings.theme, frame_draws,
                        ImVec2(pos.x, lower + caption), size, true, "##canvas_racy", twins ? ui.lesson.view.get() : nullptr);
            ImGui::PopFont();
            draw_wrong_banner(*ui.lesson.racy, ui.settings.theme, ImVec2(pos.x + avail.x, lower), caption);
          }
        }
      }
      ImGui::End();
      ImGui::PopStyleVar();
      ImGui::PopStyleColor();

      // Work against steps: a window over the others, measured from emulator traces the first time.
      if (ui.show_charts) {
        if (ui.work_points.empty()) {
          ui.work_points = measure_work_steps();
          for (const WorkStepsPoint& p : ui.work_points)
            if (std::none_of(ui.work_series.begin(), ui.work_series.end(), [&](const auto& s) { return s.first == p.algorithm; }))
              ui.work_series.push_back({p.algorithm, true});
        }
        ImGui::SetNextWindowSize(ImVec2(W * 0.7f, H * 0.85f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowPos(ImVec2(W * 0.15f, H * 0.07f), ImGuiCond_FirstUseEver);
        const bool charts_open = ImGui::Begin("Work against steps", &ui.show_charts);
        keep_in_display();
        if (charts_open) {
          // The series a lecture compares, and a log2 steps axis so deep networks do not flatten the rest.
          bool rebuild = ui.charts.empty();
          // One legend for the three charts: each algorithm's marker beside its box.
          for (auto& [name, shown] : ui.work_series) {
            svplot::MarkerGlyph(sv::chart::algorithm_marker(name), sv::chart::algorithm_color(name));
            ImGui::SameLine(0, 0.2f * em);
            rebuild |= ImGui::Checkbox(name.c_str(), &shown);
            ImGui::SameLine();
            if (ImGui::GetContentRegionAvail().x < 12 * em) ImGui::NewLine();
          }
          rebuild |= ImGui::Checkbox("log2 steps axis", &ui.work_log_steps);
          if (rebuild) {
            std::vector<std::string> only;
            for (const auto& [name, shown] : ui.work_series)
              if (shown) only.push_back(name);
            if (only.empty()) only.push_back("");  // none ticked: nothing plotted
            ui.charts = chart::work_steps_charts(ui.work_points, 1024, only, ui.work_log_steps);
          }
          // Every chart on screen (chart::chart_grid): side by side where stacking would not fit.
          const ImVec2 avail = ImGui::GetContentRegionAvail();
          const float gap = ImGui::GetStyle().ItemSpacing.y;
          const sv::chart::ChartGrid grid = sv::chart::chart_grid(avail.x, avail.y, static_cast<int>(ui.charts.size()), em, gap);
          const ImVec2 origin = ImGui::GetCursorScreenPos();
          for (std::size_t k = 0; k < ui.charts.size(); ++k) {
            const auto col = static_cast<float>(k % static_cast<std::size_t>(grid.columns));
            const auto row = static_cast<float>(k / static_cast<std::size_t>(grid.columns));
            ImGui::SetCursorScreenPos(ImVec2(origin.x + col * (grid.w + gap), origin.y + row * (grid.h + gap)));
            svplot::Chart(("chart" + std::to_string(k)).c_str(), ui.charts[k], ImVec2(grid.w, grid.h), false);
          }
          ImGui::SetCursorScreenPos(origin);
          ImGui::Dummy(ImVec2(static_cast<float>(grid.columns) * (grid.w + gap) - gap,
                              static_cast<float>(grid.rows) * (grid.h + gap) - gap));  // the charts' extent, for scrolling
        }
        ImGui::End();
      }

      if (ui.show_timing) timing_window(&ui.show_timing, ui.timing, ui.gpu, io.DisplaySize);

      const int divergence_step = divergence_window(&ui.show_divergence, ui.lesson.view ? &ui.lesson.view->trace : nullptr,
                                                    ui.step, ui.settings.theme);
      if (divergence_step >= 0) set_step(ui, divergence_step);
      application_window(&ui.show_application, ui.lesson.view ? &ui.lesson.view->trace : nullptr, ui.settings.theme);

      // The look-back view: device-wide scans' tiles, over the others, nearly the whole window.
      const bool was_lookback_shown = lookback_was_shown;
      lookback_was_shown = ui.show_lookback;
      if (ui.show_lookback) {
        ImGui::SetNextWindowSize(ImVec2(W * 0.94f, (H - menu_h) * 0.94f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowPos(ImVec2(W * 0.03f, menu_h + (H - menu_h) * 0.03f), ImGuiCond_FirstUseEver);
        if (!was_lookback_shown) ImGui::SetNextWindowFocus();  // just opened: in front, the keys are its
        // Its background too is a clear, under its title bar (clear_window_background), not a quad.
        const std::uint32_t background = window_background_over(palette_named(ui.settings.theme).background);
        ImGui::PushStyleColor(ImGuiCol_WindowBg, IM_COL32(0, 0, 0, 0));
        const bool open = ImGui::Begin("Look-back: device-wide scans, tile by tile", &ui.show_lookback);
        ImGui::PopStyleColor();
        keep_in_display();
        clear_window_background(background);
        ui.lookback.focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
        if (open) lookback_window_contents(ui.lookback, ui.settings.theme, glfwGetTime(), &pictures);
        ImGui::End();
      }

      if (ui.lesson.view)
        if (const int shown = predict_window(ui.predict, *ui.lesson.view, ui.step,
                                                  ImVec2(left_w, menu_h + (H - menu_h) * 0.38f),
                                                  ImVec2(W - left_w - right_w, (H - menu_h) * 0.62f - timeline_h));
            shown >= 0)
          set_step(ui, shown);

      if (changed) {  // recorded on the worker; until it is ready the frames draw the trace there is
        ui.recorder.request(ui.lesson, ui.side_by_side);
        ui.swap_to_last_step |= !ui.recorded_from_controls;
      }

      ImGui::Render();
      hidden_clipped = clip_hidden_draws(ImGui::GetDrawData());
      cpu_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count());
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window, &fb_w, &fb_h);
      glViewport(0, 0, fb_w, fb_h);
      const std::uint32_t panels = window_background_over(palette_named(ui.settings.theme).background);
      glDisable(GL_SCISSOR_TEST);
      glClearColor(((panels >> 24) & 0xFF) / 255.0f, ((panels >> 16) & 0xFF) / 255.0f, ((panels >> 8) & 0xFF) / 255.0f, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
        std::cerr << "scanviz: OpenGL error 0x" << std::hex << err << std::dec << " in frame " << frame << "\n";
        exit_code = 3;
      }
      if (last && !opt.report_layout.empty()) {
        LayoutReport report;
        report.window_w = static_cast<int>(io.DisplaySize.x);
        report.window_h = static_cast<int>(io.DisplaySize.y);
        report.font_scale = font_scale;
        report.chrome_scale = chrome_scale;
        report.lecture = ui.lecture;
        report.chrome = ui.chrome;
        report.tooltip = ui.tooltip;
        report.status = ui.status;
        report.canvases.push_back(ui.canvas.laid);
        report.canvases.back().name = "lesson";
        if (ui.side_by_side && ui.lesson.racy) {
          report.canvases.push_back(ui.canvas_racy.laid);
          report.canvases.back().name = "racy";
        }
        try {
          write_file_atomically(opt.report_layout, layout_report_json(report));
        } catch (const std::exception& e) {
          std::cerr << "scanviz: --report-layout: " << e.what() << "\n";
          exit_code = 2;
        }
      }
      std::chrono::steady_clock::duration saving{};  // the screenshot's PNG is no part of the frame's time
      if (last && !opt.screenshot.empty()) {
        const auto saving_start = std::chrono::steady_clock::now();
        std::vector<unsigned char> pixels(static_cast<std::size_t>(fb_w) * fb_h * 4);
        glReadPixels(0, 0, fb_w, fb_h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
        try {
          write_file_atomically(opt.screenshot, encode_png(fb_w, fb_h, pixels));
        } catch (const std::exception& e) {
          std::cerr << "scanviz: " << e.what() << "\n";
          exit_code = 2;
        }
        saving = std::chrono::steady_clock::now() - saving_start;
      }
      glfwSwapBuffers(window);
#ifdef __EMSCRIPTEN__
      if (const auto query = link_query(ui)) web::set_page_query(*query);
      web::wait_for_next_frame();
#endif
      if (opt.report_frames) glFinish();  // a measured frame ends when the GL has drawn it, not when it is queued
      frame_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start - saving).count());
      if (measuring(ui.timing)) frame = -1;  // a run of N frames counts them from when the measurements are done
      if (opt.report_frames && frame == 10) gl_objects_early = count_gl_objects();
      if (opt.report_frames && last) gl_objects_late = count_gl_objects();
    }
    if (opt.report_source) std::cout << source_pane_report(ui.source);
    if (opt.report_frames && !frame_ms.empty()) {
      const FrameStats cpu = frame_stats(cpu_ms), all = frame_stats(frame_ms);
      char times[256];
      std::snprintf(times, sizeof times, "CPU median %.2f ms, p99 %.2f ms, max %.2f ms; frame time median %.2f ms, p99 %.2f ms, max %.2f ms",
                    cpu.median, cpu.p99, cpu.max, all.median, all.p99, all.max);
      std::cout << "frames " << frame_ms.size() << " (the first " << kWarmupFrames << " not counted), " << times
                << ", GL objects at frame 10 " << gl_objects_early << ", at the end " << gl_objects_late
                << ", diagram instances " << gl.last_instances() << ", diagram builds " << gl.builds()
                << ", look-back scene builds " << ui.lookback.scene_builds << ", hidden draws clipped "
                << hidden_clipped << "\n"
                << "renderer " << reinterpret_cast<const char*>(glGetString(GL_RENDERER)) << "\n";
    }
  }
  save_settings(ui.settings);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}

}  // namespace sv::gui
