// The lesson's controls as a run request, and their recording (gui/lesson/lesson.hpp).
#include "gui/lesson/lesson.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>

#include "algorithms.hpp"
#include "core/float_inputs.hpp"
#include "core/schedule.hpp"
#include "core/values.hpp"
#include "entry/record.hpp"
#include "gpu/executor.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "lesson_run.hpp"
#include "run/request.hpp"

namespace sv::gui {

namespace {

constexpr const char* kScanNames[] = {"plain", "segmented", "compact", "allocate"};

bool warp_level(std::string_view algorithm) {
  const AlgorithmInfo* info = find_algorithm(algorithm);
  return info && info->warp_level;
}

}  // namespace

int algorithm_index(const LessonControls& l) {
  const AlgorithmInfo* info = find_algorithm(l.request.algorithm);
  return info ? static_cast<int>(info - block_algorithms().data()) : static_cast<int>(block_algorithm_index(kDefaultBlockAlgorithm));
}

void set_algorithm(LessonControls& l, std::string_view name) {
  l.own_kernel.reset();
  l.request.launch.clear();  // a launch is a kernel of one's own's
  if (warp_level(name) != warp_level(l.request.algorithm)) std::swap(l.request.warp, l.other_warp);
  l.request.algorithm = std::string(name);
}

int max_lesson_n(const LessonControls& l) {
  return kMaxBlockThreads * (l.own_kernel ? 2 : block_algorithms()[static_cast<std::size_t>(algorithm_index(l))].items_per_thread);
}

int input_mode(const LessonControls& l) {
  const auto names = float_input_names();
  const auto named = std::find(names.begin(), names.end(), l.request.input);
  if (named != names.end()) return 3 + static_cast<int>(named - names.begin());
  return l.request.input == "slides" ? 0 : l.request.input.empty() ? 1 : 2;
}

void set_input_mode(LessonControls& l, int mode) {
  if (input_mode(l) == 2) l.typed = l.request.input;
  const auto names = float_input_names();
  if (mode >= 3 && mode < 3 + static_cast<int>(names.size())) {  // a float sum's input: the lesson becomes one
    l.request.input = std::string(names[static_cast<std::size_t>(mode - 3)]);
    l.request.op = OpKind::Sum;
    if (l.request.type != ValueType::F64) l.request.type = ValueType::F32;
    return;
  }
  l.request.input = mode == 0 ? "slides" : mode == 1 ? "" : l.typed;
}

int scan_kind(const LessonControls& l) {
  return l.request.app == "compact" ? 2 : l.request.app == "allocate" ? 3 : l.request.flags.empty() ? 0 : 1;
}

void set_scan_kind(LessonControls& l, int kind) {
  if (scan_kind(l) == 1) l.heads = l.request.flags;
  set_field(l.request, "scan", kScanNames[std::clamp(kind, 0, 3)]);
  if (kind == 1) l.request.flags = l.heads;
}

double segment_density(const LessonControls& l) {
  const std::string& f = l.request.flags;
  if (f.rfind("random:", 0) == 0) return std::strtod(f.c_str() + 7, nullptr);
  const auto heads = std::count(f.begin(), f.end(), '1'), all = std::count(f.begin(), f.end(), ',') + 1;
  return f.empty() ? 0 : static_cast<double>(heads) / static_cast<double>(all);
}

int schedule_index(const LessonControls& l) {
  const auto s = Schedule::parse(l.request.schedule.empty() ? "in-order" : l.request.schedule);
  return s ? static_cast<int>(s->kind) : 0;
}

void set_schedule_index(LessonControls& l, int index) {
  if (index == static_cast<int>(Schedule::Kind::Random)) l.request.schedule = l.random_schedule;
  else l.request.schedule = std::string(schedule_kind_names()[static_cast<std::size_t>(index)]);
}

RunRequest lesson_request(const LessonControls& l, const std::string& algorithm) {
  RunRequest r = l.request;
  r.algorithm = algorithm;
  const AlgorithmInfo* info = find_algorithm(algorithm);
  if (info && info->warp_level != warp_level(l.request.algorithm)) r.warp = l.other_warp;  // the side-by-side partner
  return lesson_run(std::move(r));
}

BlockRunConfig lesson_config(const LessonControls& l, const std::string& algorithm) {
  return run_config(lesson_request(l, algorithm));
}

void lesson_from_trace(LessonControls& l, const TraceMeta& m) {
  if (!find_algorithm(m.algorithm)) return;
  const bool was_warp_level = warp_level(l.request.algorithm);
  const RunRequest controls = l.request;
  l.request = request_from_meta(m);
  l.request.executor = controls.executor;  // where the window records stays the window's choice (a GPU trace
  l.request.amplify = controls.amplify;    // opens where no GPU is)
  if (!l.request.warp) l.request.warp = m.warp_width();
  if (warp_level(m.algorithm) != was_warp_level) l.other_warp = controls.warp;  // what the other kind had
  if (l.request.app != "compact") l.request.predicate = "x % 2 == 0";
  if (input_mode(l) == 2) l.typed = l.request.input;
}

std::string side_by_side_partner(const std::string& lesson_algorithm) {
  const AlgorithmInfo* lesson = find_algorithm(lesson_algorithm);
  if (lesson && lesson->racy)  // the racy twin beside its double-buffered one
    if (const AlgorithmInfo* fixed = find_twin(lesson->twin.family, 2, 0)) return std::string(fixed->name);
  for (const AlgorithmInfo& a : block_algorithms())  // any other lesson beside the racy twin
    if (a.racy && !a.twin.family.empty()) return std::string(a.name);
  return lesson_algorithm;
}

LessonRecording record_lesson_controls(const LessonControls& l, bool side_by_side) {
  if (l.own_kernel) return record_own_kernel(l.own_kernel, l.request);  // one kernel: no side by side
  const auto start = std::chrono::steady_clock::now();
  LessonRecording r;
  try {
    const std::string algo(block_algorithms()[static_cast<std::size_t>(algorithm_index(l))].name);
    auto recorded = [&](const std::string& name) { return std::make_unique<TraceView>(make_trace_view(record(lesson_request(l, name)).trace)); };
    r.view = recorded(algo);
    if (side_by_side) r.racy = recorded(side_by_side_partner(algo));
  } catch (const std::exception& e) {
    r.view.reset();
    r.racy.reset();
    r.error = e.what();
  }
  r.record_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void show_recording(Lesson& l, LessonRecording&& r) {
  l.record_ms = r.record_ms;
  l.error = std::move(r.error);
  l.error_line = r.error_line;
  if (!l.error.empty()) return;
  l.view = std::move(r.view);
  l.racy = std::move(r.racy);
  l.ran_kernel = std::move(r.ran_kernel);
}

void record_lesson(Lesson& l, bool side_by_side) { show_recording(l, record_lesson_controls(l, side_by_side)); }

}  // namespace sv::gui
