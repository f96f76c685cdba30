// `scanviz lesson`: the window's lesson as text in the terminal, one step at a time, for a screen
// reader and for anyone without a display (docs/cli.md). The keys are the window's, read from
// standard input: raw key presses at a terminal, one key a line from a pipe.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "run_flags.hpp"

namespace sv {

struct LessonOptions {
  cli::RunFlags flags;     // the lesson's run, as `scanviz gui` takes it
  std::string trace_path;  // follow this recorded trace instead
  bool predict = false;    // start in predict mode
};

CLI::App* add_lesson_command(CLI::App& app, LessonOptions& o);

// Records (or loads) the lesson and follows the keys; 0 when the keys quit or the input ends. Bad
// options throw RequestError or std::invalid_argument, which the command line says in one line.
int run_lesson(const CLI::App& command, const LessonOptions& o);

}  // namespace sv
