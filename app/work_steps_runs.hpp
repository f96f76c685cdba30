// The runs behind the work-against-steps charts: one emulator trace per (race-free block algorithm,
// n), int32 inclusive sum, in-order schedule, each read as a point (analysis/work_steps.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/work_steps.hpp"

namespace sv {

// Sizes an algorithm cannot hold in one block are skipped.
std::vector<WorkStepsPoint> measure_work_steps(const std::vector<std::int64_t>& sizes = default_work_steps_sizes());

}  // namespace sv
