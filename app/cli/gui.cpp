// `scanviz gui` (gui.hpp): the window's options, checked here once, then the window.
#include "cli/gui.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/output_options.hpp"
#include "core/values.hpp"
#include "gui/app.hpp"
#include "gui/kernel_refusal.hpp"
#include "gui/platform/desktop.hpp"
#include "kernel_run.hpp"
#include "lesson_run.hpp"
#include "run_flags.hpp"

namespace sv::cli {

namespace {

struct GuiFlags {
  gui::GuiOptions window;
  RunFlags flags;  // the lesson: a run request over the default lesson (GuiOptions::lesson)
  std::string size = "1600x900", measure, mouse;
};

// The options the command line gives, checked; the lesson's request is checked by the window, once.
void check_window_options(GuiFlags* o, const CLI::App* gui_cmd) {
  if (std::sscanf(o->size.c_str(), "%dx%d", &o->window.width, &o->window.height) != 2 || o->window.width < 320 || o->window.height < 240 ||
      o->window.width > 8192 || o->window.height > 8192)
    throw UsageError("--size must be WxH between 320x240 and 8192x8192, not '" + o->size + "'");
  if (o->window.frames < 0) throw UsageError("--frames must not be negative (0, the default, runs until the window is closed)");
  if (gui_cmd->count("--step") && o->window.step < 0)
    throw UsageError("--step must be 0 or more (0 is the first step), not " + std::to_string(o->window.step));
  int used = 0;
  if (!o->mouse.empty() && (std::sscanf(o->mouse.c_str(), "%f,%f%n", &o->window.mouse_x, &o->window.mouse_y, &used) != 2 ||
                         used != static_cast<int>(o->mouse.size()) || o->window.mouse_x < 0 || o->window.mouse_y < 0 || o->window.frames == 0))
    throw UsageError("--mouse must be X,Y (non-negative window pixels) and comes with --frames, not '" + o->mouse + "'");
  if (o->window.font_scale != 0 && !(o->window.font_scale >= 1 && o->window.font_scale <= 3)) throw UsageError("--font-scale must be between 1 and 3");
  o->window.lesson = request_of(*gui_cmd, o->flags, default_lesson_request());  // checked by the window, once
  o->window.input_given = gui_cmd->count("--input") > 0;
  float_input_defaults(o->window.lesson, gui_cmd->count("--op") > 0, gui_cmd->count("--type") > 0);
  if (!o->measure.empty())
    for (std::int64_t n : parse_sizes(o->measure, 30)) {
      const int log2_n = std::countr_zero(static_cast<std::uint64_t>(n));
      if (std::popcount(static_cast<std::uint64_t>(n)) != 1 || log2_n < 10 || log2_n > 28)
        throw UsageError("--measure: the timing panel measures powers of two from 2^10 to 2^28, not " + std::to_string(n));
      o->window.measure_log2_n.push_back(log2_n);
    }
  if (!o->window.lookback.empty() && !o->window.trace_path.empty())
    throw UsageError("--lookback and --trace: choose one (a device-wide trace opens in the look-back view by itself)");
  if (!o->window.report_layout.empty() && o->window.frames == 0) throw UsageError("--report-layout comes with --frames");
  if (!o->window.kernel_path.empty()) {  // a kernel of your own in place of a built-in lesson
    if (o->window.lesson.executor == "auto") o->window.lesson.executor = "emulator";  // where a kernel of your own runs
    if (auto no = gui::window_kernel_refusal(o->window)) {
      if (no->key == "side") no->key = "side-by-side";  // the link's key, the command line's flag
      throw UsageError(kernel_refusal_line(*no));
    }
  }
  if (!o->window.screenshot.empty()) refuse_binary_on_terminal("--screenshot", o->window.screenshot, "png");
}

}  // namespace

Command add_gui(CLI::App& app) {
  auto o = std::make_shared<GuiFlags>();
  const std::vector<std::string> themes(gui::kThemes.begin(), gui::kThemes.end());
  auto* gui_cmd = app.add_subcommand("gui", "open the window (what scanviz with no arguments does)");
  gui_cmd->add_option("--trace", o->window.trace_path, "open this trace instead of recording the default lesson");
  add_run_flags(*gui_cmd, o->flags, {
      {"algo", "the lesson's algorithm"},
      {"n", "the lesson's n"},
      {"warp", "the lesson's warp width (warp-* algorithms; default 4, as Fig. 2), or for the other algorithms "
               "the threads the emulator runs in lockstep (default 1, each on its own, as the slides draw it)"},
      {"op", "the lesson's operator: " + op_names_text() + " (default interval)"},
      {"executor", "record the lesson on the emulator (default), the gpu, or auto (the GPU when usable)"},
      {"amplify", "with --executor gpu: the race amplifier's seed (0 = off)"},
      {"type", "the lesson's value type with a numeric operator: int32 (default), int64, float or double"},
      {"exclusive", "the lesson as an exclusive scan"},
      {"input", "the lesson's input: slides (the slides' values, the default up to n = 8), random:SEED (the default "
                "above, seed 1), values such as 3,6,7,4, @FILE, or with --type float or double scaled, uniform, mixed "
                "or cancel (the float lesson's inputs)"},
      {"scan", "plain (default), segmented[:DENSITY] (heads drawn with that chance, default 0.25), "
               "compact[:PREDICATE] (default x % 2 == 0) or allocate"},
      {"schedule", "the emulator's schedule for the lesson: in-order (default), reverse, round-robin or random[:SEED]"},
      {"block", "threads per block (default: as many as n needs; a kernel of your own: its BLOCK_DIM)"},
      {"launch", "with --kernel: the launch as CUDA says it, 'NAME<<<GRID, BLOCK, SHARED_BYTES>>>(ARGS)' (docs/cli.md)"},
  });
  gui_cmd->add_option("--measure", o->measure,
                      "GPU: measure the timing panel's algorithm, CUB and the copy at these sizes (2^10..2^28, e.g. "
                      "2^20,2^24) at start; with --frames, the frames count from when they are done");
  gui_cmd->add_option("--kernel", o->window.kernel_path,
                      "open the lesson on this scan kernel of your own (.cu, docs/kernel-subset.md) and follow the file as it "
                      "is saved (K opens it in the editor, with its report card)");
  gui_cmd->add_option("--step", o->window.step, "start at this step (default: the first, where a lecture starts)");
  gui_cmd->add_option("--theme", o->window.theme, "light, dark or high-contrast")
      ->check(CLI::IsMember(themes));
  gui_cmd->add_option("--font-scale", o->window.font_scale, "1 to 3");
  gui_cmd->add_flag("--side-by-side", o->window.side_by_side, "show the single-buffer kernel beside the lesson");
  gui_cmd->add_flag("--play", o->window.play, "start playing");
  gui_cmd->add_flag("--reduce-motion", o->window.reduce_motion,
                    "less motion: nothing plays by itself (not even --play), the look-back view jumps, no blinking cursor");
  gui_cmd->add_flag("--lecture", o->window.lecture, "start in lecture mode (fullscreen, large font, diagram only)");
  gui_cmd->add_flag("--charts", o->window.charts, "open the work-against-steps charts");
  gui_cmd->add_flag("--timing", o->window.timing, "open the GPU timing panel");
  gui_cmd->add_flag("--floats", o->window.floats, "open the float lesson: each output's error in ULPs and its addition tree (or U)");
  gui_cmd->add_option("--float-cell", o->window.float_cell, "with --floats: the output whose addition tree is shown (default: the last)");
  gui_cmd->add_flag("--divergence", o->window.divergence, "open the warp divergence window (active and idle lanes per step)");
  gui_cmd->add_option("--bench", o->window.bench_json, "show this scanviz bench --json table in the timing panel");
  gui_cmd->add_option("--lookback", o->window.lookback,
                      "open the look-back view with a preset: default, fig6 (the paper's snapshot), deadlock, stale, "
                      "torn (a 16-byte descriptor read in halves), stall, 10000-tiles, run-to-run (a float sum run twice: "
                      "where the look-backs stopped, the bits that differ), deterministic (the same, deterministic=on) or "
                      "pipelined (how a scan reaches the copy: the pipelined kernel's warp roles, a trace recorded on a GPU)");
  gui_cmd->add_option("--size", o->size, "window size WxH");
  gui_cmd->add_option("--frames", o->window.frames, "run this many frames and exit (0, the default: until the window is closed)");
  gui_cmd->add_option("--screenshot", o->window.screenshot, "with --frames: save the last frame as PNG (- for standard output)");
  gui_cmd->add_flag("--report-frames", o->window.report_frames, "print frame times and GL object counts");
  gui_cmd->add_flag("--report-source", o->window.report_source,
                    "print the kernel source pane's file and its lit lines (line, window rectangle, text) at the last frame");
  gui_cmd->add_option("--class", o->window.class_path,
                      "open a class in the class panel (G): a folder of .cu files (graded in the background, a submission at "
                      "a time) or the class table scanviz check FOLDER --summary FILE.csv wrote; picking one opens it as --kernel does");
  gui_cmd->add_flag("--report-class", o->window.report_class,
                    "print the class panel's state at the last frame: each submission's verdict, score and first finding, the one opened");
  gui_cmd->add_flag("--report-kernel", o->window.report_kernel,
                    "print the Your kernel panel's state at the last frame: the editor, the error line, the report card's entries");
  gui_cmd->add_option("--report-layout", o->window.report_layout,
                      "with --frames: write the last frame's layout as JSON (each cell's rectangle and drawn text, "
                      "the row labels, the heat legend, the timeline and narration)");
  gui_cmd->add_option("--mouse", o->mouse, "with --frames: hold the mouse pointer at X,Y (window pixels), e.g. to show a tooltip");
  gui_cmd->add_flag("--predict", o->window.predict, "start in predict-the-next-step mode (P toggles it)");
  gui_cmd->add_option("--keys", o->window.keys,
                      "scripted input fed as key presses from the third frame, two frames each: letters, digits, enter, "
                      "tab, shift+tab, escape, backspace, arrows, home, end, space, pageup, pagedown, text:CHARS, click:X,Y, drop:PATH (a file "
                      "dropped on the window), wait:N");
  return {gui_cmd, [o, gui_cmd] {
    check_window_options(o.get(), gui_cmd);
    gui::DesktopPlatform desktop(o->window.width, o->window.height);
    return gui::run_gui(o->window, desktop);
  }};
}

}  // namespace sv::cli
