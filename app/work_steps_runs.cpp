// The work-against-steps charts' runs, recorded on the emulator (work_steps_runs.hpp).
#include "work_steps_runs.hpp"

#include <string>

#include "emulator/record.hpp"

namespace sv {

std::vector<WorkStepsPoint> measure_work_steps(const std::vector<std::int64_t>& sizes) {
  std::vector<WorkStepsPoint> points;
  for (const AlgorithmInfo& a : block_algorithms()) {
    if (a.racy) continue;
    for (std::int64_t n : sizes) {
      if (n < 1 || n > static_cast<std::int64_t>(kMaxBlockThreads) * a.items_per_thread) continue;
      BlockRunConfig c;
      c.algorithm = std::string(a.name);
      c.n = n;
      points.push_back(work_steps_point(record_block_scan(c)));
    }
  }
  return points;
}

}  // namespace sv
