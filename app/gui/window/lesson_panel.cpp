// The lesson's controls, the timeline and the narration, drawn with Dear ImGui into the panels the
// frame lays out (gui/window/tiled_panels.cpp).
#include "gui/window/lesson_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <bit>
#include <climits>
#include <cstdio>
#include <optional>
#include <string>

#include "algorithms.hpp"
#include "core/values.hpp"
#include "gui/draw/text_colours.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "gui/window/kernel_verdict.hpp"
#include "mirror/narration.hpp"

namespace sv::gui {

namespace {
constexpr const char* kTypes[] = {"int32", "int64", "float", "double"};

// A text box over a request field: ImGui edits a copy, and a change is written back.
bool text_field(const char* label, std::string& field) {
  std::array<char, 2048> box{};
  std::snprintf(box.data(), box.size(), "%s", field.c_str());
  if (!ImGui::InputText(label, box.data(), box.size())) return false;
  field = box.data();
  return true;
}
}  // namespace

bool controls_panel(Ui& ui) {
  Lesson& l = ui.lesson;
  bool changed = false;
  // Widgets leave their labels whole: ImGui's default (65% of the panel) cut "block (0 = fit n)". In a
  // narrow panel (a page zoomed to 200%) the widgets keep room for their values and the labels run
  // past the edge, where the panel scrolls sideways to them.
  const float label_w = ImGui::CalcTextSize("block (0 = fit n)").x + ImGui::GetStyle().ItemInnerSpacing.x;
  // 7 em: an 800x600 window's panel (about 94 px beside the labels) is not narrow; a 1280x800 page at
  // 200% is.
  const float widget_min = 7 * ImGui::GetFontSize();
  const bool narrow = ImGui::GetContentRegionAvail().x - label_w < widget_min;
  ImGui::PushItemWidth(narrow ? widget_min : -label_w);
  if (!ui.recorded_from_controls && l.view) {
    const TraceMeta& m = l.view->trace.meta;
    ImGui::PushTextWrapPos(0);
    ImGui::TextColored(note_text(), "Showing a trace file: %s, n = %lld, %s, recorded on %s%s%s.",
                       m.algorithm.c_str(), static_cast<long long>(m.n), std::string(op_name(m.op)).c_str(),
                       m.executor.kind == "gpu" ? "the GPU " : "the emulator", m.executor.device.c_str(),
                       m.executor.kind == "gpu" ? "" : (" (" + m.executor.schedule + ")").c_str());
    if (m.grid > 1) ImGui::TextWrapped("%d blocks of %d threads%s.", m.grid, m.block,
                                       blocks_one_after_another(m) ? ", run one after another (each step is one block's); depth is the deepest block's" : "");
    ImGui::TextDisabled("Change a control below to record a new lesson.");
    ImGui::PopTextWrapPos();
    ImGui::Separator();
  }
  const auto algos = block_algorithms();
  ImGui::TextUnformatted("Algorithm");  // a heading, not a disabled control
  // A device-wide trace file names its own algorithm until a block algorithm is picked.
  const bool foreign = !ui.recorded_from_controls && l.view && !find_algorithm(l.view->trace.meta.algorithm);
  const int algorithm = algorithm_index(l);
  const bool own = l.own_kernel != nullptr;  // a kernel of the user's own: the controls it has
  const std::string shown(own ? "your kernel: " + l.own_kernel->name
                              : foreign ? l.view->trace.meta.algorithm : std::string(algos[algorithm].name));
  ImGui::SetNextItemWidth(-FLT_MIN);  // no label: the whole name ("kogge-stone-double-buffer")
  if (ImGui::BeginCombo("##algo", shown.c_str())) {
    for (int i = 0; i < static_cast<int>(algos.size()); ++i)
      if (ImGui::Selectable(std::string(algos[i].name).c_str(), i == algorithm)) set_algorithm(l, algos[i].name), changed = true;
    ImGui::EndCombo();
  }
  tip(ui, "algorithm", "the block-level scan to record and draw (the summary below says what it does)");
  // The lesson's switches for a family of twins (the table's twin column): double buffering, and
  // barriers a step; unticking double buffering lands on the race-free single buffer.
  const std::string name = l.request.algorithm;
  const AlgorithmTwin twin = find_algorithm(name) ? find_algorithm(name)->twin : AlgorithmTwin{};
  if (!own && !twin.family.empty()) {
    bool double_buffer = twin.buffers == 2;
    const AlgorithmInfo* single = find_twin(twin.family, 1, 0);  // the race-free single buffer
    int barriers = double_buffer && single ? single->twin.barriers : twin.barriers;
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
    const AlgorithmInfo* chosen = find_twin(twin.family, double_buffer ? 2 : 1, barriers);
    if (chosen && chosen->name != name) set_algorithm(l, chosen->name);
  }
  const AlgorithmInfo& info = algos[algorithm_index(l)];
  RunRequest& r = l.request;
  const bool gpu = r.executor == "gpu";
  if (own) ImGui::TextWrapped("A kernel of your own (%s) on the emulator. K: edit it, Run, its report card.", l.own_kernel->name.c_str());
  else ImGui::TextWrapped("%s", std::string(info.summary).c_str());
  ImGui::Separator();
  const int max_n = max_lesson_n(l);
  if (input_mode(l) != 2)
  {
    int n = static_cast<int>(std::clamp<std::int64_t>(r.n.value_or(8), 1, max_n));
    if (ImGui::SliderInt("n", &n, 1, max_n, "%d", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp)) r.n = n, changed = true;
    tip(ui, "n", "elements to scan (Ctrl+click to type a value)");
  }
  changed |= ImGui::InputInt("block (0 = fit n)", &r.block, 32, 128);
  tip(ui, "block", "threads in the block; 0 takes as many as n needs");
  r.block = std::clamp(r.block, 0, kMaxBlockThreads);
  if (info.warp_level && !own) {
    // Lanes of a warp: shuffles reach within one; Fig. 2 draws warps of 4.
    const char* widths[] = {"2", "4", "8", "16", "32"};
    int width_index = std::countr_zero(static_cast<unsigned>(r.warp.value_or(4))) - 1;
    if (ImGui::Combo("warp width", &width_index, widths, 5)) r.warp = 2 << width_index, changed = true;
    tip(ui, "warp_width", "lanes of a warp: shuffles reach within one (the paper's Fig. 2 draws warps of 4)");
  } else if (!gpu) {
    // Threads the emulator runs in lockstep: on their own (the slides' picture) up to a GPU's warp.
    const char* lanes[] = {"auto", "1: each on its own", "2", "4", "8", "16", "32: a GPU's warp"};
    int lanes_index = r.warp ? 1 + std::countr_zero(static_cast<unsigned>(*r.warp)) : 0;
    if (ImGui::Combo("lockstep", &lanes_index, lanes, 7)) {
      r.warp = lanes_index ? std::optional<std::int32_t>(1 << (lanes_index - 1)) : std::nullopt;
      changed = true;
    }
    tip(ui, "lockstep",
        "how many threads the emulator advances together, one instruction at a time:\n"
        "on their own, a thread may overwrite a cell before its neighbour reads it (the slides' race);\n"
        "in a warp of 32, all 32 read before any of them writes.\n"
        "auto: on their own for the racy kernel and a kernel of your own (32 when it shuffles), 32 for the others");
  }
  const char* ops[] = {"sum", "product", "min", "max", "interval", "and", "or", "bitand", "bitor", "bitxor"};
  int op = static_cast<int>(r.op.value_or(OpKind::Sum));
  if (own) {  // the kernel's own +, or the slides' symbolic x0..x3
    int symbolic = op == static_cast<int>(OpKind::Interval) ? 1 : 0;
    const char* kernel_ops[] = {"sum (the kernel's +)", "interval (x0..x3)"};
    if (ImGui::Combo("operator", &symbolic, kernel_ops, 2)) r.op = symbolic ? OpKind::Interval : OpKind::Sum, changed = true;
  } else if (ImGui::Combo("operator", &op, ops, kOpKindCount)) {
    r.op = static_cast<OpKind>(op), changed = true;
  }
  tip(ui, "operator", "the associative operator the scan applies; interval shows which inputs each cell combines (x0..x3)");
  const int types = static_cast<OpKind>(op) >= OpKind::And ? 2 : 4;  // and, or, bit*: int32 and int64 only
  int type = std::min(r.type && r.type != ValueType::Interval ? static_cast<int>(*r.type) : 0, types - 1);
  if (r.type && r.type != ValueType::Interval) r.type = static_cast<ValueType>(type);
  if (!own && static_cast<OpKind>(op) != OpKind::Interval) {
    if (ImGui::Combo("type", &type, kTypes, types)) r.type = static_cast<ValueType>(type), changed = true;
    tip(ui, "type", "the values' type");
  }
  changed |= ImGui::Checkbox("exclusive", &r.exclusive);
  tip(ui, "exclusive", "each output leaves its own element out: y[i] = x0 + ... + x(i-1), the identity first");
  const char* kinds[] = {"a plain scan", "segmented scan (random heads)", "stream compaction", "allocation"};
  int kind = own ? 0 : scan_kind(l);
  if (!own && ImGui::Combo("scan", &kind, kinds, 4)) set_scan_kind(l, kind), changed = true;
  tip(ui, "scan", "a plain scan, a segmented one (restarts at each head), or an application built on the exclusive sum");
  if (kind == 1) {
    float density = static_cast<float>(segment_density(l));
    if (ImGui::SliderFloat("heads", &density, 0.0f, 1.0f, "%.2f", ImGuiSliderFlags_AlwaysClamp)) {
      char flags[32];
      std::snprintf(flags, sizeof flags, "random:%g", static_cast<double>(density));
      r.flags = flags;
      changed = true;
    }
  }
  if (kind == 2) changed |= text_field("predicate", r.predicate);
  if (kind >= 2) ImGui::TextDisabled("the exclusive sum (operator sum, an integer type)");
  const char* inputs[] = {"slides (3 6 7 4 8 2 1 9)", "seeded random", "typed", "floats: the slides' / 10 (scaled)",
                          "floats: uniform in [0, 1)", "floats: 1e8 and 1s (mixed)", "floats: a sum that cancels"};
  int mode = input_mode(l);
  if (ImGui::Combo("input", &mode, inputs, 7)) set_input_mode(l, mode), changed = true;
  tip(ui, "input", "the slides' eight values, seeded random values, values you type, or (type float or double) the float "
                   "lesson's inputs, whose sums round differently in each order (U shows the errors)");
  if (mode == 1 || mode == 4) {
    int seed = static_cast<int>(std::min<std::uint64_t>(r.seed, INT_MAX));
    if (ImGui::InputInt("input seed", &seed)) r.seed = static_cast<std::uint64_t>(std::max(1, seed)), changed = true;
  }
  if (mode == 2) changed |= text_field("values", r.input);
  ImGui::Separator();
  // Executor: the emulator (schedules), or the GPU when one is usable (the race amplifier).
  const std::string gpu_label = ui.gpu.usable ? "GPU: " + ui.gpu.name : "GPU (none usable)";
  if (!own && ImGui::BeginCombo("executor", gpu ? gpu_label.c_str() : "CPU emulator")) {
    if (ImGui::Selectable("CPU emulator", !gpu)) r.executor = "emulator", r.amplify = 0, changed = true;  // the GPU's amplifier
    if (ImGui::Selectable(gpu_label.c_str(), gpu, ui.gpu.usable ? 0 : ImGuiSelectableFlags_Disabled)) r.executor = "gpu", changed = true;
    ImGui::EndCombo();
  }
  if (!own)
    tip(ui, "executor", ui.gpu.usable ? "where the kernel runs: the CPU emulator (any schedule) or the GPU (real timing)"
                                      : ui.gpu.error.c_str());
  if (gpu && !own) {
    int amplify = static_cast<int>(std::min<std::uint64_t>(r.amplify, INT_MAX));
    if (ImGui::InputInt("race amplifier seed (0 = off)", &amplify)) r.amplify = static_cast<std::uint64_t>(std::max(0, amplify)), changed = true;
    tip(ui, "amplifier", "on the GPU, threads wait a seeded random while before each step so that races show more often");
  } else {
    const auto names = schedule_kind_names();
    const int schedule = schedule_index(l);
    if (ImGui::BeginCombo("schedule", std::string(names[static_cast<std::size_t>(schedule)]).c_str())) {
      for (int i = 0; i < static_cast<int>(names.size()); ++i)
        if (ImGui::Selectable(std::string(names[static_cast<std::size_t>(i)]).c_str(), i == schedule)) set_schedule_index(l, i), changed = true;
      ImGui::EndCombo();
    }
    tip(ui, "schedule", "the order the emulator runs the threads between barriers: a race's result depends on it");
    if (schedule == static_cast<int>(Schedule::Kind::Random)) {
      int seed = static_cast<int>(std::min<std::uint64_t>(Schedule::parse(r.schedule)->seed, INT_MAX));
      if (ImGui::InputInt("schedule seed", &seed)) {
        l.random_schedule = r.schedule = "random:" + std::to_string(std::max(0, seed));
        changed = true;
      }
    }
  }
  const bool racy_lesson = find_algorithm(r.algorithm) && find_algorithm(r.algorithm)->racy;
  // The whole label where the panel holds it, else its first words (a narrow window cut it).
  std::string side_label = racy_lesson ? "side by side with the double-buffered kernel" : "side by side with the single-buffer kernel";
  const float side_room = ImGui::GetContentRegionAvail().x - ImGui::GetFrameHeight() - ImGui::GetStyle().ItemInnerSpacing.x;
  if (ImGui::CalcTextSize(side_label.c_str()).x > side_room) side_label = "side by side";
  if (!own) {
    changed |= ImGui::Checkbox((side_label + "###side_by_side").c_str(), &ui.side_by_side);
    tip(ui, "side_by_side", "the racy kernel beside the double-buffered one on the same input: the cells that differ are marked");
  }
  ImGui::Separator();
  if (!l.error.empty()) ImGui::TextColored(bad_text(), "%s", l.error.c_str());
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
    if (l.own_kernel) {
      // A kernel of one's own: the report card's verdict (one run cannot call it correct), and
      // nothing of a diagram that is not this text's run.
      const KernelVerdict v = kernel_verdict(ui);
      const bool current = l.error.empty() && l.ran_kernel && l.ran_kernel->text == l.own_kernel->text;
      if (current) ImGui::Text("hazards %zu in this run, verdict ", l.view->hazards.size());
      else ImGui::Text("verdict ");
      ImGui::SameLine(0, 0);
      if (v.tone == KernelVerdict::Neutral) ImGui::TextDisabled("%s", v.text.c_str());
      else ImGui::TextColored(v.tone == KernelVerdict::Good ? good_text() : bad_text(), "%s", v.text.c_str());
      if (!current) ImGui::TextDisabled("the diagram shows the last run that worked");
    } else {
      ImGui::Text("hazards %zu, result ", l.view->hazards.size());
      ImGui::SameLine(0, 0);
      ImGui::TextColored(correct ? good_text() : bad_text(), "%s", correct ? "correct" : "WRONG");
    }
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
  const bool unit_fits = ImGui::CalcTextSize("3.00 steps/s").x + 2 * ImGui::GetStyle().FramePadding.x <= speed_w;
  ImGui::SetNextItemWidth(speed_w);
  ImGui::SliderFloat("##speed", &ui.settings.speed, 0.25f, kMaxSpeed, unit_fits ? "%.2f steps/s" : "%.2f", ImGuiSliderFlags_AlwaysClamp);
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

}  // namespace sv::gui
