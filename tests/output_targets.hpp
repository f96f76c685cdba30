// One writing command (trace, render, chart, bench --json, gui --screenshot) run against every kind
// of output a user can name: a regular file, /dev/full, a FIFO with a reader, a symbolic link,
// standard output into a pipe, /dev/null and a read-only folder.
#pragma once

#include <filesystem>
#include <string>
#include <utility>

#include "run_command.hpp"

namespace sv_test {

struct Writer {
  std::string command;      // scanviz's arguments, with {out} where the output's name goes
  std::string ext;          // the format as a file name's extension: "json", "png"
  std::string format_flag;  // what names without that extension ("-", a FIFO) add, e.g. "--format png"
  std::string setup;        // shell commands run first in the test's folder, e.g. making the trace to render
  std::string launcher;     // put before the program, e.g. "xvfb-run -a" for a display
  bool same_bytes = true;   // two runs write the same bytes (a timing table does not)
};

inline Writer writer(std::string command, std::string ext, std::string format_flag = {}) {
  Writer w;
  w.command = std::move(command);
  w.ext = std::move(ext);
  w.format_flag = std::move(format_flag);
  return w;
}

// Checks `w` on each kind of output: what arrives (the bytes of a regular file's run), the exit code,
// one-line errors naming the problem, and that no device, FIFO or link was replaced or left a file.
void check_output_targets(const Writer& w);

// Runs the shell `command` in `dir` with standard output on a pseudo-terminal; `out` is what the
// terminal received.
Run run_on_terminal(const std::string& command, const std::filesystem::path& dir);

// The refusal of PNG or GIF bytes on a terminal (standard output on a pseudo-terminal): exit 2, one
// line on stderr, nothing on the terminal.
void check_binary_refused_on_terminal(const Writer& w);

}  // namespace sv_test
