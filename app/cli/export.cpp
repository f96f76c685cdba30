// `scanviz export --format chrome-trace TRACE OUT`: the converters are the engine's
// (trace/chrome_trace.hpp); this is the command line around them.
#include "cli/export.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "core/files.hpp"
#include "standard_output.hpp"
#include "trace/chrome_trace.hpp"
#include "trace/trace_json.hpp"

namespace sv::cli {

namespace {

constexpr const char* kFormats = "chrome-trace";

// One event a line: a diff or grep of the output reads like the trace, and it stays plain JSON.
std::string event_per_line(const nlohmann::json& doc) {
  std::string text = "{\"traceEvents\": [";
  const nlohmann::json& events = doc.at("traceEvents");
  for (std::size_t i = 0; i < events.size(); ++i) text += (i ? ",\n" : "\n") + events[i].dump();
  text += "\n]";
  for (const auto& [key, value] : doc.items())
    if (key != "traceEvents") text += ",\n" + nlohmann::json(key).dump() + ": " + value.dump();
  return text + "}\n";
}

struct ExportOptions {
  std::string format;  // "chrome-trace"
  std::string trace;   // the scanviz trace to read ("-": standard input)
  std::string out;     // the file to write ("-": standard output)
};

// Reads the trace, writes OUT whole or not at all, and returns the exit code: 0, or 2 with one line
// on stderr for an unknown format, a trace that cannot be read, or an output that cannot be written.
int export_trace(const ExportOptions& o) {
  try {
    if (o.format != "chrome-trace")
      throw std::invalid_argument("export: unknown --format '" + o.format + "' (" + kFormats + ")");
    const Trace trace = load_trace(o.trace);
    const nlohmann::json doc = chrome_trace(trace);
    write_file_atomically(o.out, event_per_line(doc));
    const bool to_stdout = stream_named(o.out) == 1;
    if (!to_stdout) mark_status_only();
    (to_stdout ? std::cerr : std::cout) << "wrote " << output_name(o.out) << ": " << doc["traceEvents"].size()
                                         << " trace events of " << trace.meta.algorithm << " ("
                                         << (trace.tile_events.empty() ? "threads on the step clock" : "tiles on multiprocessor lanes")
                                         << "); open it in ui.perfetto.dev or chrome://tracing\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "scanviz: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace

Command add_export(CLI::App& app) {
  auto o = std::make_shared<ExportOptions>();
  auto* command = app.add_subcommand("export", "write a trace in another tool's format: chrome-trace (Perfetto, chrome://tracing)");
  command->add_option("--format", o->format, "chrome-trace: the Chrome Trace Event Format (JSON)")->required();
  command->add_option("TRACE", o->trace, "the scanviz trace to read (- for standard input)")->required();
  command->add_option("OUT", o->out, "the file to write (- for standard output)")->required();
  return {command, [o] { return export_trace(*o); }};
}

}  // namespace sv::cli
