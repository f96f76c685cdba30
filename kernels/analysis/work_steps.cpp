// Work against steps, measured from emulator traces.
#include "analysis/work_steps.hpp"

#include <sstream>

#include "analysis/analysis.hpp"
#include "emulator/record.hpp"

namespace sv {

std::vector<std::int64_t> default_work_steps_sizes() {
  std::vector<std::int64_t> sizes;
  for (std::int64_t n = 2; n <= 2 * kMaxBlockThreads; n *= 2) sizes.push_back(n);
  return sizes;
}

std::vector<WorkStepsPoint> measure_work_steps(const std::vector<std::int64_t>& sizes) {
  std::vector<WorkStepsPoint> points;
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    for (std::int64_t n : sizes) {
      if (n < 1 || n > static_cast<std::int64_t>(kMaxBlockThreads) * a.items_per_thread) continue;
      BlockRunConfig c;
      c.algorithm = std::string(a.name);
      c.n = n;
      const Metrics m = compute_metrics(record_block_scan(c));
      points.push_back({c.algorithm, n, m.steps, m.operations, closed_form(a.name, n, false)});
    }
  }
  return points;
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
