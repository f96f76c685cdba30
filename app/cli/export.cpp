// `scanviz export --format chrome-trace TRACE OUT`: the converters are the engine's
// (trace/chrome_trace.hpp); this is the command line around them.
#include "cmd_export.hpp"

#include <iostream>
#include <string>

#include "core/files.hpp"
#include "standard_output.hpp"
#include "trace/chrome_trace.hpp"
#include "trace/trace_json.hpp"

namespace sv {

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

}  // namespace

ExportCommand add_export_command(CLI::App& app) {
  ExportCommand c;
  c.options = std::make_shared<ExportOptions>();
  c.app = app.add_subcommand("export", "write a trace in another tool's format: chrome-trace (Perfetto, chrome://tracing)");
  c.app->add_option("--format", c.options->format, "chrome-trace: the Chrome Trace Event Format (JSON)")->required();
  c.app->add_option("TRACE", c.options->trace, "the scanviz trace to read (- for standard input)")->required();
  c.app->add_option("OUT", c.options->out, "the file to write (- for standard output)")->required();
  return c;
}

int ExportCommand::run() const {
  const ExportOptions& o = *options;
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

}  // namespace sv
