// The CPU emulator's warp picker: which runnable warp issues the next warp instruction under a
// Schedule (core/schedule.hpp).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "core/schedule.hpp"

namespace sv {

// The warps that can issue, as bits. The scheduler updates a warp's bit after it issues, instead of
// looking at every lane at every step: a block of 1024 threads in lockstep 1 spent most of a check
// there (docs/performance.md).
class WarpSet {
 public:
  explicit WarpSet(int warps) : words_((static_cast<std::size_t>(warps) + 63) / 64, 0) {}
  void set(int warp, bool on);
  int count() const { return count_; }
  // Ascending warp indices; -1 where there is none.
  int first() const { return next_from(0); }
  int last() const;
  int first_after(int warp) const { return next_from(warp + 1); }
  int nth(int k) const;  // the k-th (from 0), 0 <= k < count()

 private:
  int next_from(int warp) const;
  std::vector<std::uint64_t> words_;
  int count_ = 0;
};

class WarpPicker {
 public:
  explicit WarpPicker(Schedule schedule) : schedule_(schedule), rng_(schedule.seed) {}
  // runnable: not empty.
  int pick(const WarpSet& runnable);

 private:
  Schedule schedule_;
  std::mt19937_64 rng_;
  int last_ = -1;
};

}  // namespace sv
