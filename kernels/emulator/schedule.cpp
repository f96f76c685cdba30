// The CPU emulator's warp picker.
#include "emulator/schedule.hpp"

namespace sv {

int WarpPicker::pick(const std::vector<int>& runnable) {
  int chosen = runnable.front();
  switch (schedule_.kind) {
    case Schedule::Kind::InOrder: chosen = runnable.front(); break;
    case Schedule::Kind::Reverse: chosen = runnable.back(); break;
    case Schedule::Kind::RoundRobin:
      chosen = runnable.front();
      for (int w : runnable)
        if (w > last_) {
          chosen = w;
          break;
        }
      break;
    case Schedule::Kind::Random: chosen = runnable[rng_() % runnable.size()]; break;
  }
  last_ = chosen;
  return chosen;
}

}  // namespace sv
