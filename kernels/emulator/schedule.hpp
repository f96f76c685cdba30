// The CPU emulator's warp picker: which runnable warp issues the next warp instruction under a
// Schedule (core/schedule.hpp).
#pragma once

#include <random>
#include <vector>

#include "core/schedule.hpp"

namespace sv {

class WarpPicker {
 public:
  explicit WarpPicker(Schedule schedule) : schedule_(schedule), rng_(schedule.seed) {}
  // runnable: ascending warp indices, not empty.
  int pick(const std::vector<int>& runnable);

 private:
  Schedule schedule_;
  std::mt19937_64 rng_;
  int last_ = -1;
};

}  // namespace sv
