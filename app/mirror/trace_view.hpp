// A trace with the analyses the lesson's views need (the window's diagram and narration, the
// terminal's and the page's text mirror), computed once when the trace is loaded. No GUI here.
#pragma once

#include <cstddef>
#include <vector>

#include "analysis/analysis.hpp"
#include "trace/trace.hpp"

namespace sv {

struct TraceView {
  Trace trace;
  std::vector<Hazard> hazards;
  std::vector<Edge> edges;
  Metrics metrics;
  Outcome outcome = Outcome::Correct;  // against the recomputed reference
  std::size_t wrong_outputs = 0;       // how many outputs differ from it
  std::vector<int> row_buffer;  // per step: the buffer that step's row shows
};
TraceView make_trace_view(Trace trace);

}  // namespace sv
