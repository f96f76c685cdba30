// `scanviz stats`' divergence figures of a block-level trace: one line of totals and one of the
// steps in the text report, and the "divergence" object of `stats --json`.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>

#include "trace/trace.hpp"

namespace sv {

void print_divergence(std::ostream& out, const Trace& trace);
nlohmann::json divergence_json(const Trace& trace);

}  // namespace sv
