// `scanviz lesson`: the window's lesson as text in the terminal, one step at a time, for a screen
// reader and for anyone without a display (docs/cli.md). The keys are the window's, read from
// standard input: raw key presses at a terminal, one key a line from a pipe.
#pragma once

#include <string>

#include "cli/command.hpp"
#include "run_flags.hpp"

namespace sv::cli {

struct LessonOptions {
  RunFlags flags;          // the lesson's run, as `scanviz gui` takes it
  std::string trace_path;  // follow this recorded trace instead
  bool predict = false;    // start in predict mode
};

// Records (or loads) the lesson and follows the keys; 0 when the keys quit or the input ends. Bad
// options throw RequestError or std::invalid_argument, which the command line says in one line.
Command add_lesson(CLI::App& app);

}  // namespace sv::cli
