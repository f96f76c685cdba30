// Text views of a trace for the terminal: `scanviz show` (the steps as the slides draw them) and
// `scanviz stats` (metrics, hazards, correctness), plus the JSON form of the stats.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace sv {

void print_steps(std::ostream& out, const Trace& trace);
void print_stats(std::ostream& out, const Trace& trace);
nlohmann::json stats_json(const Trace& trace);

// A value as JSON: a number for int and finite float types, a string otherwise ("x0..x3", "inf").
nlohmann::json value_json(ValueType type, const Payload& v);

}  // namespace sv
