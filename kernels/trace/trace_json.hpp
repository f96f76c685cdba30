// Trace <-> JSON. Saving streams the text (no DOM: a 1024-element trace has ~60k events); loading
// validates every field and throws TraceError naming the first bad field (e.g. "events[12].index").
#pragma once

#include <filesystem>
#include <iosfwd>
#include <stdexcept>
#include <string>

#include "trace/trace.hpp"

namespace sv {

struct TraceError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void write_trace_json(std::ostream& out, const Trace& trace);
std::string trace_to_json(const Trace& trace);
Trace trace_from_json(const std::string& text);  // throws TraceError

// Through write_file_atomically (an error never leaves a half-written FILE; "-" is standard
// output). Throws TraceError("cannot write FILE: reason").
void save_trace(const std::filesystem::path& path, const Trace& trace);
// "-" reads standard input. Throws TraceError ("FILE: field: problem").
Trace load_trace(const std::filesystem::path& path);

}  // namespace sv
