// A trace with the analyses every view of a lesson reads, computed once.
#include "mirror/trace_view.hpp"

#include <map>

namespace sv {

TraceView make_trace_view(Trace trace) {
  TraceView v;
  v.trace = std::move(trace);
  v.hazards = find_hazards(v.trace);
  v.edges = dataflow_edges(v.trace);
  v.metrics = compute_metrics(v.trace);
  const Correctness checked = check_result(v.trace);
  v.outcome = checked.outcome;
  v.wrong_outputs = checked.wrong.size();
  const Trace& t = v.trace;
  if (t.buffers.empty()) return v;  // nothing to draw
  // A device-wide trace records tiles, not elements: every row shows the output after a launch.
  const bool device = t.events.empty() && !t.tile_events.empty() && t.buffers.size() > 1;
  int previous = device ? 1 : t.buffers.size() > 2 ? 2 : static_cast<int>(t.buffers.size()) - 1;
  for (const Step& s : t.steps) {
    std::map<int, int> writes;
    for (std::uint64_t i = s.first_event; i < s.end_event; ++i)
      if (t.events[i].kind == EventKind::Write && t.events[i].buffer != 0) ++writes[t.events[i].buffer];
    int chosen = previous;
    int most = 0;
    for (auto [b, count] : writes)
      if (count > most) most = count, chosen = b;
    v.row_buffer.push_back(chosen);
    previous = chosen;
  }
  return v;
}

}  // namespace sv
