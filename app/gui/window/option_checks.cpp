// Every option of `scanviz gui` (and of a page's link) applied in one place: the window's own checked
// here, the lesson's run by the run layer (run/request.hpp).
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
#include "gui/window/class_panel.hpp"
#include "gui/window/kernel_window.hpp"
#include "kernel_run.hpp"
#include "lesson_run.hpp"
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
  ui.saved_font_scale = ui.settings.font_scale;
  if (opt.font_scale > 0) ui.settings.font_scale = std::clamp(opt.font_scale, 1.0f, 3.0f);
  ui.pending_font_scale = ui.settings.font_scale;
  ui.side_by_side = opt.side_by_side;
  ui.lecture = opt.lecture;
  ui.show_charts = opt.charts;
  ui.show_divergence = opt.divergence;
  ui.floats.show = opt.floats;
  ui.floats.cell = opt.float_cell;
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

  // The lesson: the options' request over the controls, each kind of algorithm keeping its warp
  // field. What the window cannot show is said here; what cannot run, once, by the run layer.
  Lesson& l = ui.lesson;
  const RunRequest& asked = opt.lesson;
  if (find_device_algorithm(asked.algorithm)) {
    std::cerr << "scanviz: --algo: " << asked.algorithm
              << " is a device-wide scan: the look-back view shows it (--lookback default; in a link, lookback=default)\n";
    return 2;
  }
  if (asked.type == ValueType::Interval) {  // the type control holds the numeric types; interval is its operator's own
    std::cerr << "scanviz: --type: unknown type 'interval' (int32, int64, float, double)\n";
    return 2;
  }
  set_algorithm(l, asked.algorithm);
  const std::optional<std::int32_t> kind_warp = l.request.warp;
  l.request = asked;
  if (!asked.warp) l.request.warp = kind_warp;
  else if (*asked.warp >= 2) l.other_warp = asked.warp;  // a warp-level algorithm's width, the others' lockstep: both remember it
  seeded_input_past_the_slides(l.request, opt.input_given);
  if (input_mode(l) == 2) l.typed = l.request.input;
  if (l.request.schedule == "random") l.request.schedule = l.random_schedule;
  if (schedule_index(l) == static_cast<int>(Schedule::Kind::Random)) l.random_schedule = l.request.schedule;
  if (l.request.executor == "auto") l.request.executor = ui.gpu.usable ? "gpu" : "emulator";
  const bool gpu = l.request.executor == "gpu";
  if ((gpu || !opt.measure_log2_n.empty()) && !ui.gpu.usable) {
    std::cerr << "scanviz: " << (gpu ? "--executor gpu" : "--measure") << ": no usable CUDA device (" << ui.gpu.error << ")\n";
    return 2;
  }
  ui.kernel.report = opt.report_kernel;
  ui.submissions.report = opt.report_class;
  if (!opt.class_path.empty()) {
    try {
      show_class(ui, open_class_path(opt.class_path));
    } catch (const std::exception& e) {
      std::cerr << "scanviz: --class: " << e.what() << "\n";
      return 2;
    }
  }
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
  } else {
    // The run the lesson asks for, checked as every run is (run_config throws a RequestError, which
    // the caller says in its own words: --n on the command line, n in a link). A warp width the
    // options name is checked as given; the lesson narrows only its own default to a small block.
    // (A kernel of the user's own is checked by its recording, below.)
    RunRequest run = lesson_request(l, l.request.algorithm);
    if (const AlgorithmInfo* info = find_algorithm(asked.algorithm); info && info->warp_level && asked.warp) run.warp = asked.warp;
    run_config(run);
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
    // Recorded on the worker and waited for, so the worker's fiber stacks are mapped before the
    // controls ask for another lesson.
    ui.recorder.request(ui.lesson, ui.side_by_side);
    if (std::optional<LessonRecording> r = ui.recorder.wait()) show_recording(ui.lesson, std::move(*r));
    // A lesson that fails as it records (on the GPU, say) is a usage error at the command line; in
    // the window the same message waits in the controls.
    if (!ui.lesson.error.empty()) {
      // A kernel's own error names its place (FILE:LINE:COL: error: ...); any other is the program's;
      // a link's is one line of the page's.
      const bool placed = ui.lesson.own_kernel && ui.lesson.error.rfind(ui.lesson.own_kernel->name + ":", 0) == 0;
      std::cerr << (linked_kernel ? "scanviz: link: " : placed ? "" : "scanviz: ") << ui.lesson.error << "\n";
      return 2;
    }
  }
  if (ui.lesson.own_kernel) ask_grade(ui, ui.lesson.own_kernel);  // recorded: its report card is made while the window opens
  set_step(ui, opt.step < 0 ? 0 : opt.step);  // a lesson starts where the lecture does: the first step
  ui.playing = opt.play && !opt.reduce_motion;
  ui.reduce_motion = ui.lookback.jumps = opt.reduce_motion;
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
