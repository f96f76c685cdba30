// The text and JSON of a segmented scan's heads and of an application's four rows (input,
// predicate or requests, the exclusive scan, the scattered output), for `show` and `stats`.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace sv {

// " | segmented, 3 segments" or " | compaction of x > 0" or "" : what describe_run appends.
std::string application_summary(const Trace& t);
// The segment heads under the input (segmented traces); nothing for others.
void print_segments(std::ostream& out, const Trace& t);
// The four rows of a compaction or allocation; nothing for other traces.
void print_application(std::ostream& out, const Trace& t);
// {"kind", "predicate", "marks", "scan", "total", "owner", "collisions", "correct"} or null.
nlohmann::json application_json(const Trace& t);

}  // namespace sv
