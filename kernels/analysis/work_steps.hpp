// Work against steps for every algorithm: the steps (depth) and operator applications (work) of a
// trace next to the closed forms. The data of `scanviz chart work-steps` and of the window's charts;
// the traces are recorded above this layer (app/work_steps_runs.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algorithms.hpp"
#include "trace/trace.hpp"

namespace sv {

struct WorkStepsPoint {
  std::string algorithm;
  std::int64_t n = 0;
  std::int64_t steps = 0;
  std::int64_t operations = 0;
  std::optional<ClosedForm> closed;  // where the closed form applies (n a power of two)
};

// Powers of two from 2 up to each algorithm's block capacity (1024 or 2048).
std::vector<std::int64_t> default_work_steps_sizes();

// A block algorithm's trace as one point: its measured steps and operations, and the closed form at
// its n (inclusive).
WorkStepsPoint work_steps_point(const Trace& trace);

// algorithm,n,steps,operations,closed_steps,closed_operations (closed_* empty without a closed form)
std::string work_steps_csv(const std::vector<WorkStepsPoint>& points);

// Snir's lower bound for a prefix network on n inputs: depth + size >= 2n - 2.
inline std::int64_t snir_min_operations(std::int64_t n, std::int64_t depth) { return 2 * n - 2 - depth; }

}  // namespace sv
