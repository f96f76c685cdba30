// `scanviz export`: a trace in another program's format (docs/cli.md). Today one format,
// chrome-trace, the Chrome Trace Event Format that Perfetto and chrome://tracing open.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace sv {

struct ExportOptions {
  std::string format;  // "chrome-trace"
  std::string trace;   // the scanviz trace to read ("-": standard input)
  std::string out;     // the file to write ("-": standard output)
};

// The subcommand and the options it fills: main registers it and runs it, one line each.
struct ExportCommand {
  CLI::App* app = nullptr;
  std::shared_ptr<ExportOptions> options;

  // Reads the trace, writes OUT whole or not at all, and returns the exit code: 0, or 2 with one line
  // on stderr for an unknown format, a trace that cannot be read, or an output that cannot be written.
  int run() const;
};

ExportCommand add_export_command(CLI::App& app);

}  // namespace sv
