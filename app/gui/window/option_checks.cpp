// Every option of `scanviz gui` (and of a page's link) checked and applied in one place.
#include "gui/window/option_checks.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "algorithms.hpp"
#include "bench_result.hpp"
#include "core/files.hpp"
#include "core/limits.hpp"
#include "core/schedule.hpp"
#include "core/values.hpp"
#include "gui/lesson/own_kernel.hpp"
#include "kernel_run.hpp"
#include "run/request.hpp"
#include "trace/trace_json.hpp"

namespace sv::gui {

int apply_options(const GuiOptions& opt, Ui& ui, std::vector<ScriptedInput>& script) {
  BenchResult bench;  // read before any window opens, so a bad file is one line and exit 2
  if (!opt.bench_json.empty()) {
    try {
      bench = bench_from_json(read_whole_file(opt.bench_json, kMaxBenchFileBytes, "a bench table"));
    } catch (const std::exception& e) {
      std::cerr << "scanviz: --bench " << opt.bench_json << ": " << e.what() << "\n";
      return 2;
    }
  }
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

  // The lesson's options edit its request (run/request.hpp); the run they make is checked when it
  // records, once, by the run layer.
  RunRequest& r = ui.lesson.request;
  const auto field = [&](const char* key, const std::string& value) {
    try {
      set_field(r, key, value);
      return true;
    } catch (const RequestError&) {
      return false;
    }
  };
  if (opt.n > 0) r.n = opt.n;
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
    set_algorithm(ui.lesson, opt.algorithm);
  }
  if (opt.warp > 0) {  // a warp-level algorithm's width, the others' lockstep: both remember it
    r.warp = opt.warp;
    if (opt.warp >= 2) ui.lesson.other_warp = opt.warp;
  }
  if (!opt.op.empty() && !field("op", opt.op)) {
    std::cerr << "scanviz: --op: unknown operator '" << opt.op << "' (" << op_names_text() << ")\n";
    return 2;
  }
  if (!opt.type.empty() && (!field("type", opt.type) || r.type == ValueType::Interval)) {  // the interval operator's own type
    std::cerr << "scanviz: --type: unknown type '" << opt.type << "' (int32, int64, float, double)\n";
    return 2;
  }
  r.exclusive |= opt.exclusive;
  if (!opt.input.empty() && !field("input", opt.input)) {
    std::cerr << "scanviz: --input: '" << opt.input << "' is not slides, random:SEED (1 or more) or values such as 3,6,7,4\n";
    return 2;
  }
  if (input_mode(ui.lesson) == 2) ui.lesson.typed = r.input;
  if (!opt.scan.empty() && !field("scan", opt.scan)) {
    std::cerr << "scanviz: --scan: '" << opt.scan
              << "' is not plain, segmented[:DENSITY] (0 to 1), compact[:PREDICATE] (e.g. compact:x%2==0) or allocate\n";
    return 2;
  }
  if (!opt.schedule.empty() && !field("schedule", opt.schedule == "random" ? ui.lesson.random_schedule : opt.schedule)) {
    std::cerr << "scanviz: --schedule: unknown schedule '" << opt.schedule << "' (in-order, reverse, round-robin, random[:SEED])\n";
    return 2;
  }
  if (schedule_index(ui.lesson) == static_cast<int>(Schedule::Kind::Random)) ui.lesson.random_schedule = r.schedule;
  if ((opt.gpu || !opt.measure_log2_n.empty()) && !ui.gpu.usable) {
    std::cerr << "scanviz: " << (opt.gpu ? "--executor gpu" : "--measure") << ": no usable CUDA device (" << ui.gpu.error
              << ")\n";
    return 2;
  }
  r.executor = opt.gpu ? "gpu" : "emulator";
  r.amplify = static_cast<std::uint64_t>(opt.amplify_seed);
  r.block = opt.block;
  ui.kernel.report = opt.report_kernel;
  // A kernel of the user's own: the lesson, from its file (followed as it is saved) or from the
  // text a page's link carries.
  const bool linked_kernel = opt.kernel_path.empty() && !opt.kernel_name.empty();
  if (!opt.kernel_path.empty() || linked_kernel) {
    std::string text = opt.kernel_text;
    try {
      if (!linked_kernel) text = read_kernel_source(opt.kernel_path);
    } catch (const std::exception& e) {
      std::cerr << "scanviz: --kernel: " << e.what() << "\n";
      return 2;
    }
    KernelEditor& e = ui.kernel.editor;
    e.name = linked_kernel ? opt.kernel_name : std::filesystem::path(opt.kernel_path).filename().string();
    e.text = text;
    ui.lesson.own_kernel = make_own_kernel(e.name, std::move(text));
    if (!linked_kernel) ui.kernel.watch.path = opt.kernel_path;  // its stamp is taken at the first poll
  }
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
    if (r.n.value_or(8) > 8 && opt.input.empty()) r.input.clear();  // the slides' input has 8 values: a seeded one
    // Recorded on the worker and waited for, so the worker's fiber stacks are mapped before the
    // controls ask for another lesson.
    ui.recorder.request(ui.lesson, ui.side_by_side);
    if (std::optional<LessonRecording> r = ui.recorder.wait()) show_recording(ui.lesson, std::move(*r));
    // A lesson the options ask for and that cannot run (n over the algorithm's limit, say) is a usage
    // error at the command line; in the window the same message waits in the controls.
    if (!ui.lesson.error.empty()) {
      // A kernel's names its place (FILE:LINE:COL: error: ...); a link's is one line of the page's.
      std::cerr << (linked_kernel ? "scanviz: link: " : ui.lesson.own_kernel ? "" : "scanviz: ") << ui.lesson.error << "\n";
      return 2;
    }
  }
  if (ui.lesson.own_kernel) {  // recorded: its report card is made while the window opens
    ui.kernel.asked_grade = ui.lesson.own_kernel;
    ui.kernel.checker.request(ui.lesson.own_kernel);
  }
  set_step(ui, opt.step < 0 ? 0 : opt.step);  // a lesson starts where the lecture does: the first step
  ui.playing = opt.play;
  ui.predict.focus = ui.predict.on = opt.predict;
  ui.source.report = opt.report_source;
  ui.predict.log = !opt.keys.empty();
  try {
    script = parse_input_script(opt.keys);
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

}  // namespace sv::gui
