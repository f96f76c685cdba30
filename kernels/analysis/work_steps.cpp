// Work against steps, read from traces.
#include "analysis/work_steps.hpp"

#include <sstream>

#include "analysis/analysis.hpp"

namespace sv {

std::vector<std::int64_t> default_work_steps_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 2; n <= 2 * kMaxBlockThreads; n *= 2) sizes.push_back(n);
  return sizes;
}

WorkStepsPoint work_steps_point(const Trace& trace) {
  const Metrics m = compute_metrics(trace);
  return {trace.meta.algorithm, trace.meta.n, m.steps, m.operations, closed_form(trace.meta.algorithm, trace.meta.n, false)};
}

std::string work_steps_csv(const std::vector<WorkStepsPoint>& points) {
  std::ostringstream s;
  s << "algorithm,n,steps,operations,closed_steps,closed_operations\n";
  for (const WorkStepsPoint& p : points) {
    s << p.algorithm << ',' << p.n << ',' << p.steps << ',' << p.operations << ',';
    if (p.closed) s << p.closed->steps << ',' << p.closed->operations;
    else s << ',';
    s << '\n';
  }
  return s.str();
}

}  // namespace sv
