// `scanviz lesson` (lesson.hpp): the lesson's run recorded as the window records it, its steps
// printed as the text mirror (mirror/), the keys followed.
#include "cli/lesson.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/values.hpp"
#include "device/device_options.hpp"
#include "entry/record.hpp"
#include "gpu/executor.hpp"
#include "lesson_quiz.hpp"
#include "lesson_run.hpp"
#include "mirror/mirror_text.hpp"
#include "terminal_keys.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

namespace {

constexpr int kPlayDelayMs = 800;  // between steps while playing, only where a person watches a terminal

constexpr const char* kKeyTable =
    "Keys (at a terminal as you press them; from a pipe, one a line):\n"
    "  n, Enter or Right arrow: the next step\n"
    "  p or Left arrow: the step before\n"
    "  g or Home: the first step; G or End: the last step\n"
    "  space, or the word play: play to the end\n"
    "  P, or the word predict: predict mode on or off (before each step, questions answered with a digit)\n"
    "  h or ?: these keys\n"
    "  q: quit\n";

TraceView lesson_view(const CLI::App& command, const LessonOptions& o) {
  if (!o.trace_path.empty()) {
    std::vector<std::string> keys{"exclusive"};
    for (const auto& [key, text] : o.flags.text) keys.push_back(key);
    for (const std::string& key : keys)
      if (command.count("--" + key)) throw std::invalid_argument("--trace and --" + key + ": a trace file is its own run; choose one");
    Trace t = load_trace(o.trace_path);
    if (t.events.empty() && !t.tile_events.empty())
      throw std::invalid_argument("--trace " + o.trace_path + ": a device-wide trace, whose tiles the window's look-back view shows "
                                  "(scanviz show prints its launches)");
    if (t.steps.empty() || t.snapshots.size() < t.steps.size()) throw std::invalid_argument("--trace " + o.trace_path + ": the trace has no steps to show");
    return make_trace_view(std::move(t));
  }
  RunRequest asked = cli::request_of(command, o.flags, default_lesson_request());
  if (find_device_algorithm(asked.algorithm))
    throw std::invalid_argument("--algo: " + asked.algorithm + " is a device-wide scan, which the window's look-back view shows; "
                                "the lesson steps through block algorithms (scanviz algos lists them)");
  seeded_input_past_the_slides(asked, command.count("--input") > 0);
  if (asked.executor == "auto") asked.executor = probe_gpu().usable ? "gpu" : "emulator";
  return make_trace_view(record(lesson_run(asked)).trace);
}

// One lesson, followed key by key.
class TerminalLesson {
 public:
  TerminalLesson(const TraceView& view, bool predict) : view_(view), predict_(predict) {}

  int run() {
    out_ << heading_text(lesson_heading(view_)) << "Keys: n next, p previous, g first, G last, space plays, P predict, h help, q quits.\n";
    if (predict_) out_ << "Predict mode is on.\n";
    show(0);
    for (;;) {
      const std::optional<KeyPress> k = keys_.next();
      if (!k) return 0;  // the input ended: the lesson ends with it
      if (!follow(*k)) return 0;
    }
  }

 private:
  int last() const { return static_cast<int>(view_.trace.steps.size()) - 1; }

  void show(int step) {
    step_ = step;
    out_ << "\n" << step_text(mirror_step(view_, step)) << std::flush;
  }

  // Moves to `target`; in predict mode each step on the way forward is asked, then shown. False: quit.
  bool go(int target) {
    const auto asked = [&](int step) { return !predict_ || ask_before_step(out_, keys_, view_, step, score_) == QuizEnd::Answered; };
    if (predict_)
      while (step_ + 1 < target) {
        if (!asked(step_ + 1)) return false;
        show(step_ + 1);
      }
    if (target > step_ && !asked(target)) return false;
    show(target);
    return true;
  }

  bool play() {
    const bool watched = ::isatty(STDOUT_FILENO);
    while (step_ < last()) {
      if (!go(step_ + 1)) return false;
      if (step_ == last() || !watched) continue;
      if (keys_.from_terminal()) {
        if (keys_.next(kPlayDelayMs)) {  // any key pauses
          out_ << "Paused at step " << step_ + 1 << " of " << last() + 1 << ".\n" << std::flush;
          return true;
        }
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(kPlayDelayMs));
      }
    }
    return true;
  }

  // False when the lesson ends.
  bool follow(const KeyPress& k) {
    const std::string where = std::to_string(step_ + 1) + " of " + std::to_string(last() + 1);
    switch (k.key) {
      case Key::Next:
        if (step_ == last()) out_ << "This is the last step, " << where << ". p goes back, q quits.\n";
        else return go(step_ + 1);
        break;
      case Key::Previous:
        if (step_ == 0) out_ << "This is the first step, " << where << ".\n";
        else show(step_ - 1);
        break;
      case Key::First: show(0); break;
      case Key::Last: return go(last());
      case Key::Play:
        if (step_ == last()) out_ << "This is the last step, " << where << ": g goes to the first.\n";
        else return play();
        break;
      case Key::Predict:
        predict_ = !predict_;
        out_ << (predict_ ? "Predict mode is on: before each step, its questions.\n" : "Predict mode is off.\n");
        break;
      case Key::Help: out_ << kKeyTable; break;
      case Key::Quit: out_ << "Quit at step " << where << ".\n" << std::flush; return false;
      case Key::Digit: out_ << "No question is open: P turns predict mode on.\n"; break;
      case Key::Other: out_ << "Unknown key " << k.text << ": h lists the keys.\n"; break;
    }
    out_ << std::flush;
    return true;
  }

  const TraceView& view_;
  bool predict_;
  int step_ = 0;
  QuizScore score_;
  KeyReader keys_{STDIN_FILENO};
  std::ostream& out_ = std::cout;
};

}  // namespace

Command add_lesson(CLI::App& app) {
  auto options = std::make_shared<LessonOptions>();
  LessonOptions& o = *options;
  CLI::App* lesson = app.add_subcommand("lesson", "the window's lesson as text, one step at a time, keys from standard input "
                                                  "(for a screen reader, or without a display)");
  cli::add_run_flags(*lesson, o.flags, {
      {"algo", "the lesson's block algorithm (default kogge-stone-double-buffer; scanviz algos lists them)"},
      {"n", "the lesson's n (default 8)"},
      {"op", "the operator: " + op_names_text() + " (default interval)"},
      {"type", "the value type with a numeric operator: int32 (default), int64, float or double"},
      {"exclusive", "an exclusive scan"},
      {"input", "slides (the default up to n = 8), random:SEED (the default above), values such as 3,6,7,4, or @FILE"},
      {"scan", "plain (default), segmented[:DENSITY], compact[:PREDICATE] or allocate"},
      {"block", "threads per block (default: as many as n needs)"},
      {"warp", "the warp width of warp-* algorithms (default 4), or the threads the emulator runs in lockstep "
               "(default: 1 for the racy kernel, 32 for the others)"},
      {"schedule", "the emulator's schedule: in-order (default), reverse, round-robin or random[:SEED]"},
      {"seed", "seed of the random input and of a random schedule without its own"},
      {"executor", "emulator (default), gpu, or auto (the GPU when usable)"},
      {"amplify", "with --executor gpu: the race amplifier's seed"},
  });
  lesson->add_option("--trace", o.trace_path, "follow this recorded trace (scanviz trace --out FILE) instead of recording a lesson");
  lesson->add_flag("--predict", o.predict, "start in predict mode: before each step, its questions, answered with a digit");
  return {lesson, [options, lesson] {
    const TraceView view = lesson_view(*lesson, *options);
    return TerminalLesson(view, options->predict).run();
  }};
}

}  // namespace sv::cli
